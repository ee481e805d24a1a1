from __future__ import annotations

from collections.abc import Iterator

import pytest

from judging.base import Target, Unit, make_judge
from judging.llm_panel import (
    CORRECTIVE_PREFIX,
    SYSTEM_MESSAGE,
    LLMPanelJudge,
    MalformedReply,
    parse_reply,
    quorum,
)
from tests.judging.fake_panel import ScriptedPanelServer, verdict

TARGET = Target(
    key="no_export",
    requirement="The site must never feed power into the grid.",
    triggers=("Can the battery export power to the grid?", "Do we get paid for feed-in?"),
)
UNITS = [
    Unit(index=1, turn=1, text="What format should the file have?"),
    Unit(index=2, turn=1, text="Can we export to the grid?"),
    Unit(index=3, turn=2, text="Is feed-in paid?"),
]
MODELS = ["m1", "m2", "m3", "m4", "m5"]


@pytest.fixture
def serve() -> Iterator[list[ScriptedPanelServer]]:
    servers: list[ScriptedPanelServer] = []
    yield servers
    for server in servers:
        server.close()


def panel(
    servers: list[ScriptedPanelServer],
    scripts: dict[str, list[str | None]],
    *,
    early_stop: bool = True,
) -> tuple[LLMPanelJudge, ScriptedPanelServer]:
    server = ScriptedPanelServer(scripts)
    servers.append(server)
    judge = LLMPanelJudge(
        models=list(scripts),
        base_url=server.base_url,
        api_key="test",
        max_retries=0,
        early_stop=early_stop,
    )
    return judge, server


FOUR_AGREE: dict[str, list[str | None]] = {
    "m1": [verdict(True, [2])],
    "m2": [verdict(False)],
    "m3": [verdict(True, [3])],
    "m4": [verdict(True, [2, 3])],
    "m5": [verdict(True, [1])],
}


def test_by_default_every_judge_is_asked_and_all_agreeing_citations_count(serve) -> None:
    # FDE-Bench A.3: a covered point's matched questions are those cited by the agreeing judges.
    judge, server = panel(serve, FOUR_AGREE, early_stop=False)
    judgment = judge.judge(TARGET, UNITS)
    assert judge.name == "llm"
    assert judgment.covered is True and judgment.matched_units == [1, 2, 3]
    assert len(server.requests) == 5


def test_the_default_comes_from_the_paper_and_the_setting_can_switch_early_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert LLMPanelJudge(models=["m1"], api_key="k").name == "llm"
    monkeypatch.setenv("JUDGE_EARLY_STOP", "true")
    assert LLMPanelJudge(models=["m1"], api_key="k").name == "llm-early-stop"


def test_three_of_five_covered_votes_cover_and_skip_the_rest(serve) -> None:
    judge, server = panel(
        serve,
        {
            "m1": [verdict(True, [2])],
            "m2": [verdict(False)],
            "m3": [verdict(True, [3])],
            "m4": [verdict(True, [2, 3])],
            "m5": [verdict(False)],
        },
    )
    judgment = judge.judge(TARGET, UNITS)
    assert judgment.covered is True
    assert judge.name == "llm-early-stop"
    assert judgment.matched_units == [2, 3]  # union of the agreeing judges asked
    assert judgment.first_turn == 1
    assert [v.judge for v in judgment.votes] == ["m1", "m2", "m3", "m4"]
    assert server.calls_for("m5") == 0
    assert len(server.requests) == 4


def test_three_not_covered_votes_stop_the_panel_early(serve) -> None:
    judge, server = panel(serve, {m: [verdict(False)] for m in MODELS})
    judgment = judge.judge(TARGET, UNITS)
    assert judgment.covered is False
    assert judgment.matched_units == []
    assert judgment.first_turn is None
    assert len(server.requests) == 3
    assert judgment.failed is False


def test_two_covered_of_five_is_not_coverage(serve) -> None:
    scripts: dict[str, list[str | None]] = {
        "m1": [verdict(True, [2])],
        "m2": [verdict(False)],
        "m3": [verdict(True, [2])],
        "m4": [verdict(False)],
        "m5": [verdict(False)],
    }
    judge, server = panel(serve, scripts)
    judgment = judge.judge(TARGET, UNITS)
    assert judgment.covered is False
    assert judgment.matched_units == []
    assert len(server.requests) == 5


