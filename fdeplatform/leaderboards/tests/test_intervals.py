"""Every board metric's interval, recomputed by hand: draw the cases, recompute the metric.

The runs below are bot-a's Interact-Req runs of the standard fixture (factories.build_standard)
written out again. Each resample draws the three cases with replacement (numpy's Generator,
seed 12345, cases in slug order), gives every drawn copy of a case all of its runs, and computes
the metric with the same ``metrics`` functions the paper-number tests check. The 2.5th and
97.5th percentiles of the defined replicates must be the row's interval.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from django.http import QueryDict
from django.test import Client

from fdeplatform.leaderboards.board import leaderboard
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.leaderboards.filters import filters_from
from fdeplatform.leaderboards.intervals import INTERVAL_METRICS
from fdeplatform.leaderboards.tests.factories import make_case, make_run, user
from metrics.clarification import ClarificationMetrics, average_metrics
from metrics.delivery import GymRun, dsr, gym_mean, pass_at_k, pass_hat_k, quality

BOT = ConfigId("agent", "bot-a", "interact_req")

# (score, valid, contact cost, (recall, precision, ask_f1, kqc1, atc, redundant) or None).
# The third gamma run's coverage is being re-judged, so it has no clarification numbers.
RUNS: dict[str, list[tuple[float, bool, float, tuple[Any, ...] | None]]] = {
    "alpha": [
        (1.0, True, 0.10, (1.0, 0.5, 2 / 3, 0.5, 1.5, 1)),
        (0.5, True, 0.05, (0.5, 1.0, 2 / 3, 0.0, 2.0, 0)),
        (0.0, False, 0.0, (0.0, None, None, 0.0, None, 0)),
    ],
    "beta": [
        (1.0, True, 0.30, (1.0, 1.0, 1.0, 1.0, 1.0, 0)),
        (1.0, True, 0.0, (1.0, 0.75, 6 / 7, 0.5, 1.5, 1)),
        (0.8, True, 0.0, (0.5, 0.5, 0.5, 0.25, 3.0, 2)),
    ],
    "gamma": [
        (0.2, True, 0.0, (0.25, 0.25, 0.25, 0.0, 4.0, 3)),
        (0.0, False, 0.0, (0.0, None, None, 0.0, None, 0)),
        (0.0, False, 0.0, None),
    ],
}
Resample = dict[str, list[tuple[float, bool, float, tuple[Any, ...] | None]]]


def _clarification(drawn: Resample, metric: str) -> float | None:
    judged = [
        ClarificationMetrics(*cov, questions=0)
        for runs in drawn.values()
        for *_, cov in runs
        if cov is not None
    ]
    return getattr(average_metrics(judged), metric)  # type: ignore[no-any-return]


BY_HAND: dict[str, Callable[[Resample], float | None]] = {
    "quality": lambda d: quality({c: [r[0] for r in runs] for c, runs in d.items()}),
    "dsr": lambda d: dsr({c: [r[0] for r in runs] for c, runs in d.items()}),
    "pass_at_k": lambda d: pass_at_k({c: [r[1] for r in runs] for c, runs in d.items()}, 3).value,
    "pass_hat_k": lambda d: pass_hat_k({c: [r[1] for r in runs] for c, runs in d.items()}, 3).value,
    # A valid run's uplift is its score in the fixture; an invalid one delivers nothing (0).
    "gym": lambda d: gym_mean(
        GymRun(c, s if ok else 0.0, False, cost) for c, runs in d.items() for s, ok, cost, _ in runs
    ),
    **{
        m: (lambda d, m=m: _clarification(d, m))
        for m in ("recall", "precision", "ask_f1", "kqc1", "atc", "redundant")
    },
}


def _by_hand(metric: str) -> tuple[float, float]:
    cases = sorted(RUNS)
    draws = np.random.default_rng(12345).integers(0, len(cases), size=(2000, len(cases)))
    replicates = []
    for row in draws:
        # Copies of a case get their own key, so a case drawn twice counts twice.
        drawn = {f"{cases[i]}#{j}": RUNS[cases[i]] for j, i in enumerate(row)}
        value = BY_HAND[metric](drawn)
        if value is not None:
            replicates.append(value)
    low, high = np.percentile(replicates, [2.5, 97.5])
    return float(low), float(high)


def _bot_intervals() -> dict[str, Any]:
    row = leaderboard(filters_from(QueryDict(""))).row(BOT)
    assert row is not None
    return row.intervals


def test_the_hand_written_runs_are_the_fixture(standard: dict[str, Any]) -> None:
    row = leaderboard(filters_from(QueryDict(""))).row(BOT)
    assert row is not None
    everything = {f"{case}#0": runs for case, runs in RUNS.items()}
    assert row.quality == pytest.approx(BY_HAND["quality"](everything))
    assert row.gym == pytest.approx(BY_HAND["gym"](everything))
    assert row.clarification["atc"] == pytest.approx(BY_HAND["atc"](everything))


@pytest.mark.parametrize("metric", INTERVAL_METRICS)
def test_each_interval_is_the_case_bootstrap_of_its_metric(
    standard: dict[str, Any], metric: str
) -> None:
    assert set(BY_HAND) == set(INTERVAL_METRICS)
    interval = _bot_intervals()[metric]
    assert interval is not None
    assert interval == pytest.approx(_by_hand(metric), abs=1e-9)
    assert interval[0] <= interval[1]


def test_two_cases_one_success_each_way_span_zero_to_one(db: None) -> None:
    # DSR over {reached} and {missed}: a quarter of the resamples draws each case twice.
    owner = user("two")
    make_run(case=make_case("hit"), player=owner, agent="two", score=1.0, valid=True)
    make_run(case=make_case("miss"), player=owner, agent="two", score=0.0, valid=False)
    row = leaderboard(filters_from(QueryDict("k=1"))).row(ConfigId("agent", "two", "interact_req"))
    assert row is not None
    assert row.intervals["dsr"] == (0.0, 1.0)
    assert row.intervals["pass_at_k"] == (0.0, 1.0)
    # No coverage was judged: no clarification metric, and so no interval, is defined.
    assert row.intervals["recall"] is None and row.intervals["atc"] is None


def test_a_case_with_fewer_than_k_runs_is_left_out_of_the_pass_intervals(db: None) -> None:
    owner = user("short")
    full, short = make_case("full"), make_case("short")
    for _ in range(2):
        make_run(case=full, player=owner, agent="short", score=1.0, valid=True)
    make_run(case=short, player=owner, agent="short", score=0.0, valid=False)
    row = leaderboard(filters_from(QueryDict("k=2"))).row(
        ConfigId("agent", "short", "interact_req")
    )
    assert row is not None
    # Only "full" (2 valid of 2) has k runs: every resample that draws it says 1.0.
    assert row.intervals["pass_hat_k"] == (1.0, 1.0)
    assert row.intervals["quality"] == (0.0, 1.0)


def test_the_api_carries_every_interval(client: Client, standard: dict[str, Any]) -> None:
    body = json.loads(client.get("/api/leaderboard/").content)
    line = next(r for r in body["rows"] if r["config"] == str(BOT))
    intervals = _bot_intervals()
    for metric in INTERVAL_METRICS:
        assert line[f"{metric}_ci"] == pytest.approx(list(intervals[metric])), metric
    assert "<metric>_ci" in body["definitions"]["intervals"]


def test_the_csv_carries_every_interval(client: Client, standard: dict[str, Any]) -> None:
    text = client.get("/api/leaderboard/export.csv").content.decode()
    line = next(r for r in csv.DictReader(io.StringIO(text)) if r["config"] == str(BOT))
    intervals = _bot_intervals()
    for metric in INTERVAL_METRICS:
        low, high = intervals[metric]
        assert float(line[f"{metric}_low"]) == pytest.approx(low), metric
        assert float(line[f"{metric}_high"]) == pytest.approx(high), metric


def test_rows_bootstrapped_together_get_their_own_intervals(standard: dict[str, Any]) -> None:
    from fdeplatform.leaderboards.intervals import row_intervals, rows_intervals

    rows = leaderboard(filters_from(QueryDict(""))).rows
    cells = [list(row.cells) for row in rows]
    assert len({len(c) for c in cells}) > 1  # rows of one and of three cases, batched by size
    together = rows_intervals(cells, k=3)
    for row_cells, intervals in zip(cells, together, strict=True):
        alone = row_intervals(row_cells, k=3)
        for metric in INTERVAL_METRICS:
            assert intervals[metric] == pytest.approx(alone[metric], abs=1e-12), metric
