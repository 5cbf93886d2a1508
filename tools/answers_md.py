"""Write docs/answers.md from the JSON of full `cardgen analyze` runs, so no figure is copied by hand.

    cardgen analyze common-carrier --jobs 2 --json > out/cc.json
    cardgen analyze dotcombust --jobs 2 --json > out/dcb.json
    cardgen analyze clusterfuck --jobs 2 --json > out/cf.json
    .venv/bin/python tools/answers_md.py out/cc.json out/dcb.json out/cf.json > docs/answers.md

Ladder JSON (`cardgen ladder ... --json`) becomes the section on how strong the players are, and a
.md file given too is appended as it is (notes on what the runs leave open).

Each report gives its command (rebuilt from the settings it records), its size and time, and per
question the seed's words, the answer, how sure it is, where it stopped and the evidence as JSON.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

INTRO = """\
# Answers to the designers' questions

The original rules ask questions only play can answer. `cardgen analyze GAME`
plays the experiments behind each (cardgen/analyze.py) and answers with
numbers and 95 % intervals. These are the answers of full runs, written by
`tools/answers_md.py` from the runs' `--json` output; rerun the command above
each game to check them (same seed, same answers; the seconds depend on the
machine). The answers are only as good as the players: every seat plays the
policy named, information-set Monte Carlo tree search with that many
simulations a move (README, "Policies"; its strength against greedy and random
play is measured by `cardgen ladder`).
"""


def _percent(share: float) -> str:
    """A share in whole percent, unless that would round it onto 50 (the line a ladder's verdict
    turns on): then to two decimals."""
    whole = f"{100 * share:.0f}"
    return f"{100 * share:.2f}" if whole == "50" and share != 0.5 else whole


def render(reports: list[dict]) -> str:
    parts = [INTRO]
    ladders = [r for r in reports if "pairs" in r]
    if ladders:
        parts += ["## How strong the players are", "",
                  ("`cardgen ladder` plays each pair of policies on both seatings; a policy's score is its "
                   "share of the decided games, counted per seat held (ties count for neither). "
                   "A pair is settled when the 95 % interval of the score excludes 50 %."), "",
                  "| game | players | options | seed | pair | games | wins | ties | first's score, 95 % CI | verdict |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for ladder in ladders:
            options = ", ".join(f"{k}={v}" for k, v in ladder.get("options", {}).items()) or "default"
            for pair in ladder["pairs"]:
                parts.append(f"| {ladder['game']} | {ladder['players']} | {options} | {ladder['seed']} "
                             f"| {pair['a']} vs {pair['b']} "
                             f"| {pair['games']} | {pair['a_wins']}-{pair['b_wins']} | {pair['ties']} "
                             f"| {_percent(pair['a_score'])}% ({_percent(pair['score_low'])}-"
                             f"{_percent(pair['score_high'])}%) | {pair['verdict']} |")
        parts += ["", "The ladders' commands (each with `--json`; the CPU time their games took):", ""]
        for ladder in ladders:
            cpu = sum(pair.get("cpu_seconds", 0.0) for pair in ladder["pairs"])
            parts.append(f"- `{ladder_command(ladder)}`" + (f" ({cpu / 60:.0f} CPU-minutes)" if cpu else ""))
        parts.append("")
    for report in reports:
        if "pairs" in report:
            continue
        parts += [f"## {report['game']}", "", f"    {command_of(report)}", "", size_of(report), ""]
        for answer in report["questions"]:
            parts += [f"### {answer['id']}", "", f"> {answer['question']}", "", answer["answer"], "",
                      f"*Confidence:* {answer['confidence']}.", ""]
            if answer.get("stopped"):
                parts += [f"*Stopped:* {answer['stopped']}.", ""]
            parts += ["<details><summary>Evidence</summary>", "", "```json",
                      json.dumps(answer["evidence"], indent=1), "```", "", "</details>", ""]
    return "\n".join(parts)


def command_of(report: dict) -> str:
    """The command that gives the same answers (its settings as the report records them)."""
    command = (f"cardgen analyze {report['game']} --policy {report['policy']} --games {report['games']} "
               f"--seed {report['seed']}")
    if report.get("precision") is not None:
        command += f" --precision {100 * report['precision']:g} --max-games {report['max_games']}"
    return command + (" --quick" if report.get("quick") else "")


def size_of(report: dict) -> str:
    """How much the run played and what it cost: games, wall minutes with its processes, CPU minutes."""
    jobs = report.get("jobs") or 1
    grown = ""
    if report.get("precision") is not None:
        grown = (f", grown to at most {report['max_games']} an experiment until each answer settled or was bounded"
                 if report["max_games"] > report["games"] else ", its budget (each answer says whether it settled)")
    line = (f"{report['experiments']} experiments of {report['games']} games{grown}: {report['total_games']} games "
            f"played, {report['seconds'] / 60:.0f} minutes on the machine that ran it "
            f"({jobs} process{'es' if jobs > 1 else ''})")
    if report.get("cpu_seconds") is not None:
        line += f", {report['cpu_seconds'] / 60:.0f} CPU-minutes"
    return line + "."


def ladder_command(ladder: dict) -> str:
    """The command that plays the same ladder (its settings as the report records them)."""
    options = "".join(f" --option {k}={str(v).lower() if isinstance(v, bool) else v}"
                      for k, v in ladder.get("options", {}).items() if k != "players")
    players = f" --players {ladder['players']}" if "players" in ladder.get("options", {}) else ""
    return (f"cardgen ladder {ladder['game']}{players}{options} --policies {','.join(ladder['policies'])} "
            f"--games {ladder['games_per_seating']} --seed {ladder['seed']}")


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    reports = [json.loads(Path(path).read_text(encoding="utf-8")) for path in argv if not path.endswith(".md")]
    notes = [Path(path).read_text(encoding="utf-8") for path in argv if path.endswith(".md")]
    sys.stdout.write(render(reports) + "".join("\n" + note.rstrip("\n") + "\n" for note in notes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
