"""Clarification metrics (FDE-Bench §4.2, A.3) on hand-computed runs, including undefined ones."""

from __future__ import annotations

import pytest

from customer_sim.base import split_units as customer_split_units
from metrics.clarification import (
    ClarificationMetrics,
    TargetCoverage,
    Unit,
    ask_f1,
    average_metrics,
    clarification_metrics,
    split_units,
    units_from_messages,
)

SPLIT_EXAMPLES = [
    ("Are windows hard?", ["Are windows hard?"]),
    ("Please describe the cost model", ["Please describe the cost model"]),
    ("Hard windows? And the -R suffix?", ["Hard windows?", "And the -R suffix?"]),
    # FDE-Bench A.3: units end at question marks; a trailing courtesy is no question.
    ("Is it hard? Thanks a lot.", ["Is it hard?"]),
    ("What is X? Thanks, that helps.", ["What is X?"]),
    (
        "Three things:\n1. Is the 90% round trip?\n2. Which peak counts?\n3. Cheers, Ada",
        ["Three things:\n1. Is the 90% round trip?", "2. Which peak counts?"],
    ),
    ("1. the unit of weight\n2. the time zone", ["1. the unit of weight\n2. the time zone"]),
    ("Thanks. Is overtime paid double?", ["Thanks. Is overtime paid double?"]),
    ("What?? Really?", ["What?", "Really?"]),
    ("One?\n\n  Two?  ", ["One?", "Two?"]),
    ("  ", []),
    ("?", []),
    ("", []),
]


@pytest.mark.parametrize(("message", "units"), SPLIT_EXAMPLES)
def test_split_units_cuts_after_every_question_mark(message: str, units: list[str]) -> None:
    assert split_units(message) == units


@pytest.mark.parametrize(("message", "units"), SPLIT_EXAMPLES)
def test_split_units_agrees_with_the_units_the_customer_answers(
    message: str, units: list[str]
) -> None:
    assert split_units(message) == customer_split_units(message)


def test_units_from_messages_numbers_units_across_turns() -> None:
    units = units_from_messages([(1, "Cost basis? Weekends?"), (2, "Overtime paid double?")])
    assert [(u.index, u.turn, u.text) for u in units] == [
        (0, 1, "Cost basis?"),
        (1, 1, "Weekends?"),
        (2, 2, "Overtime paid double?"),
    ]


# A run with |G| = 4 targets and five units over three turns:
#   turn 1: unit 0, unit 1;   turn 2: unit 2;   turn 3: unit 3, unit 4.
# a: covered by unit 0 (turn 1); b: covered by units 2 and 3 (first turn 2);
# c: covered, but no matching unit was recorded; d: not covered, although unit 4 was cited.
TARGETS = ["a", "b", "c", "d"]
UNITS = [Unit(0, 1), Unit(1, 1), Unit(2, 2), Unit(3, 3), Unit(4, 3)]
COVERAGE = {
    "a": TargetCoverage(covered=True, matched_units=frozenset({0})),
    "b": TargetCoverage(covered=True, matched_units=frozenset({2, 3})),
    "c": TargetCoverage(covered=True),
    "d": TargetCoverage(covered=False, matched_units=frozenset({4})),
}


def test_it_computes_every_metric_of_a_hand_checked_run() -> None:
    result = clarification_metrics(targets=TARGETS, units=UNITS, coverage=COVERAGE)
    # R = |{a,b,c}|/4; Q_rel = {0,2,3} (unit 4 only matches uncovered d); P = 3/5.
    assert result.recall == pytest.approx(0.75)
    assert result.precision == pytest.approx(0.6)
    assert result.ask_f1 == pytest.approx(2 * 0.6 * 0.75 / 1.35)
    # Only a is covered in turn 1; ATC over G*_cov = {a, b} (c has no recorded unit): (1+2)/2.
    assert result.kqc1 == pytest.approx(0.25)
    assert result.atc == pytest.approx(1.5)
    assert result.redundant == 2
    assert result.questions == 5


def test_a_unit_matching_several_covered_targets_counts_once_in_precision() -> None:
    coverage = {
        "a": TargetCoverage(True, frozenset({0})),
        "b": TargetCoverage(True, frozenset({0})),
    }
    result = clarification_metrics(
        targets=["a", "b"], units=[Unit(0, 1), Unit(1, 1)], coverage=coverage
    )
    assert result.recall == 1.0
    assert result.precision == 0.5
    assert result.redundant == 1


