from __future__ import annotations

import pytest

from judging.base import Target, Unit, judge_all, make_judge, units_from_messages
from judging.offline import OfflineJudge

TARGETS = [
    Target(
        key="late_fee_per_hour",
        requirement="A late delivery costs EUR 40 for every started hour after the time window "
        "closes, not a flat fee.",
        triggers=(
            "How are late deliveries penalised - per hour or a flat fee?",
            "What does it cost us when a truck arrives after the delivery window?",
            "Is the lateness penalty charged for every started hour?",
            "How much is the penalty for missing a customer's time window?",
        ),
    ),
    Target(
        key="driver_shift_limit",
        requirement="No driver may work more than 9 hours in a shift, including loading time at "
        "the depot.",
        triggers=(
            "What is the maximum shift length for a driver?",
            "Does loading time at the depot count towards the driver's working hours?",
            "How many hours can a driver be on duty in one day?",
            "Is there a cap on driving hours per shift?",
        ),
    ),
    Target(
        key="weights_in_pounds",
        requirement="The weight column of orders.csv is in pounds, not kilograms; truck "
        "capacities are in kilograms.",
        triggers=(
            "What unit is the weight column in orders.csv - kilograms or pounds?",
            "Are order weights and truck capacities in the same unit?",
            "Is the order weight in lb?",
            "How should I convert the order weights before checking truck capacity?",
        ),
    ),
    Target(
        key="depot_closed_sunday",
        requirement="The depot is closed on Sundays: no route may start or end on a Sunday.",
        triggers=(
            "Is the depot open on Sundays?",
            "Can routes start or finish on a Sunday?",
            "Which days of the week can trucks leave the depot?",
            "Do we operate seven days a week?",
        ),
    ),
]
BY_KEY = {t.key: t for t in TARGETS}


def judged(key: str, *questions: str) -> bool:
    judge = OfflineJudge()
    judge.prepare(TARGETS)
    units = [Unit(index=i, turn=1, text=q) for i, q in enumerate(questions, start=1)]
    return judge.judge(BY_KEY[key], units).covered


@pytest.mark.parametrize(
    ("key", "question"),
    [
        ("late_fee_per_hour", "How are late deliveries penalised - per hour or a flat fee?"),
        ("late_fee_per_hour", "Is the penalty for arriving after the window charged per hour?"),
        ("driver_shift_limit", "What's the max number of hours a driver can work in one shift?"),
        ("weights_in_pounds", "Is the weight column in orders.csv in kilograms or in pounds?"),
        ("depot_closed_sunday", "Can a route start from the depot on a Sunday?"),
    ],
)
def test_a_question_asking_for_the_rule_covers_it(key: str, question: str) -> None:
    assert judged(key, question)


@pytest.mark.parametrize(
    ("key", "question"),
    [
        ("late_fee_per_hour", "Who are our biggest customers?"),
        ("late_fee_per_hour", "Where can I find the delivery data?"),
        ("driver_shift_limit", "How many drivers do you employ?"),
        ("weights_in_pounds", "Which column holds the order id?"),
        ("depot_closed_sunday", "Where is the depot?"),
    ],
)
def test_a_question_that_only_touches_the_topic_does_not_cover(key: str, question: str) -> None:
    assert not judged(key, question)


def test_only_the_covering_units_are_matched_and_the_first_turn_is_the_earliest() -> None:
    units = units_from_messages(
        [
            (1, "Where is the depot? How many trucks do we have?"),
            (2, "Can routes start or finish on a Sunday?"),
            (3, "Thanks. Is the depot open on Sundays?"),
        ]
    )
    judge = OfflineJudge()
    judgment = judge_all(judge, TARGETS, units)[3]
    assert judgment.target == "depot_closed_sunday"
    assert judgment.covered
    assert judgment.matched_units == [3, 4]
    assert judgment.first_turn == 2
    assert [(v.judge, v.covered, v.units) for v in judgment.votes] == [("offline", True, [3, 4])]


def test_an_uncovered_target_has_no_matched_units_and_no_first_turn() -> None:
    units = units_from_messages([(1, "What format should the output have?")])
    judgment = judge_all(OfflineJudge(), TARGETS, units)[0]
    assert (judgment.covered, judgment.matched_units, judgment.first_turn) == (False, [], None)
    assert judgment.failed is False


def test_no_questions_cover_nothing() -> None:
    assert not any(j.covered for j in judge_all(OfflineJudge(), TARGETS, []))


def test_context_sentences_before_the_ask_do_not_hide_it() -> None:
    assert judged(
        "weights_in_pounds",
        "I loaded the order file and the truck list and started on a first plan. "
        "Are the order weights in lb rather than kg?",
    )


def test_judging_is_deterministic_and_reuses_the_fitted_set() -> None:
    judge = make_judge("offline")
    units = units_from_messages([(1, "Is there a cap on driving hours per shift?")])
    first = judge_all(judge, TARGETS, units)
    second = judge_all(judge, list(TARGETS), units)
    assert first == second
    assert isinstance(judge, OfflineJudge)
    assert len(judge._fitted) == 1


def test_unknown_settings_are_refused() -> None:
    with pytest.raises(TypeError, match="unknown offline judge settings"):
        OfflineJudge(treshold=2.0)


def test_a_target_judged_without_its_case_is_still_judged_deterministically() -> None:
    target = BY_KEY["weights_in_pounds"]
    units = [Unit(index=1, turn=1, text="Is the weight column in orders.csv in pounds?")]
    first = OfflineJudge().judge(target, units)
    assert first == OfflineJudge().judge(target, units)
    assert first.covered


def _patterned_weight_target() -> Target:
    from customer_sim.patterns import parse_pattern

    pattern = parse_pattern({"asks": [["weight*", "unit|kg|kilogram*|pound*|lb|lbs"]]})
    return Target(
        key="weights_in_pounds",
        requirement=BY_KEY["weights_in_pounds"].requirement,
        triggers=BY_KEY["weights_in_pounds"].triggers,
        pattern=pattern,
    )


def test_a_follow_up_unit_is_judged_with_the_units_before_it_in_the_same_message() -> None:
    target = _patterned_weight_target()
    judge = OfflineJudge()
    # one message: the subject in the first unit, the ask in the second
    same_turn = units_from_messages(
        [(1, "The weight column tops out at 1900, is that odd? In kg?")]
    )
    assert judge.judge(target, same_turn).matched_units == [2]  # units count from 1
    # within one unit too: a statement, then an ask that names nothing
    one_unit = [Unit(index=0, turn=1, text="The weight column tops out at 1900. In kg?")]
    assert judge.judge(target, one_unit).covered
    # never across messages: the follow-up belongs to another turn
    two_turns = units_from_messages(
        [(1, "The weight column tops out at 1900, is that odd?"), (2, "In kg?")]
    )
    assert not judge.judge(target, two_turns).covered


def test_a_unit_that_asks_on_its_own_keeps_the_credit_from_its_follow_up() -> None:
    units = units_from_messages([(1, "Is the weight in kg? Sure?")])
    assert OfflineJudge().judge(_patterned_weight_target(), units).matched_units == [1]
