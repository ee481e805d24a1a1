"""Turns a colleague answers without the rules: questions about the person, kind words, "I'm
sorry" (no name), "will send it", a "when?" that nothing dated answers, a meaning asked of a
phrase in the last answer, and a non-answer never given twice in a row word for word.
Messages written for these behaviours, not taken from any probe or conversation set."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.base import Exchange
from customer_sim.scripted import ScriptedCustomer

CASES = Path(__file__).resolve().parents[2] / "cases"
_DEFLECTIONS = ("what would it change", "what you're planning", "more specific", "noted")


def _customer(slug: str) -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden")


@pytest.fixture(scope="module")
def warehouse() -> ScriptedCustomer:
    return _customer("warehouse-restack")


def _played(customer: ScriptedCustomer, messages: list[str]) -> list[Exchange]:
    history: list[Exchange] = []
    for message in messages:
        reply = customer.reply(message, history)
        history.append(
            Exchange(
                message,
                reply.text,
                reply.stakeholder_id,
                list(reply.disclosed),
                tuple(reply.speakers),
            )
        )
    return history


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("how long have you run this site?", ("years", "admit")),
        ("how's the stocktake going, sounds mad", ("hectic", "busy")),
        ("hope no one was hurt", ("kind",)),
        ("I'm sorry, I missed that in the file.", ("no problem", "not at all", "don't worry")),
        ("Will upload the file.", ("speak soon", "talk soon", "good luck")),
    ],
)
def test_a_personal_turn_gets_a_personal_reply(
    warehouse: ScriptedCustomer, message: str, expected: tuple[str, ...]
) -> None:
    reply = warehouse.reply(message)
    assert reply.disclosed == []
    text = reply.text.lower()
    assert any(words in text for words in expected), reply.text
    assert not any(words in text for words in _DEFLECTIONS), reply.text
    assert not text.startswith(("hi", "hello")), reply.text  # "I'm sorry" is nobody's name


def test_a_question_about_the_person_that_names_a_rule_subject_stays_a_question(
    warehouse: ScriptedCustomer,
) -> None:
    reply = warehouse.reply("how long have you been stacking pallets over 800 kg?")
    assert "admit" not in reply.text.lower()


def test_when_after_an_undated_answer_is_not_the_answer_again() -> None:
    credit = _customer("credit-default")
    history = _played(credit, ["do you need me to suggest an approval cut-off as well?"])
    assert history[0].disclosed == ["committee_use"]
    reply = credit.reply("so when does the committee sit?", history)
    assert reply.disclosed == []
    assert not reply.text.startswith("As I said"), reply.text
    assert "date" in reply.text.lower()


def test_when_as_a_conjunction_is_no_time_question(warehouse: ScriptedCustomer) -> None:
    history = _played(warehouse, ["hi"])
    reply = warehouse.reply(
        "when the trucks are late, does the night shift still restack?", history
    )
    assert "date for that" not in reply.text


def test_what_do_you_mean_with_a_phrase_of_the_answer_points_at_that_sentence() -> None:
    battery = _customer("battery-dispatch")
    history = _played(battery, ["can the battery ever export to the grid?"])
    assert "no_export" in history[0].disclosed
    reply = battery.reply("sorry, what do you mean the relay trips?", history)
    assert reply.disclosed == []
    assert "relay" in reply.text.lower(), reply.text
    assert reply.text[reply.text.index("simply:") + 8].isupper(), reply.text


def test_the_same_non_answer_is_not_given_twice_running(warehouse: ScriptedCustomer) -> None:
    history = _played(warehouse, ["what colour is the office carpet?"])
    again = warehouse.reply("what colour is the office carpet?", history)
    assert again.disclosed == []
    assert again.text != history[0].answer
