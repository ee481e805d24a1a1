"""Case bootstrap, paired differences, Wilcoxon and Holm (FDE-Bench §5.1, A.4)."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from scipy import stats as scipy_stats

from metrics.stats import (
    Correlation,
    PairedDifference,
    case_bootstrap_ci,
    case_macro_mean,
    case_sums_and_counts,
    case_table,
    holm,
    macro_terms,
    paired_bootstrap_diff,
    pooled_terms,
    ratio_bootstrap_cis,
    resample_weights,
    run_mean,
    spearman,
    wilcoxon_signed_rank,
)


def test_case_table_pads_ragged_runs_and_marks_undefined_values() -> None:
    table = case_table({"a": [0.5, None, 1.0], "b": [0.25]})
    assert table.shape == (2, 3)
    assert table[0, 0] == 0.5 and math.isnan(table[0, 1])
    assert table[1, 0] == 0.25 and np.isnan(table[1, 1:]).all()


def test_case_table_takes_one_value_per_case_or_a_table() -> None:
    assert case_table([0.1, 0.2]).shape == (2, 1)
    assert case_table([[0.1, 0.2]]).shape == (1, 2)
    with pytest.raises(ValueError):
        case_table(np.zeros((2, 2, 2)))


def test_case_macro_and_run_means_differ_when_run_counts_differ() -> None:
    sums, counts = case_sums_and_counts(case_table({"a": [1.0], "b": [0.0, 0.0, None]}))
    assert case_macro_mean(sums, counts) == pytest.approx(0.5)
    assert run_mean(sums, counts) == pytest.approx(1 / 3)


def test_statistics_are_undefined_without_defined_values() -> None:
    sums, counts = case_sums_and_counts(case_table({"a": [None], "b": [None]}))
    assert math.isnan(case_macro_mean(sums, counts))
    assert math.isnan(run_mean(sums, counts))


def test_bootstrap_of_a_constant_is_that_constant() -> None:
    assert case_bootstrap_ci({"a": [0.4, 0.4], "b": [0.4]}) == pytest.approx((0.4, 0.4))


def test_bootstrap_of_two_cases_spans_both_extremes() -> None:
    # Drawing the 0-case twice or the 1-case twice each happens in a quarter of resamples.
    assert case_bootstrap_ci({"low": [0.0], "high": [1.0]}) == (0.0, 1.0)


def test_bootstrap_is_reproducible_and_depends_on_the_seed() -> None:
    values = {f"case-{i}": [i / 10, (i % 3) / 3] for i in range(10)}
    assert case_bootstrap_ci(values) == case_bootstrap_ci(values)
    assert case_bootstrap_ci(values) != case_bootstrap_ci(values, seed=1)


def test_bootstrap_matches_a_plain_loop_over_the_same_draws() -> None:
    rng = np.random.default_rng(7)
    per_case = {f"case-{i}": list(rng.random(3)) for i in range(12)}
    case_means = [sum(runs) / len(runs) for runs in per_case.values()]
    draws = np.random.default_rng(12345).integers(0, 12, size=(2000, 12))
    replicates = [sum(case_means[i] for i in row) / len(row) for row in draws]
    expected = np.percentile(replicates, [2.5, 97.5])
    assert case_bootstrap_ci(per_case) == pytest.approx(tuple(expected))


def test_bootstrap_level_widens_the_interval() -> None:
    values = list(np.linspace(0.0, 1.0, 20))
    narrow = case_bootstrap_ci(values, level=0.5)
    wide = case_bootstrap_ci(values, level=0.99)
    assert narrow is not None and wide is not None
    assert wide[0] < narrow[0] < narrow[1] < wide[1]


def test_bootstrap_skips_undefined_resamples_and_is_none_when_all_are() -> None:
    # Only one of two cases has a defined value; resamples without it are dropped.
    assert case_bootstrap_ci({"a": [None], "b": [0.3]}, run_mean) == pytest.approx((0.3, 0.3))
    assert case_bootstrap_ci({"a": [None], "b": [None]}, run_mean) is None


def test_bootstrap_refuses_no_cases_and_bad_levels() -> None:
    with pytest.raises(ValueError):
        case_bootstrap_ci({})
    with pytest.raises(ValueError):
        case_bootstrap_ci([0.5], level=1.0)


def test_bootstrap_of_50_cases_takes_well_under_50_ms() -> None:
    rng = np.random.default_rng(0)
    values = {f"case-{i:02d}": list(rng.random(3)) for i in range(50)}
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        case_bootstrap_ci(values)
        timings.append(time.perf_counter() - start)
    assert min(timings) < 0.025


def test_paired_difference_uses_only_shared_cases() -> None:
    a = {"x": [1.0, 1.0], "y": [0.5], "z": [0.2]}
    b = {"x": [0.5, 0.5], "y": [0.5], "w": [0.9]}
    # Shared x and y: differences 0.5 and 0.0.
    assert paired_bootstrap_diff(a, b) == PairedDifference(mean=0.25, low=0.0, high=0.5, cases=2)


def test_paired_difference_with_a_constant_shift_has_a_point_interval() -> None:
    a = {f"c{i}": [i / 10 + 0.1] for i in range(8)}
    b = {f"c{i}": [i / 10] for i in range(8)}
    result = paired_bootstrap_diff(a, b)
    assert result is not None
    assert (result.mean, result.low, result.high) == pytest.approx((0.1, 0.1, 0.1))


def test_paired_difference_is_none_without_shared_cases() -> None:
    assert paired_bootstrap_diff({"a": [1.0]}, {"b": [1.0]}) is None
    assert paired_bootstrap_diff({"a": [None]}, {"a": [1.0]}) is None


# Darwin's paired Zea mays height differences (eighths of an inch), the classic example of the
# signed-rank test: W- = 10 + 14 = 24 over n = 15, exact two-sided p = 0.04126.
DARWIN = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75]


def test_wilcoxon_gives_the_exact_p_value_of_darwins_data() -> None:
    assert wilcoxon_signed_rank(DARWIN) == pytest.approx(0.041259765625)
    assert wilcoxon_signed_rank(DARWIN) == pytest.approx(scipy_stats.wilcoxon(DARWIN).pvalue)


def test_wilcoxon_discards_zero_differences() -> None:
    assert wilcoxon_signed_rank([*DARWIN, 0.0, 0.0, 1e-15]) == wilcoxon_signed_rank(DARWIN)


def test_wilcoxon_of_a_single_nonzero_pair_cannot_reject() -> None:
    assert wilcoxon_signed_rank([0.0, 0.3]) == pytest.approx(1.0)


def test_wilcoxon_is_undefined_without_a_nonzero_difference() -> None:
    assert wilcoxon_signed_rank([]) is None
    assert wilcoxon_signed_rank([0.0, 0.0]) is None


def test_wilcoxon_refuses_undefined_differences() -> None:
    with pytest.raises(ValueError):
        wilcoxon_signed_rank([0.1, float("nan")])


def test_holm_adjusts_a_hand_computed_example() -> None:
    # Sorted: 0.005×4 = 0.02, 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 = 0.04 → raised to 0.06.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_keeps_none_and_leaves_it_out_of_the_count() -> None:
    assert holm([0.01, None, 0.04]) == [pytest.approx(0.02), None, pytest.approx(0.04)]


def test_holm_caps_at_one() -> None:
    assert holm([0.5, 0.6]) == [1.0, 1.0]


def test_holm_of_nothing_is_nothing() -> None:
    assert holm([]) == []
    assert holm([None]) == [None]


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_holm_refuses_values_that_are_not_p_values(bad: float) -> None:
    with pytest.raises(ValueError):
        holm([0.2, bad])


# Several statistics at once: the board's intervals for every metric.


def test_resample_weights_count_the_draws_of_case_bootstrap_ci() -> None:
    draws = np.random.default_rng(12345).integers(0, 4, size=(2000, 4))
    weights = resample_weights(4)
    assert weights.shape == (2000, 4) and not weights.flags.writeable
    assert (weights.sum(axis=1) == 4).all()
    for row in (0, 1, 1999):
        assert list(weights[row]) == [list(draws[row]).count(case) for case in range(4)]


def test_ratio_intervals_equal_case_bootstrap_ci_for_macro_and_pooled_means() -> None:
    rng = np.random.default_rng(3)
    per_case = {f"case-{i}": [*rng.random(1 + i % 3), None] for i in range(9)}
    sums, counts = case_sums_and_counts(case_table(per_case))
    means = sums / counts
    macro, pooled = ratio_bootstrap_cis([means, sums], [np.ones_like(means), counts])
    assert macro == pytest.approx(case_bootstrap_ci(per_case), abs=1e-12)
    assert pooled == pytest.approx(case_bootstrap_ci(per_case, run_mean), abs=1e-12)


def test_ratio_intervals_of_partly_undefined_statistics_equal_case_bootstrap_ci() -> None:
    # Cases b and d have no defined value: resamples drawing only them are dropped.
    rng = np.random.default_rng(5)
    per_case = {case: [rng.random(), rng.random()] for case in "aceg"}
    per_case.update({"b": [None], "d": [None, None], "f": [rng.random()]})
    per_case = dict(sorted(per_case.items()))
    sums, counts = case_sums_and_counts(case_table(per_case))
    means, defined = macro_terms([s / c if c else None for s, c in zip(sums, counts, strict=True)])
    few = {case: per_case[case] if case in "bdf" else [None] for case in per_case}
    few_sums, few_counts = case_sums_and_counts(case_table(few))
    macro, pooled, sparse = ratio_bootstrap_cis(
        [means, sums, few_sums], [defined, counts, few_counts]
    )
    assert macro == pytest.approx(case_bootstrap_ci(per_case), abs=1e-12)
    assert pooled == pytest.approx(case_bootstrap_ci(per_case, run_mean), abs=1e-12)
    assert sparse == pytest.approx(case_bootstrap_ci(few, run_mean), abs=1e-12)


def test_ratio_intervals_match_a_plain_loop_for_a_ratio_of_differences() -> None:
    # Gap recovered, (Σ (x - h)) / (Σ (f - h)), undefined where the drawn denominator is <= 0.
    hidden, asked, full = [0.1, 0.2, 0.5, 0.3], [0.4, 0.2, 0.5, 0.9], [0.7, 0.1, 0.5, 1.0]
    draws = np.random.default_rng(12345).integers(0, 4, size=(2000, 4))
    replicates = []
    for row in draws:
        gap = sum(full[i] - hidden[i] for i in row)
        if gap > 0:
            replicates.append(sum(asked[i] - hidden[i] for i in row) / gap)
    numerators = np.subtract(asked, hidden)
    (interval,) = ratio_bootstrap_cis([numerators], [np.subtract(full, hidden)])
    assert interval == pytest.approx(tuple(np.percentile(replicates, [2.5, 97.5])), abs=1e-12)


def test_ratio_interval_is_none_when_no_resample_is_defined() -> None:
    assert ratio_bootstrap_cis([[1.0, 2.0]], [[0.0, 0.0]]) == [None]
    with pytest.raises(ValueError):
        ratio_bootstrap_cis([[1.0, 2.0]], [[1.0]])
    with pytest.raises(ValueError):
        ratio_bootstrap_cis(np.zeros((1, 0)), np.zeros((1, 0)))


def test_macro_and_pooled_terms() -> None:
    numbers, defined = macro_terms([0.5, None, 1.0])
    assert list(numbers) == [0.5, 0.0, 1.0] and list(defined) == [1.0, 0.0, 1.0]
    sums, counts = pooled_terms([1.5, 0.0], [2, 0])
    assert list(sums) == [1.5, 0.0] and list(counts) == [2.0, 0.0]


def test_eleven_intervals_of_50_cases_take_no_longer_than_one_did() -> None:
    rng = np.random.default_rng(0)
    numerators, denominators = rng.random((11, 50)), np.ones((11, 50))
    ratio_bootstrap_cis(numerators, denominators)  # the draws are computed once per case count
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        ratio_bootstrap_cis(numerators, denominators)
        timings.append(time.perf_counter() - start)
    assert min(timings) < 0.025  # the bound of one case_bootstrap_ci above


# Spearman (FDE-Bench §5.3, RQ2).


def test_spearman_of_a_hand_example() -> None:
    # Ranks 1..5 against 2 1 4 3 5: d = -1 1 -1 1 0, Σd² = 4, rho = 1 - 6·4 / (5·24) = 0.8.
    # Exact p: of the 120 pairings, Σd² <= 4 (rho >= 0.8) for the identity, 4 adjacent swaps
    # and 3 pairs of disjoint adjacent swaps = 8; as many reach rho <= -0.8: p = 16 / 120.
    result = spearman([10, 20, 30, 40, 50], [0.2, 0.1, 0.4, 0.3, 0.5])
    assert result.n == 5
    assert result.rho == pytest.approx(0.8)
    assert result.p == pytest.approx(16 / 120)


def test_spearman_gives_ties_average_ranks() -> None:
    # x ranks 1 2.5 2.5 4, y ranks 1 2 3 4: rho = Pearson of the ranks = 4.5 / √(4.5 · 5).
    result = spearman([1.0, 2.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0])
    assert result.rho == pytest.approx(4.5 / math.sqrt(4.5 * 5))


def test_spearman_uses_the_t_approximation_beyond_eight_pairs() -> None:
    xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    ys = [2, 1, 4, 3, 6, 5, 8, 7, 10, 9]
    rho = 1 - 6 * 10 / (10 * 99)  # five adjacent swaps, Σd² = 10
    t = rho * math.sqrt(8 / (1 - rho**2))
    result = spearman(xs, ys)
    assert result.rho == pytest.approx(rho)
    assert result.p == pytest.approx(2 * scipy_stats.t.sf(t, 8))


def test_spearman_leaves_out_undefined_pairs_and_is_undefined_when_too_few() -> None:
    result = spearman([0.1, None, 0.3, 0.5, float("nan")], [0.2, 0.9, 0.1, 0.4, 0.3])
    assert result.n == 3 and result.rho == pytest.approx(0.5)
    assert spearman([0.1, 0.2], [0.3, 0.4]) == Correlation(rho=None, p=None, n=2)
    assert spearman([0.1, 0.2, 0.3], [0.4, 0.4, 0.4]) == Correlation(rho=None, p=None, n=3)
    with pytest.raises(ValueError):
        spearman([0.1], [0.1, 0.2])


def test_spearman_of_three_perfectly_ordered_pairs_is_not_significant() -> None:
    # The t approximation would say p = 0; exactly, 2 of the 6 pairings give |rho| = 1.
    assert spearman([1, 2, 3], [4, 5, 6]).p == pytest.approx(1 / 3)
