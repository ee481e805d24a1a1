"""Uncertainty and comparison statistics over cases, as the FDE-Bench paper reports them.

Why this module exists: a leaderboard row over a few dozen cases is noisy, and the variance that
matters is between cases (FDE-Bench A.4: "the intervals carry the variance between cases"). So
intervals resample cases, not runs, and comparisons pair systems by case.

Sources:
- FDE-Bench A.4: 95% case-bootstrap intervals, 2,000 resamples, seed 12345 (Efron's bootstrap),
  and paired case-bootstrap intervals for differences between systems.
- FDE-Bench §5.1: paired contrasts use two-sided Wilcoxon signed-rank tests on case means with
  Holm correction.
- FDE-Bench §5.3 (RQ2): Spearman rank correlations across configurations.

Values are held as a (cases × runs) table padded with NaN, where NaN also marks an undefined
run-level value (e.g. Precision of a run without questions), so a statistic over resamples is
one vectorised numpy expression instead of 2,000 Python loops. A statistic only sees each drawn
case's sum and count of defined values, which is all a case-macro or run-pooled mean needs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
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


@lru_cache(maxsize=32)
def resample_weights(cases: int, *, resamples: int = RESAMPLES, seed: int = SEED) -> FloatArray:
    """How often each case is drawn in each resample, as a read-only (resamples × cases) matrix.

    These are exactly the draws of ``case_bootstrap_ci`` with the same seed and number of cases:
    row r counts how often each case appears among that resample's picks. A statistic that is a
    sum over the drawn cases is then one product with this matrix instead of a gather over
    2,000 × cases picks, which is what lets the board bootstrap every metric of every row.
    """
    if cases < 1:
        raise ValueError("a bootstrap needs at least one case")
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, cases, size=(resamples, cases))
    weights = np.zeros((resamples, cases))
    np.add.at(weights, (np.arange(resamples)[:, np.newaxis], picks), 1.0)
    weights.flags.writeable = False
    return weights


def ratio_bootstrap_cis(
    numerators: npt.ArrayLike,
    denominators: npt.ArrayLike,
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> list[tuple[float, float] | None]:
    """Case-bootstrap intervals of several statistics of the form Σ a_i / Σ b_i over cases.

    ``numerators`` and ``denominators`` are (statistics × cases), cases in a stable order. Each
    resample draws cases with replacement exactly as ``case_bootstrap_ci`` does (same seed, same
    draws) and computes every statistic on the drawn cases; a resample whose denominator is not
    positive is undefined and dropped, and a statistic with no defined resample gets None.

    Every leaderboard metric has this form (see ``macro_terms`` and ``pooled_terms``): a
    case-macro mean is Σ value_i / Σ 1 over the cases where it is defined, a run-pooled mean
    is Σ sum_i / Σ count_i, and a ratio of mean differences (the Hidden→Full gap recovered) is
    Σ (x_i − h_i) / Σ (f_i − h_i).
    """
    tops = np.atleast_2d(np.asarray(numerators, dtype=np.float64))
    bottoms = np.atleast_2d(np.asarray(denominators, dtype=np.float64))
    if tops.shape != bottoms.shape or tops.ndim != 2:
        raise ValueError("numerators and denominators must both be (statistics × cases)")
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    weights = resample_weights(tops.shape[1], resamples=resamples, seed=seed)
    # Statistics often share a denominator (every case-macro mean over all cases: Σ 1), so
    # each distinct one is summed once. Small products go through einsum: a multi-threaded BLAS
    # is slower for them, badly so (10 ms instead of 0.1 ms) when the cores are busy; a batch of
    # many statistics is one large product, where BLAS wins even then.
    intervals: list[tuple[float, float] | None] = [None] * tops.shape[0]
    # No case with a positive denominator: no resample is defined (e.g. Precision of a row
    # whose runs asked nothing), so there is nothing to draw.
    live = np.flatnonzero((bottoms > 0).any(axis=1))
    if live.size == 0:
        return intervals
    distinct, which = np.unique(bottoms[live], axis=0, return_inverse=True)
    which = np.ravel(which)
    shared = _weighted_sums(weights, distinct)
    positive = shared > 0
    ratios = _weighted_sums(weights, tops[live])
    # Dividing by NaN marks the undefined resamples; in place, as these arrays are the big ones.
    ratios /= np.where(positive, shared, np.nan)[:, which]
    found = _percentile_intervals(ratios, positive.sum(axis=0)[which], level)
    for position, interval in zip(live, found, strict=True):
        intervals[position] = interval
    return intervals


#: Above this many multiply-adds a weighted sum goes through BLAS (see ratio_bootstrap_cis).
_BLAS_WORK = 5_000_000


def _weighted_sums(weights: FloatArray, terms: FloatArray) -> FloatArray:
    """Σ over cases of weight × term: (resamples × cases) by (statistics × cases)."""
    if weights.size * terms.shape[0] > _BLAS_WORK:
        product: FloatArray = weights @ terms.T
    else:
        product = np.einsum("rc,sc->rs", weights, terms)
    return product


def _percentile_intervals(
    replicates: FloatArray, defined: npt.NDArray[np.int_], level: float
) -> list[tuple[float, float] | None]:
    """Per column, the percentile interval of its defined (non-NaN) replicates, vectorised.

    ``replicates`` may be reordered in place.

    Columns defined in every resample take numpy's percentile at once; the others are sorted
    (NaN last) and interpolated exactly as numpy's default ("linear") method does, over their
    defined values only. A column without defined replicates has no interval (None).
    """
    tail = (1 - level) / 2
    quantiles = np.array([100 * tail, 100 * (1 - tail)]) / 100
    bounds = np.full((2, replicates.shape[1]), np.nan)
    full = defined == replicates.shape[0]
    if full.all():  # the common case: no copy, and numpy may reorder the replicates in place
        bounds = np.percentile(replicates, 100 * quantiles, axis=0, overwrite_input=True)
    elif full.any():
        bounds[:, full] = np.percentile(
            replicates[:, full], 100 * quantiles, axis=0, overwrite_input=True
        )
    partial = (defined > 0) & ~full
    if partial.any():
        ordered = np.sort(replicates[:, partial], axis=0)
        counts = defined[partial]
        bounds[:, partial] = [_linear_quantile(ordered, counts, q) for q in quantiles]
    return [
        None if count == 0 else (float(low), float(high))
        for low, high, count in zip(bounds[0], bounds[1], defined, strict=True)
    ]


def _linear_quantile(ordered: FloatArray, counts: npt.NDArray[np.int_], q: float) -> FloatArray:
    """Quantile q of each column's first ``counts`` sorted values (numpy's "linear" method)."""
    virtual = counts * q + (1 - q) - 1  # numpy's virtual index with alpha = beta = 1
    below = np.floor(virtual)
    top = counts - 1
    low = np.where(virtual >= top, top, below).astype(np.intp)
    high = np.where(virtual >= top, top, below + 1).astype(np.intp)
    columns = np.arange(ordered.shape[1])
    a, b = ordered[low, columns], ordered[high, columns]
    gamma = virtual - below
    # numpy's _lerp: from the nearer end, so the result never leaves [a, b].
    quantile: FloatArray = np.where(gamma >= 0.5, b - (b - a) * (1 - gamma), a + (b - a) * gamma)
    return quantile


def macro_terms(values: Sequence[float | None]) -> tuple[FloatArray, FloatArray]:
    """(numerator, denominator) per case of a case-macro mean over the cases where it is defined."""
    defined = np.array([value is not None for value in values], dtype=np.float64)
    numbers = np.array([0.0 if value is None else value for value in values], dtype=np.float64)
    return numbers, defined


def pooled_terms(sums: Sequence[float], counts: Sequence[float]) -> tuple[FloatArray, FloatArray]:
    """(numerator, denominator) per case of a mean pooled over runs: each case's sum and count."""
    return np.asarray(sums, dtype=np.float64), np.asarray(counts, dtype=np.float64)


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


