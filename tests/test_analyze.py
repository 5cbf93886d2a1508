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
