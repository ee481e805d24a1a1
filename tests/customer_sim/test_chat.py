"""Chat about nothing in the case (the weather, how the site is today, a compliment) gets a
short friendly line and discloses nothing; chat words inside a question the case's facts
claim leave it a question. Messages written for these behaviours, not taken from any set."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import acts
from customer_sim.chat import chat_act
from customer_sim.scripted import ScriptedCustomer

CASES = Path(__file__).resolve().parents[2] / "cases"
_PLANNING = ("what would it change", "what you're planning", "not something i have to hand")


@pytest.fixture(scope="module")
def warehouse() -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(CASES / "warehouse-restack" / "hidden")


@pytest.mark.parametrize(
    ("message", "act"),
    [
        ("It's freezing cold here this morning, is it cold where you are?", acts.CHAT),
        ("Snowing again over here!", acts.CHAT),
        ("How's the depot today?", acts.CHAT),
        ("I really like how tidy the files are 😊", acts.COMPLIMENT),
        ("love your company's adverts btw", acts.COMPLIMENT),
        ("What unit is net_weight in?", None),
    ],
)
def test_chat_is_told_by_its_topic(message: str, act: str | None) -> None:
    assert chat_act(message, lambda text: False, lambda text: False) == act


def test_chat_the_case_claims_is_no_chat() -> None:
    assert chat_act("is it very cold in the chillers?", lambda t: False, lambda t: True) is None
    assert chat_act("I love the files, which is the lanes file?", lambda t: True, bool) is None


@pytest.mark.parametrize(
    "message",
    [
        "Morning! Snowing again over here, hope it's warmer with you.",
        "How's the depot today?",
        "I really like how tidy the files are 😊",
    ],
)
def test_chat_gets_a_friendly_line_and_no_rule(warehouse: ScriptedCustomer, message: str) -> None:
    reply = warehouse.reply(message)
    assert reply.disclosed == []
    assert not any(phrase in reply.text.lower() for phrase in _PLANNING), reply.text
    assert "?" in reply.text  # it hands the conversation back


def test_a_rule_question_with_a_chat_word_is_still_answered(warehouse: ScriptedCustomer) -> None:
    reply = warehouse.reply("It's so cold in the chillers - how high can I stack in there?")
    assert "cold_height_limit" in reply.disclosed, reply.text


@pytest.mark.parametrize(
    ("message", "unwanted"),
    [
        ("Hi! First time doing one of these, please bear with me 😊", "nice to hear"),
        ("Sorry to hear the floor's a mess again, sounds stressful 😅", "nice to hear"),
        ("Did anyone watch the football last night?", "Doing well"),
        ("lovely weather for a walk btw, do you walk to work?", "can't complain"),
        ("How are you doing today?", "specific"),
    ],
)
def test_chat_gets_a_line_that_fits_it(
    warehouse: ScriptedCustomer, message: str, unwanted: str
) -> None:
    """An emoji makes nothing a compliment; a question about the person is not "how are you"."""
    reply = warehouse.reply(message)
    assert unwanted not in reply.text, reply.text
    assert reply.disclosed == []