@dataclass(frozen=True)
class Correlation:
    """A Spearman rank correlation over ``n`` pairs; rho and p are None when it is undefined."""

    rho: float | None
    p: float | None
    n: int


#: Fewer pairs than this give no test (with two points rho is always ±1).
MIN_CORRELATION_PAIRS = 3
#: Up to this many pairs the p-value is exact (every one of the n! pairings, 40,320 at 8).
EXACT_PAIRS = 8


def spearman(xs: Sequence[float | None], ys: Sequence[float | None]) -> Correlation:
    """Spearman's rho between paired values and its two-sided p-value (FDE-Bench §5.3).

    Pairs where either value is undefined (None or NaN) are left out, never imputed. Ties get
    average ranks, and rho is Pearson's correlation of the ranks (``scipy.stats.spearmanr``).
    The p-value is exact up to ``EXACT_PAIRS`` pairs: the share of all n! pairings of the ranks
    whose |rho| is at least the observed one. Beyond that it is scipy's t approximation,
    t = rho·√((n − 2)/(1 − rho²)) with n − 2 degrees of freedom, which for few pairs and a
    perfect ordering would claim p = 0 where the exact answer is 2/n!. Undefined (None) with
    fewer than three pairs or when either side is constant, where ranks carry no order.
    """
    if len(xs) != len(ys):
        raise ValueError("xs and ys must pair up")
    pairs = [
        (float(x), float(y))
        for x, y in zip(xs, ys, strict=True)
        if x is not None and y is not None and not (np.isnan(x) or np.isnan(y))
    ]
    n = len(pairs)
    x, y = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    if n < MIN_CORRELATION_PAIRS or np.unique(x).size < 2 or np.unique(y).size < 2:
        return Correlation(rho=None, p=None, n=n)
    result = scipy_stats.spearmanr(x, y)
    rho = float(result.statistic)
    p = _exact_spearman_p(x, y, rho) if n <= EXACT_PAIRS else float(result.pvalue)
    return Correlation(rho=rho, p=p, n=n)


def _exact_spearman_p(x: FloatArray, y: FloatArray, rho: float) -> float:
    """Share of the n! pairings of y's ranks with x's whose |rho| reaches the observed |rho|."""
    rx, ry = _centred_ranks(x), _centred_ranks(y)
    rhos = np.einsum("pn,n->p", ry[_orderings(ry.size)], rx) / np.sqrt((rx @ rx) * (ry @ ry))
    return float(np.mean(np.abs(rhos) >= abs(rho) - ZERO_DIFFERENCE))


@lru_cache(maxsize=EXACT_PAIRS)
def _orderings(n: int) -> npt.NDArray[np.intp]:
    """Every permutation of range(n), one per row (n! rows)."""
    return np.array(list(itertools.permutations(range(n))), dtype=np.intp)


def _centred_ranks(values: FloatArray) -> FloatArray:
    ranks = np.asarray(scipy_stats.rankdata(values), dtype=np.float64)
    centred: FloatArray = ranks - ranks.mean()
    return centred