def test_a_target_without_a_judgment_counts_as_not_covered() -> None:
    coverage = {"a": TargetCoverage(True, frozenset({0}))}
    result = clarification_metrics(targets=["a", "b"], units=[Unit(0, 1)], coverage=coverage)
    assert result.recall == 0.5
    assert result.precision == 1.0


def test_no_questions_leave_precision_and_f1_undefined_and_recall_zero() -> None:
    result = clarification_metrics(targets=TARGETS, units=[], coverage={})
    assert result == ClarificationMetrics(
        recall=0.0, precision=None, ask_f1=None, kqc1=0.0, atc=None, redundant=0, questions=0
    )


def test_no_questions_take_precedence_over_failed_judgments() -> None:
    result = clarification_metrics(targets=TARGETS, units=[], coverage={}, judgments_failed=True)
    assert result.recall == 0.0
    assert result.precision is None


def test_failed_judgments_make_every_judged_metric_unavailable() -> None:
    result = clarification_metrics(
        targets=TARGETS, units=UNITS, coverage=COVERAGE, judgments_failed=True
    )
    assert result == ClarificationMetrics(
        recall=None, precision=None, ask_f1=None, kqc1=None, atc=None, redundant=None, questions=5
    )


def test_no_covered_target_gives_zero_f1_and_undefined_atc() -> None:
    coverage = {"a": TargetCoverage(False, frozenset({1}))}
    result = clarification_metrics(targets=TARGETS, units=UNITS, coverage=coverage)
    assert (result.recall, result.precision, result.ask_f1) == (0.0, 0.0, 0.0)
    assert result.kqc1 == 0.0
    assert result.atc is None
    assert result.redundant == 5


def test_covered_targets_without_recorded_units_leave_atc_undefined() -> None:
    coverage = {"c": TargetCoverage(True)}
    result = clarification_metrics(targets=TARGETS, units=UNITS, coverage=coverage)
    assert result.recall == 0.25
    assert result.precision == 0.0
    assert result.kqc1 == 0.0
    assert result.atc is None


def test_a_case_without_targets_has_no_recall() -> None:
    result = clarification_metrics(targets=[], units=[Unit(0, 1)], coverage={})
    assert result.recall is None
    assert result.ask_f1 is None
    assert result.precision == 0.0


@pytest.mark.parametrize(
    ("coverage", "units", "message"),
    [
        ({"zz": TargetCoverage(True, frozenset({0}))}, [Unit(0, 1)], "unknown targets"),
        ({"a": TargetCoverage(True, frozenset({7}))}, [Unit(0, 1)], "not asked"),
        ({}, [Unit(0, 0)], "count from 1"),
        ({}, [Unit(0, 1), Unit(0, 2)], "unique"),
    ],
)
def test_it_rejects_judgments_that_do_not_belong_to_the_run(
    coverage: dict[str, TargetCoverage], units: list[Unit], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        clarification_metrics(targets=["a"], units=units, coverage=coverage)


def test_ask_f1_is_the_harmonic_mean_and_zero_only_when_both_are_zero() -> None:
    # The paper's opencode + GPT-6-Astra means (R 83.6%, P 36.5%) give 0.508 as F1 of means.
    assert ask_f1(0.365, 0.836) == pytest.approx(0.508, abs=5e-4)
    assert ask_f1(0.0, 0.0) == 0.0
    assert ask_f1(None, 0.5) is None
    assert ask_f1(0.5, None) is None


def _run(recall: float | None, precision: float | None) -> ClarificationMetrics:
    return ClarificationMetrics(recall, precision, ask_f1(precision, recall), None, None, 1, 1)


def test_average_ask_f1_is_the_mean_of_run_f1_not_the_f1_of_means() -> None:
    runs = [_run(1.0, 0.2), _run(0.5, 0.6)]
    average = average_metrics(runs)
    # Run F1: 2(.2)(1)/1.2 = 1/3 and 2(.6)(.5)/1.1 = 6/11; F1 of means (R .75, P .4) = 12/23.
    assert average.ask_f1 == pytest.approx((1 / 3 + 6 / 11) / 2)
    assert ask_f1(average.precision, average.recall) == pytest.approx(12 / 23)
    assert average.ask_f1 != pytest.approx(12 / 23)


def test_average_skips_undefined_runs_instead_of_imputing() -> None:
    runs = [_run(0.0, None), _run(0.5, 0.5), _run(None, None)]
    average = average_metrics(runs)
    assert average.recall == 0.25
    assert average.precision == 0.5
    assert average.ask_f1 == 0.5
    assert average.kqc1 is None
    assert average.redundant == 1
    assert average.questions == 3
