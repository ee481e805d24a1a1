"""Uncertainty and comparison statistics over cases, as the FDE-Bench paper reports them.

Why this module exists: a leaderboard row over a few dozen cases is noisy, and the variance that
matters is between cases (FDE-Bench A.4: "the intervals carry the variance between cases"). So
intervals resample cases, not runs, and comparisons pair systems by case.

Sources:
- FDE-Bench A.4: 95% case-bootstrap intervals, 2,000 resamples, seed 12345 (Efron's bootstrap),
  and paired case-bootstrap intervals for differences between systems.
- FDE-Bench §5.1: paired contrasts use two-sided Wilcoxon signed-rank tests on case means with
  Holm correction.

Values are held as a (cases × runs) table padded with NaN, where NaN also marks an undefined
run-level value (e.g. Precision of a run without questions), so a statistic over resamples is
one vectorised numpy expression instead of 2,000 Python loops. A statistic only sees each drawn
case's sum and count of defined values, which is all a case-macro or run-pooled mean needs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from scipy import stats as scipy_stats

K = TypeVar("K", bound=Hashable)
FloatArray = npt.NDArray[np.float64]
#: Maps the drawn cases' (sums, counts) of defined run values, each of shape (resamples, cases),
#: to one value per resample (NaN where undefined).
Statistic = Callable[[FloatArray, FloatArray], FloatArray]

RESAMPLES = 2000
SEED = 12345
LEVEL = 0.95
#: Differences this small are floating-point noise, not a direction (see ``wilcoxon_signed_rank``).
ZERO_DIFFERENCE = 1e-12


def case_table(values: Mapping[K, Sequence[float | None]] | npt.ArrayLike) -> FloatArray:
    """A (cases × runs) float table from {case: runs}, a 1-D array (one value per case) or 2-D.

    Cases keep the mapping's order, which fixes which case each bootstrap draw picks; pass cases
    in a stable order (e.g. sorted by slug) for reproducible intervals. Missing runs and None
    become NaN.
    """
    if isinstance(values, Mapping):
        rows = [[np.nan if v is None else float(v) for v in runs] for runs in values.values()]
        width = max((len(row) for row in rows), default=0)
        table = np.full((len(rows), width), np.nan)
        for i, row in enumerate(rows):
            table[i, : len(row)] = row
        return table
    array = np.asarray(values, dtype=np.float64)
    if array.ndim == 1:
        return array[:, np.newaxis]
    if array.ndim != 2:
        raise ValueError("expected one value per case or a (cases × runs) table")
    return array


def case_sums_and_counts(table: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Each case's sum and number of defined run values: all a case-level statistic needs."""
    defined = ~np.isnan(table)
    return np.where(defined, table, 0.0).sum(axis=-1), defined.sum(axis=-1).astype(np.float64)


def case_means(table: FloatArray) -> FloatArray:
    """Mean over each case's defined runs; NaN for a case with none defined."""
    return _divide_or_nan(*case_sums_and_counts(table))


def case_macro_mean(sums: FloatArray, counts: FloatArray) -> FloatArray:
    """Mean over cases of the mean over runs (FDE-Bench Quality; pass@k of per-case values).

    Cases without a defined value are left out, as a metric is averaged where it is defined.
    """
    defined = counts > 0
    means = np.where(defined, sums / np.maximum(counts, 1), 0.0)
    return _divide_or_nan(means.sum(axis=-1), defined.sum(axis=-1).astype(np.float64))


def run_mean(sums: FloatArray, counts: FloatArray) -> FloatArray:
    """Mean over all defined runs, pooled across cases (FDE-Bench DSR, clarification metrics)."""
    return _divide_or_nan(sums.sum(axis=-1), counts.sum(axis=-1))


def _divide_or_nan(totals: FloatArray, counts: FloatArray) -> FloatArray:
    return np.where(counts > 0, totals / np.maximum(counts, 1), np.nan)


