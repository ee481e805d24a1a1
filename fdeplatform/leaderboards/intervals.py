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
    terms = _terms(cells, k)
    numerators = np.array([terms[m][0] for m in INTERVAL_METRICS])
    denominators = np.array([terms[m][1] for m in INTERVAL_METRICS])
    intervals = ratio_bootstrap_cis(numerators, denominators)
    return dict(zip(INTERVAL_METRICS, intervals, strict=True))


def _terms(cells: Sequence[CaseCell], k: int) -> dict[str, tuple[FloatArray, FloatArray]]:
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
    return terms
