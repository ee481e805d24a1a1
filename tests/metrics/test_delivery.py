"""FDE-Bench delivery aggregates (§4.2, A.3) on hand-computed score tables."""

from __future__ import annotations

import pytest

from metrics.delivery import (
    PassRate,
    case_pass_at_k,
    case_pass_hat_k,
    dsr,
    mean_defined,
    pass_at_k,
    pass_hat_k,
    quality,
    reaches_reference,
)


def test_quality_weighs_cases_equally_whatever_their_run_count() -> None:
    scores = {"one-run": [1.0], "three-runs": [0.0, 0.0, 0.0]}
    # Case-macro: (1.0 + 0.0) / 2. The run-level mean would be 1/4.
    assert quality(scores) == 0.5


def test_quality_averages_runs_within_a_case_first() -> None:
    scores = {"a": [0.9, 0.6, 0.0], "b": [0.3, 0.3, 0.3]}
    assert quality(scores) == pytest.approx((0.5 + 0.3) / 2)


@pytest.mark.parametrize("scores", [{}, {"a": []}])
def test_quality_refuses_to_average_nothing(scores: dict[str, list[float]]) -> None:
    with pytest.raises(ValueError):
        quality(scores)


def test_dsr_counts_runs_at_or_above_the_reference_with_float_tolerance() -> None:
    scores = {"a": [1.0, 0.9999999999, 0.99], "b": [1.2, 0.0]}
    assert dsr(scores) == pytest.approx(3 / 5)


def test_reaches_reference_tolerates_only_rounding_noise() -> None:
    assert reaches_reference(1 - 1e-10)
    assert not reaches_reference(1 - 1e-6)


def test_dsr_refuses_an_empty_table() -> None:
    with pytest.raises(ValueError):
        dsr({"a": []})


def test_pass_at_k_and_pass_hat_k_with_exactly_k_runs_count_cases() -> None:
    valid = {
        "all": [True, True, True],
        "some": [False, True, False],
        "none": [False, False, False],
        "also-all": [True, True, True],
    }
    assert pass_at_k(valid, 3) == PassRate(value=0.75, cases=4, excluded=0)
    assert pass_hat_k(valid, 3) == PassRate(value=0.5, cases=4, excluded=0)


def test_cases_with_fewer_than_k_runs_are_excluded_and_counted() -> None:
    valid = {"short": [True, True], "full": [True, False, False]}
    assert pass_at_k(valid, 3) == PassRate(value=1.0, cases=1, excluded=1)
    assert pass_hat_k(valid, 3) == PassRate(value=0.0, cases=1, excluded=1)


def test_pass_rates_are_undefined_when_no_case_has_k_runs() -> None:
    assert pass_at_k({"short": [True]}, 3) == PassRate(value=None, cases=0, excluded=1)
    assert pass_hat_k({}, 3) == PassRate(value=None, cases=0, excluded=0)


@pytest.mark.parametrize(
    ("valid", "k", "at_k", "hat_k"),
    [
        # n = 4, c = 2, k = 3: any 3 runs include a valid one; never all three valid.
        ([True, True, False, False], 3, 1.0, 0.0),
        # n = 4, c = 3, k = 3: C(3,3)/C(4,3) = 1/4 of the triples are all valid.
        ([True, True, True, False], 3, 1.0, 0.25),
        # n = 5, c = 1, k = 2: 1 - C(4,2)/C(5,2) = 1 - 6/10.
        ([True, False, False, False, False], 2, 0.4, 0.0),
        # k = 1 is the plain share of valid runs.
        ([True, False, False, False], 1, 0.25, 0.25),
    ],
)
def test_extra_runs_use_the_unbiased_estimator(
    valid: list[bool], k: int, at_k: float, hat_k: float
) -> None:
    assert case_pass_at_k(valid, k) == pytest.approx(at_k)
    assert case_pass_hat_k(valid, k) == pytest.approx(hat_k)


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError):
        case_pass_at_k([True], 0)


def test_mean_defined_ignores_none_and_is_none_when_nothing_is_defined() -> None:
    assert mean_defined([0.5, None, 1.0]) == 0.75
    assert mean_defined([None, None]) is None
    assert mean_defined([]) is None
    assert mean_defined([0.0]) == 0.0
