"""A yes or no asked for a plan, answered by a fact that settles only part of it, says so.

Outside labellers read a sibling fact given to "..., right?" or "... OK?" as a yes to the whole
plan (the digging rule for "park the chilled pallets in an ambient lane while I dig, OK?"). The
customer then adds that its answer is not a yes to the rest; it names nobody, and a question
that asks for no verdict, or touches no other rule, gets no such line. Questions are our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import compose, intent
from customer_sim.scripted import ScriptedCustomer

WAREHOUSE = Path(__file__).resolve().parents[2] / "cases" / "warehouse-restack" / "hidden"
PARTIAL = compose._PARTIAL


def customer() -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(WAREHOUSE)


def partial_line(text: str) -> bool:
    return any(line in text for line in PARTIAL)


@pytest.mark.parametrize(
    "ask",
    [
        "So I can park them anywhere, right?",
        "Any objection to that?",
        "Is that OK with you?",
        "Would the night shift accept that?",
        "You'd sign off on that?",
        "Does this look right?",
        "Can I leave them in A05 for a minute?",
    ],
)
def test_asks_for_a_verdict(ask: str) -> None:
    assert intent.seeks_approval(ask)


@pytest.mark.parametrize(
    "ask",
    ["Which lanes are free tonight?", "Can I see the lanes file?", "How many rows is that?"],
)
def test_asks_for_no_verdict(ask: str) -> None:
    assert not intent.seeks_approval(ask)


def test_a_partial_answer_to_a_plan_is_not_a_yes_to_the_rest() -> None:
    reply = customer().reply(
        "When I dig out a bottom pallet, the ones above it go on another stack first - so I can "
        "park them anywhere, right?"
    )
    assert reply.disclosed == ["top_only"]  # the digging rule; where they may wait is not said
    assert partial_line(reply.text)
    assert "Aisha" not in reply.text and "Marta" not in reply.text


def test_the_same_fact_asked_without_a_verdict_is_answered_plainly() -> None:
    reply = customer().reply(
        "When I dig out a bottom pallet, do the ones above it go on another stack first?"
    )
    assert reply.disclosed == ["top_only"]
    assert not partial_line(reply.text)


def test_a_verdict_touching_no_other_rule_is_answered_plainly() -> None:
    reply = customer().reply("Does the truck take only the top pallet off a stack? Fine?")
    assert reply.disclosed == ["top_only"]
    assert not partial_line(reply.text)
