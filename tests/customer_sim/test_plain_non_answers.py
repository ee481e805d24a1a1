"""Non-answers a newcomer can read: a specific question is not asked back "what exactly do you
need to know?", a stated plan asked for a yes is not asked "what's the decision you're trying to
make?", and a bare permission question ("can I ...?") gets no "not a yes to the rest of the
plan" caveat, because no plan was described. A blind rater marked each of these nonsense in the
conversation sets; the messages below are our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import compose
from customer_sim.scripted import ScriptedCustomer

CASES = Path(__file__).resolve().parents[2] / "cases"
ASK_BACK = (
    "what exactly do you need",
    "what's the decision you're trying",
    "be a bit more specific",
)


@pytest.fixture(scope="module")
def customers() -> dict[str, ScriptedCustomer]:
    slugs = ("warehouse-restack", "battery-dispatch", "credit-default")
    return {slug: ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden") for slug in slugs}


@pytest.mark.parametrize(
    "ask",
    ["efficiency?", "what about the efficiency?", "tell me about the efficiency"],
)
def test_a_vague_ask_names_its_subject_and_is_asked_back(ask: str) -> None:
    assert compose.is_vague(ask)


@pytest.mark.parametrize(
    "ask",
    [
        "Is the round-trip figure still valid when the unit runs at a tenth of its power?",
        "does the efficiency drop when it is cold outside or not",
    ],
)
def test_a_specific_question_is_not_asked_back(ask: str) -> None:
    assert not compose.is_vague(ask)


def test_a_specific_question_nothing_answers_gets_an_honest_not_to_hand(customers) -> None:
    reply = customers["battery-dispatch"].reply(
        "Does the inverter get serviced by VoltStack every year or only when it breaks?"
    )
    assert reply.disclosed == []
    assert not any(phrase in reply.text.lower() for phrase in ASK_BACK), reply.text


def test_a_stated_plan_asked_for_a_yes_is_not_asked_for_its_decision(customers) -> None:
    reply = customers["warehouse-restack"].reply(
        "I was thinking I'd leave the dates out of it altogether. Is that alright?"
    )
    text = reply.text.lower()
    assert "decision you're trying" not in text and "be a bit more specific" not in text
    assert not any(word in text for word in ("sounds good", "that's fine", "yes, "))


def test_a_bare_permission_question_gets_no_caveat_about_a_plan(customers) -> None:
    reply = customers["battery-dispatch"].reply(
        "can we sell what the battery holds back to the grid"
    )
    assert "no_export" in reply.disclosed
    assert not any(line in reply.text for line in compose._PARTIAL), reply.text


def test_a_stated_plan_still_gets_the_caveat_when_it_touches_an_unstated_rule(customers) -> None:
    reply = customers["warehouse-restack"].reply(
        "When I dig out a bottom pallet the ones above it go onto another stack first, so I "
        "can set them down wherever there's room, right?"
    )
    assert "top_only" in reply.disclosed
    assert any(line in reply.text for line in compose._PARTIAL), reply.text


def _after(customer: ScriptedCustomer, first: str, second: str):
    from customer_sim.base import Exchange

    given = customer.reply(first)
    history = [
        Exchange(
            question=first,
            answer=given.text,
            stakeholder_id=given.stakeholder_id,
            disclosed=list(given.disclosed),
            speakers=tuple(given.speakers),
        )
    ]
    return given, customer.reply(second, history)


def test_when_after_an_answer_is_answered_from_its_dated_sentence(customers) -> None:
    given, reply = _after(
        customers["credit-default"],
        "Is the income column monthly for every applicant?",
        "hm, since when has it been like that?",
    )
    assert "income_period" in given.disclosed
    assert reply.disclosed == ["income_period"]
    assert "2023" in reply.text or "2024" in reply.text, reply.text


def test_a_follow_up_naming_a_column_of_its_own_is_not_the_last_rule_again(customers) -> None:
    _, reply = _after(
        customers["credit-default"],
        "Is the income column monthly for every applicant?",
        "Also the monthly_debt_payments, does that include rent?",
    )
    assert "income_period" not in reply.disclosed, reply.text


@pytest.mark.parametrize(
    "chat",
    [
        "Hope the rain isn't too bad over there in Bremen?",
        "how's your week been?",
        "Looks like it's going to be a long day!",
    ],
)
def test_small_talk_about_the_weather_or_the_week_is_small_talk(customers, chat: str) -> None:
    reply = customers["battery-dispatch"].reply(chat)
    assert reply.disclosed == []
    assert "offhand" not in reply.text and "specific" not in reply.text, reply.text


def test_news_then_a_goodbye_is_a_goodbye(customers) -> None:
    reply = customers["battery-dispatch"].reply("Will have the file with you by midnight. Bye!")
    assert reply.disclosed == []
    assert "what exactly" not in reply.text.lower() and "midnight -" not in reply.text.lower()


def test_leaving_to_do_the_work_is_a_goodbye_not_a_plan_to_check(customers) -> None:
    reply = customers["battery-dispatch"].reply("Brilliant, thanks so much Maren, I'll get going!")
    assert reply.disclosed == []
    assert "check" not in reply.text.lower(), reply.text


def test_a_question_after_getting_started_is_still_asked(customers) -> None:
    reply = customers["battery-dispatch"].reply(
        "I'll get started on the schedule - is the deadline 5pm?"
    )
    assert "by then" in reply.text, reply.text


def test_just_to_be_sure_about_the_goal_is_a_goal_check(customers) -> None:
    reply = customers["battery-dispatch"].reply(
        "Just to be sure about the goal: it's tomorrow's electricity bill I'm bringing down?"
    )
    assert reply.disclosed == []
    assert "bill" in reply.text and "offhand" not in reply.text, reply.text


def test_say_that_more_simply_is_about_the_last_answer(customers) -> None:
    given, reply = _after(
        customers["battery-dispatch"],
        "is the efficiency figure one way or there and back?",
        "could you put that more simply please?",
    )
    assert given.disclosed
    assert "offhand" not in reply.text and "specific point" not in reply.text, reply.text
