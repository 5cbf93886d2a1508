"""cardgen analyze: each question quotes the seed, runs its experiments and answers with evidence."""
from __future__ import annotations

import json
import re

import pytest

from cardgen.analyze import QUESTIONS, Settings, analyze

IDS = ["cc-target", "cc-last-player", "cc-pbx", "dcb-variants", "cf-rounds", "cf-status-power"]


def test_every_question_of_the_issue_is_asked():
    assert [q.id for q in QUESTIONS] == IDS


@pytest.mark.parametrize("game", ["common-carrier", "dotcombust", "clusterfuck"])
def test_a_quick_analysis_answers_with_evidence(game):
    report = analyze(game, Settings(policy="random", games=6, quick=True))
    assert report["questions"]
    for answer in report["questions"]:
        assert set(answer) >= {"id", "question", "answer", "evidence", "confidence"}
        assert answer["evidence"]["policy"] == "random"
        assert re.search(r"\d", answer["answer"]), answer["answer"]
    json.dumps(report)


def test_the_command_names_unknown_games_and_questions(cli):
    result = cli("analyze", "clusterfuck", "--quick", "--games", "4", "--question", "cf-rounds", "--json")
    assert result.exit_code == 0, result.output
    assert [q["id"] for q in json.loads(result.output)["questions"]] == ["cf-rounds"]
    bad = cli("analyze", "gops", "--quick")
    assert bad.exit_code == 2 and "no questions for 'gops'" in bad.output


def test_the_report_is_written_as_pdf_or_html_with_a_chart_per_answer(tmp_path):
    from cardgen.analyze import chart_of, write_report

    report = analyze("clusterfuck", Settings(policy="random", games=4, quick=True))
    for answer in report["questions"]:
        title, labels, values, _ = chart_of(answer)
        assert title and len(labels) == len(values) > 0
    pdf = write_report(report, tmp_path / "a.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    html = write_report(report, tmp_path / "a.html").read_text(encoding="utf-8")
    assert html.count("<svg") == len(report["questions"]) and "cf-rounds" in html
    with pytest.raises(Exception, match=r"\.pdf or \.html"):
        write_report(report, tmp_path / "a.txt")
