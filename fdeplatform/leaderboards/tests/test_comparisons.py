"""Paired comparisons by case, Wilcoxon tests and Holm correction over a family of tests."""

from __future__ import annotations

from typing import Any

import pytest

from fdeplatform.leaderboards.comparisons import compare_many, condition_table
from fdeplatform.leaderboards.configs import ConfigId, parse_config_id
from fdeplatform.leaderboards.filters import Filters
from fdeplatform.leaderboards.selectors import case_cells
from metrics.stats import holm, wilcoxon_signed_rank

BOT = ConfigId("agent", "bot-a", "interact_req")
BOB = ConfigId("human", "bob", "interact_req")
HIDDEN = ConfigId("agent", "bot-a", "hidden")


def test_paired_differences_per_case_with_holm_over_the_family(standard: dict[str, Any]) -> None:
    cells = case_cells(Filters())
    vs_bob, vs_hidden = compare_many(cells, BOT, [BOB, HIDDEN])
    diffs = [d.difference for d in vs_bob.per_case]
    assert diffs == pytest.approx([0.5 - 0.6, 2.8 / 3 - 0.6, 0.2 / 3 - 0.6])
    assert vs_bob.difference is not None and vs_bob.difference.mean == pytest.approx(-0.1)
    assert vs_bob.difference.low <= -0.1 <= vs_bob.difference.high
    assert vs_bob.p == pytest.approx(wilcoxon_signed_rank(diffs))  # type: ignore[arg-type]
    assert [vs_bob.p_holm, vs_hidden.p_holm] == pytest.approx(holm([vs_bob.p, vs_hidden.p]))
    assert vs_hidden.difference is not None and vs_hidden.difference.mean == pytest.approx(0.3)


def test_comparison_uses_only_shared_cases(standard: dict[str, Any]) -> None:
    alice = ConfigId("human", "alice", "interact_req")
    (c,) = compare_many(case_cells(Filters()), alice, [BOT])
    assert c.difference is not None and c.difference.cases == 1  # alice played alpha only
    assert c.difference.mean == pytest.approx(1.0 - 0.5)
    assert [d.case for d in c.per_case] == ["alpha", "beta", "gamma"]
    assert c.per_case[1].a is None and c.per_case[1].difference is None


def test_condition_table_reports_both_deltas_where_played(standard: dict[str, Any]) -> None:
    (row,) = condition_table(case_cells(Filters()))
    assert row.participant == ("agent", "bot-a")
    assert row.quality["hidden"] == pytest.approx(0.2)
    assert row.quality["interact_req"] == pytest.approx(0.5) and row.quality["full"] is None
    assert row.req is not None and row.req.difference is not None
    assert row.req.difference.mean == pytest.approx(0.3) and row.remain is None
    assert row.req.p_holm == row.req.p  # a family of one test


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("agent:react / gpt@x@interact_req", ConfigId("agent", "react / gpt@x", "interact_req")),
        ("human:a:b@full", ConfigId("human", "a:b", "full")),
        ("humans:all@hidden", ConfigId("humans", "all", "hidden")),
        ("robot:x@full", None),
        ("agent:x@warp", None),
        ("agent:@full", None),
        ("agent-x", None),
    ],
)
def test_config_ids_round_trip(text: str, expected: ConfigId | None) -> None:
    assert parse_config_id(text) == expected
    if expected is not None:
        assert str(expected) == text
