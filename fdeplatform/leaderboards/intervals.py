"""95% case-bootstrap intervals for every metric of a leaderboard row (FDE-Bench A.4).

Each interval resamples the row's cases with replacement (2,000 resamples, seed 12345, cases in
slug order: the draws of ``metrics.stats.case_bootstrap_ci``) and recomputes the metric on the
drawn cases, each drawn case bringing all of its runs. Every board metric is a ratio of sums
over cases, so one pass over the draws serves them all (``ratio_bootstrap_cis``):

- Quality, pass@k, pass^k, Gym: case-macro means, Σ value / Σ 1 over the drawn cases where the
  case's value is defined (pass@k / pass^k: cases with at least k runs).
- DSR: run-pooled, Σ runs reaching the reference / Σ runs.
- Recall ... Redund.: pooled over judged runs where the metric is defined, Σ sum / Σ count.

A resample in which a metric is undefined (no drawn case has a defined value) is dropped, as
for Quality; a metric undefined in every resample has no interval (None).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from fdeplatform.leaderboards.cells import CLARIFICATION_METRICS, CaseCell
from metrics.delivery import case_pass_at_k, case_pass_hat_k
from metrics.stats import FloatArray, macro_terms, pooled_terms, ratio_bootstrap_cis

Interval = tuple[float, float] | None
#: The metrics with an interval, in the board's column order.
INTERVAL_METRICS = ("quality", "dsr", "pass_at_k", "pass_hat_k", *CLARIFICATION_METRICS, "gym")


def row_intervals(cells: Sequence[CaseCell], *, k: int) -> dict[str, Interval]:
    """{metric: 95% interval} for one configuration's cells (given in case order)."""
    return rows_intervals([cells], k=k)[0]


def rows_intervals(rows: Sequence[Sequence[CaseCell]], *, k: int) -> list[dict[str, Interval]]:
    """``row_intervals`` of many rows, each row's cells in case order.

    Rows with as many cases share the same draws, so they are bootstrapped together: one
    product and one percentile pass per distinct case count instead of one per row.
    """
    by_size: defaultdict[int, list[int]] = defaultdict(list)
    for index, cells in enumerate(rows):
        by_size[len(cells)].append(index)
    found: dict[int, dict[str, Interval]] = {}
    width = len(INTERVAL_METRICS)
    for indices in by_size.values():
        terms = [_terms(rows[i], k) for i in indices]
        intervals = ratio_bootstrap_cis(
            np.vstack([top for top, _ in terms]), np.vstack([bottom for _, bottom in terms])
        )
        for n, index in enumerate(indices):
            found[index] = dict(
                zip(INTERVAL_METRICS, intervals[n * width : (n + 1) * width], strict=True)
            )
    return [found[index] for index in range(len(rows))]


def _terms(cells: Sequence[CaseCell], k: int) -> tuple[FloatArray, FloatArray]:
    """(numerators, denominators), each (metrics × cases) in ``INTERVAL_METRICS`` order."""
    valid = [[True] * c.valid + [False] * (c.runs - c.valid) for c in cells]
    terms = {
        "quality": macro_terms([c.mean for c in cells]),
        "dsr": pooled_terms([c.reached for c in cells], [c.runs for c in cells]),
        "pass_at_k": macro_terms([case_pass_at_k(flags, k) for flags in valid]),
        "pass_hat_k": macro_terms([case_pass_hat_k(flags, k) for flags in valid]),
        "gym": macro_terms([c.gym_mean for c in cells]),
    }
    for metric in CLARIFICATION_METRICS:
        sums = [c.clarification.get(metric, (0.0, 0))[0] for c in cells]
        counts = [c.clarification.get(metric, (0.0, 0))[1] for c in cells]
        terms[metric] = pooled_terms(sums, counts)
    return (
        np.array([terms[m][0] for m in INTERVAL_METRICS]),
        np.array([terms[m][1] for m in INTERVAL_METRICS]),
    )
