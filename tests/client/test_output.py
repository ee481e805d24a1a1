"""Rendering helpers: timestamps from the server, budgets, tables, verdicts."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from fde_client.output import duration, parse_time, score_text, seconds_left, table, verdict

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)  # noqa: UP017 (runs on 3.10 too)


@pytest.mark.parametrize(
    "text",
    ["2026-05-01T12:30:00Z", "2026-05-01T12:30:00+00:00", "2026-05-01T14:30:00.123456+02:00"],
)
def test_server_timestamps_parse_with_or_without_z(text: str) -> None:
    assert seconds_left(text, now=NOON) == pytest.approx(1800, abs=1)


@pytest.mark.parametrize("value", [None, "", "tomorrow", 42])
def test_unparseable_deadlines_give_none(value: object) -> None:
    assert parse_time(value) is None
    assert seconds_left(value, now=NOON) is None


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "expired"), (-5, "expired"), (59.9, "0m 59s"), (250, "4m 10s"), (7500, "2h 05m")],
)
def test_durations_read_like_a_budget(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_tables_align_columns_and_leave_the_last_one_unpadded() -> None:
    rendered = table(["slug", "rounds", "title"], [["a-long-slug", 30, "Title"], ["b", None, "T"]])
    assert rendered.splitlines() == [
        "slug         rounds  title",
        "a-long-slug  30      Title",
        "b                    T",
    ]


def test_top_level_verdict_keys_win_over_nested_ones() -> None:
    result = {"score": 0.5, "error_kind": None, "submission": {"result": {"error_kind": "x"}}}
    assert verdict(result)["error_kind"] == "x"  # None at the top does not hide the nested one
    assert verdict({"score": 1, "result": {"score": 0}})["score"] == 1


def test_a_result_without_a_score_shows_its_status() -> None:
    assert score_text({"status": "pending", "score": None}) == "pending"
    assert score_text({}) == "no result"
    assert score_text({"score": 1.0, "valid": True}) == "score 1.0000"


def test_a_practice_band_and_violations_without_rule_keys_read_well() -> None:
    from fde_client.output import score_text, violation_lines

    practice = {"result": {"score": None, "score_band": [0.6, 0.7], "valid": True}}
    assert score_text(practice) == "score 0.6-0.7 of the reference"
    broken = {"result": {"violations": [{"message": "A pallet goes too high.", "count": 3}]}}
    assert violation_lines(broken) == ["  - (3x) A pallet goes too high."]


def test_a_practice_band_at_the_top_or_a_broken_rule_reads_in_plain_words() -> None:
    from fde_client.output import score_text

    top = {"result": {"score": None, "score_band": [1.0, 1.1], "valid": True}}
    broken = {"result": {"score": None, "score_band": [0.0, 0.0], "valid": False}}
    assert score_text(top) == "score at or above the reference"
    assert score_text(broken) == "invalid: breaks a rule"
