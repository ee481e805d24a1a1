"""Every leaderboard metric against numbers worked out by hand from the standard fixture."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from django.http import QueryDict

from fdeplatform.leaderboards.board import Leaderboard, leaderboard
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.leaderboards.filters import filters_from
from fdeplatform.leaderboards.rows import Row
from metrics.stats import case_bootstrap_ci

BOT = ConfigId("agent", "bot-a", "interact_req")
BOT_HIDDEN = ConfigId("agent", "bot-a", "hidden")
BOB = ConfigId("human", "bob", "interact_req")
ALICE = ConfigId("human", "alice", "interact_req")


def board(query: str = "") -> Leaderboard:
    return leaderboard(filters_from(QueryDict(query)))


def row(b: Leaderboard, config: ConfigId) -> Row:
    found = b.row(config)
    assert found is not None, f"no row for {config}"
    return found


def test_delivery_metrics_of_the_agent(standard: dict[str, Any]) -> None:
    bot = row(board(), BOT)
    assert bot.runs == 9 and bot.cases == 3
    # Case means 1.5/3, 2.8/3, 0.2/3 -> Quality 4.5/9.
    assert bot.quality == pytest.approx(0.5)
    assert bot.dsr == pytest.approx(3 / 9)  # 1.0, 1.0, 1.0 reach the reference
    assert bot.pass_at_k.value == pytest.approx(1.0)  # every case has a valid run
    assert bot.pass_hat_k.value == pytest.approx(1 / 3)  # only beta has three valid runs
    assert bot.pass_at_k.cases == 3 and bot.pass_at_k.excluded == 0


def test_clarification_metrics_average_defined_judged_runs_only(standard: dict[str, Any]) -> None:
    metrics = row(board(), BOT).clarification
    # The pending (re-judged) run's stale 1.0s are left out: eight judged runs.
    assert metrics["recall"] == pytest.approx(4.25 / 8)
    assert metrics["precision"] == pytest.approx(4.0 / 6)  # two runs asked nothing
    assert metrics["ask_f1"] == pytest.approx((2 / 3 + 2 / 3 + 1 + 6 / 7 + 0.5 + 0.25) / 6)
    assert metrics["kqc1"] == pytest.approx(2.25 / 8)
    assert metrics["atc"] == pytest.approx(13 / 6)
    assert metrics["redundant"] == pytest.approx(7 / 8)
    assert row(board(), BOT).judged == 8


def test_gym_score_floors_uplift_and_subtracts_contact_cost(standard: dict[str, Any]) -> None:
    bot = row(board(), BOT)
    # Per run s - cost: alpha .9 .45 0, beta .7 1 .8, gamma .2 0 0 -> (0.45 + 2.5/3 + 0.2/3)/3.
    assert bot.gym == pytest.approx((0.45 + 2.5 / 3 + 0.2 / 3) / 3)
    # FDE-Gym counts resolved tasks: only beta's mean (0.7 + 1 + 0.8) / 3 reaches 0.8.
    assert bot.resolved == 1
    assert bot.contact_cost == pytest.approx(0.45 / 9)


def test_gym_floor_applies_before_the_cost(db: None) -> None:
    from fdeplatform.leaderboards.tests.factories import make_case, make_run, user

    case, owner = make_case("deep"), user("neg")
    make_run(case=case, player=owner, agent="neg", score=-3.0, valid=True, costs=[0.1])
    make_run(case=case, player=owner, agent="neg", score=1.0, valid=True)
    neg = row(board(), ConfigId("agent", "neg", "interact_req"))
    assert neg.quality == pytest.approx(-1.0)  # Quality itself is not floored
    assert neg.gym == pytest.approx((-1.0 - 0.1 + 1.0) / 2)


def test_an_incident_voids_the_gain_and_is_never_resolved(db: None) -> None:
    from fdeplatform.leaderboards.tests.factories import make_case, make_run, user

    case, owner = make_case("risky"), user("risky")
    make_run(case=case, player=owner, agent="risky", score=0.9, valid=True, incident=True,
             costs=[0.05])  # fmt: skip
    make_run(case=case, player=owner, agent="risky", score=0.9, valid=True)
    risky = row(board(), ConfigId("agent", "risky", "interact_req"))
    # min(0.9, 0) - 1 = -1 (at the floor) - 0.05, and 0.9 without incident.
    assert risky.gym == pytest.approx((-1.05 + 0.9) / 2)
    assert risky.resolved == 0  # the task had an incident
    assert risky.quality == pytest.approx(0.9)  # delivery metrics ignore incidents


def test_quality_interval_is_the_seeded_case_bootstrap_of_case_means(
    standard: dict[str, Any],
) -> None:
    bot = row(board(), BOT)
    expected = case_bootstrap_ci(np.array([0.5, 2.8 / 3, 0.2 / 3]))
    assert bot.quality_ci == pytest.approx(expected)
    assert bot.quality_ci is not None and bot.quality_ci[0] <= 0.5 <= bot.quality_ci[1]
    assert row(board(), BOT).quality_ci == bot.quality_ci  # fixed seed: same interval


def test_humans_are_one_row_each_and_practice_open_scoring_never_count(
    standard: dict[str, Any],
) -> None:
    b = board()
    assert {str(r.config) for r in b.rows} == {str(BOT), str(BOT_HIDDEN), str(BOB), str(ALICE)}
    bob = row(b, BOB)
    assert (bob.quality, bob.dsr, bob.pass_hat_k.value) == pytest.approx((0.6, 0.0, 1.0))
    assert bob.clarification["recall"] is None  # never judged: undefined, not 0
    assert row(b, ALICE).runs == 2  # her practice run is not on the board


def test_too_few_runs_are_marked_and_ranked_after_complete_rows(standard: dict[str, Any]) -> None:
    b = board()
    assert [str(r.config) for r in b.rows] == [str(BOB), str(BOT), str(ALICE), str(BOT_HIDDEN)]
    assert [r.rank for r in b.rows] == [1, 2, None, None]
    alice = row(b, ALICE)
    assert alice.quality == pytest.approx(1.0)  # the best mean, yet listed after the others
    assert alice.provisional_reasons == ("fewer than 3 runs on 1 case", "1 case (needs 3)")
    assert alice.pass_at_k.value is None  # no case with three runs


def test_k_changes_pass_rates_and_what_counts_as_complete(standard: dict[str, Any]) -> None:
    b = board("k=2")
    alice = row(b, ALICE)
    assert alice.pass_at_k.value == pytest.approx(1.0)
    assert alice.provisional_reasons == ("1 case (needs 3)",)
    # bot-a with k=1: pass@1 = mean over cases of the valid share.
    bot = row(board("k=1"), BOT)
    assert bot.pass_at_k.value == pytest.approx((2 / 3 + 1 + 1 / 3) / 3)


def test_humans_together_pool_every_human_run(standard: dict[str, Any]) -> None:
    humans = row(board("humans=together"), ConfigId("humans", "all", "interact_req"))
    assert humans.runs == 11
    assert humans.quality == pytest.approx((3.8 / 5 + 0.6 + 0.6) / 3)
    assert not humans.provisional


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("condition=hidden", {str(BOT_HIDDEN)}),
        ("who=agents", {str(BOT), str(BOT_HIDDEN)}),
        ("who=humans", {str(BOB), str(ALICE)}),
        ("case=beta", {str(BOT), str(BOT_HIDDEN), str(BOB)}),
        ("sector=energy", {str(BOT), str(BOT_HIDDEN), str(BOB)}),
        ("family=ML", {str(BOT), str(BOT_HIDDEN), str(BOB)}),
    ],
)
def test_filters_choose_the_runs(standard: dict[str, Any], query: str, expected: set[str]) -> None:
    assert {str(r.config) for r in board(query).rows} == expected


def test_family_filter_recomputes_over_the_remaining_cases(standard: dict[str, Any]) -> None:
    bot = row(board("family=ML"), BOT)
    assert bot.cases == 1 and bot.quality == pytest.approx(0.2 / 3)


def test_date_range_uses_the_day_runs_started(standard: dict[str, Any]) -> None:
    bob = row(board("from=2025-02-01"), BOB)
    assert bob.cases == 2 and bob.provisional  # his gamma runs started in January
    assert board("to=2025-01-31").rows[0].config == BOB
    assert len(board("to=2025-01-31").rows) == 1


def test_sort_orders_complete_rows_and_keeps_undefined_last(standard: dict[str, Any]) -> None:
    by_recall = board("sort=-recall").rows
    assert [str(r.config) for r in by_recall[:2]] == [str(BOT), str(BOB)]  # bob has no recall
    by_quality_up = board("sort=quality").rows
    assert [str(r.config) for r in by_quality_up[:2]] == [str(BOT), str(BOB)]
    assert all(r.provisional for r in by_quality_up[2:])


def test_invalid_filters_fall_back_to_defaults_and_are_reported(standard: dict[str, Any]) -> None:
    filters = filters_from(QueryDict("k=99&condition=nonsense&sort=evil"))
    assert (filters.k, filters.condition, filters.sort) == (3, "", "-quality")
    assert len(filters.errors) == 3


def test_runs_on_an_older_case_version_leave_the_board_or_form_their_own_case(
    db: None,
) -> None:
    from fdeplatform.cases.models import CaseVersion
    from fdeplatform.leaderboards.filters import Filters
    from fdeplatform.leaderboards.selectors import case_cells
    from fdeplatform.leaderboards.tests.factories import make_case, make_run, user

    case, owner = make_case("versioned"), user("vera")
    make_run(case=case, player=owner, agent="v", score=1.0, valid=True)
    newer = CaseVersion.objects.create(
        case=case, version="1.1.0", digest="digest-versioned-2", storage_dir="missing/v2"
    )
    case.current_version = newer
    case.save(update_fields=["current_version"])
    make_run(case=case, player=owner, agent="v", score=0.5, valid=True)
    current = case_cells(Filters(case="versioned"))
    assert [(c.case, c.runs, c.mean) for c in current] == [("versioned", 1, 0.5)]
    every = case_cells(Filters(case="versioned", all_versions=True))
    assert sorted((c.case, c.mean) for c in every) == [
        ("versioned@1.0.0", 1.0),
        ("versioned@1.1.0", 0.5),
    ]