def case_bootstrap_ci(
    values: Mapping[K, Sequence[float | None]] | npt.ArrayLike,
    statistic: Statistic = case_macro_mean,
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> tuple[float, float] | None:
    """Percentile interval of ``statistic`` under resampling cases with replacement (A.4).

    Each resample draws as many cases as there are, with numpy's Generator seeded by ``seed``,
    and keeps each drawn case's runs together (a case enters through its sum and count of defined
    run values). Resamples where the statistic is undefined (NaN, e.g. no run asked a question)
    are dropped; None when no resample is defined.
    """
    sums, counts = case_sums_and_counts(case_table(values))
    if sums.size == 0:
        raise ValueError("a bootstrap needs at least one case")
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, sums.size, size=(resamples, sums.size))
    return _percentile_interval(statistic(sums[picks], counts[picks]), level)


def _percentile_interval(replicates: FloatArray, level: float) -> tuple[float, float] | None:
    defined = replicates[~np.isnan(replicates)]
    if defined.size == 0:
        return None
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(defined, [tail, 100 - tail])
    return float(low), float(high)


@dataclass(frozen=True)
class PairedDifference:
    """Mean over shared cases of (A's case mean − B's case mean), with its bootstrap interval."""

    mean: float
    low: float
    high: float
    cases: int


def paired_case_differences(
    a_by_case: Mapping[K, Sequence[float | None]], b_by_case: Mapping[K, Sequence[float | None]]
) -> FloatArray:
    """A's case mean minus B's for each case both have, in A's case order (NaN if undefined)."""
    shared = [case for case in a_by_case if case in b_by_case]
    a_means = case_means(case_table({case: a_by_case[case] for case in shared}))
    b_means = case_means(case_table({case: b_by_case[case] for case in shared}))
    return a_means - b_means


def paired_bootstrap_diff(
    a_by_case: Mapping[K, Sequence[float | None]],
    b_by_case: Mapping[K, Sequence[float | None]],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> PairedDifference | None:
    """Paired case bootstrap of the difference A − B (FDE-Bench A.4).

    Pairing by case removes the between-case variance both systems share, which is why paired
    intervals resolve differences that overlapping unpaired intervals cannot. Only cases present
    in both (with a defined case mean in both) count; None when there are none.
    """
    differences = paired_case_differences(a_by_case, b_by_case)
    differences = differences[~np.isnan(differences)]
    if differences.size == 0:
        return None
    interval = case_bootstrap_ci(
        differences, case_macro_mean, resamples=resamples, seed=seed, level=level
    )
    assert interval is not None  # every difference is defined, so every resample is
    return PairedDifference(
        mean=float(differences.mean()), low=interval[0], high=interval[1], cases=differences.size
    )


def wilcoxon_signed_rank(differences: Sequence[float]) -> float | None:
    """Two-sided Wilcoxon signed-rank p-value of paired differences (FDE-Bench §5.1).

    Zero differences are discarded before ranking (Wilcoxon's original method, scipy's
    ``zero_method="wilcox"``): a case where both systems score the same says nothing about which
    is better. Differences within 1e-12 of zero count as zero so floating-point noise cannot
    create a sign. scipy picks the exact null distribution for small samples without ties and the
    normal approximation otherwise. None when no nonzero difference is left.
    """
    array = np.asarray(differences, dtype=np.float64)
    if np.isnan(array).any():
        raise ValueError("differences must be defined; drop undefined cases first")
    nonzero = array[np.abs(array) > ZERO_DIFFERENCE]
    if nonzero.size == 0:
        return None
    result = scipy_stats.wilcoxon(nonzero, zero_method="wilcox", alternative="two-sided")
    return float(result.pvalue)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm–Bonferroni adjusted p-values, in the input order (FDE-Bench §5.1).

    The i-th smallest of m defined p-values becomes max over j ≤ i of min(1, (m − j + 1)·p_(j)),
    which keeps adjusted values monotone in the raw ones and at most 1. None (a test that could
    not be run) stays None and does not count towards m.
    """
    defined = sorted((p, position) for position, p in enumerate(p_values) if p is not None)
    if any(not 0 <= p <= 1 for p, _ in defined):
        raise ValueError("p-values must lie in [0, 1]")
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, position) in enumerate(defined):
        running = max(running, min(1.0, (len(defined) - rank) * p))
        adjusted[position] = running
    return adjusted