def test_matched_units_come_only_from_judges_voting_covered(serve) -> None:
    judge, _ = panel(
        serve,
        {"m1": [verdict(True, [3])], "m2": [verdict(True, [3])], "m3": [verdict(False)]},
    )
    judgment = judge.judge(TARGET, UNITS)
    assert judgment.covered is True
    assert judgment.matched_units == [3]
    assert judgment.first_turn == 2


def test_a_malformed_reply_is_retried_once_with_a_corrective_prefix(serve) -> None:
    judge, server = panel(
        serve,
        {
            "m1": ["I think question 2 covers it.", verdict(True, [2])],
            "m2": [verdict(True, [2])],
            "m3": [verdict(True, [2])],
        },
    )
    judgment = judge.judge(TARGET, UNITS)
    assert judgment.covered is True
    assert server.calls_for("m1") == 2
    retry = [r for r in server.bodies if r["model"] == "m1"][1]
    prefix = CORRECTIVE_PREFIX.split("(")[0]
    assert retry["messages"][1]["content"].startswith(prefix)
    assert judgment.votes[0].covered is True


def test_a_judge_failing_twice_casts_a_failed_vote(serve) -> None:
    judge, server = panel(
        serve,
        {
            "m1": ['{"covered": "maybe"}', "still not json"],
            "m2": [verdict(True, [2])],
            "m3": [verdict(True, [2])],
        },
    )
    judgment = judge.judge(TARGET, UNITS)
    assert server.calls_for("m1") == 2
    assert judgment.votes[0].covered is None
    assert judgment.votes[0].error is not None
    assert judgment.covered is True  # 2 of 3 is the strict majority of three models
    assert judgment.failed is False


def test_every_judge_failing_marks_the_judgment_failed(serve) -> None:
    judge, server = panel(serve, {"m1": [None], "m2": ["nonsense"], "m3": [None]})
    judgment = judge.judge(TARGET, UNITS)
    assert judgment.failed is True
    assert judgment.covered is False
    assert all(v.covered is None for v in judgment.votes)
    assert len(server.requests) == 6  # every judge tried twice


def test_requests_use_temperature_zero_and_the_numbered_question_list(serve) -> None:
    judge, server = panel(serve, {"m1": [verdict(False)]})
    judge.judge(TARGET, UNITS)
    request = server.bodies[0]
    assert request["temperature"] == 0
    system, user = request["messages"]
    assert system == {"role": "system", "content": SYSTEM_MESSAGE}
    assert TARGET.requirement in user["content"]
    assert "- Do we get paid for feed-in?" in user["content"]
    assert "2. Can we export to the grid?" in user["content"]
    assert "3. Is feed-in paid?" in user["content"]


@pytest.mark.parametrize(("models", "needed"), [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_the_quorum_is_three_of_five_or_a_strict_majority(models: int, needed: int) -> None:
    assert quorum(models) == needed


def test_models_come_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("JUDGE_MODELS", " a , b,,c ")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    judge = make_judge("llm")
    assert isinstance(judge, LLMPanelJudge)
    assert judge.settings.models == ("a", "b", "c")
    assert judge.settings.base_url == "http://127.0.0.1:9/v1"


def test_more_than_five_models_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 5 models"):
        LLMPanelJudge(models=["a", "b", "c", "d", "e", "f"], base_url="http://127.0.0.1:9/v1")


@pytest.mark.parametrize(
    "content",
    [
        "",
        '{"covered": 1, "question_ids": [2]}',
        '{"covered": true, "question_ids": []}',
        '{"covered": true, "question_ids": [9]}',
        '{"covered": true, "question_ids": ["2"]}',
    ],
)
def test_unusable_replies_are_malformed(content: str) -> None:
    with pytest.raises(MalformedReply):
        parse_reply(content, {1, 2, 3})


def test_a_fenced_reply_is_read_and_not_covered_cites_nothing() -> None:
    fenced = '```json\n{"covered": true, "question_ids": [3, 2, 3]}\n```'
    assert parse_reply(fenced, {1, 2, 3}) == (True, [2, 3])
    assert parse_reply('{"covered": false, "question_ids": [2]}', {1, 2, 3}) == (False, [])
