"""Sibling slots (``customer_sim.slots``): a fact that speaks of the start is not the answer to
an ask about the end, nor a stack-height rule the answer to an ask about weight. Pinned with
questions of our own on a small script written here, with no vetoes in its patterns: the
mechanism must hold for wordings nobody wrote a veto for."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.patterns import parse_pattern
from customer_sim.scripted import ScriptedCustomer
from customer_sim.slots import one_sided, other_slot
from tests.support.scripts import customer_of, fact, person

PERSON = person("lena", "Lena Ruiz", "Store manager")


def _fact(key: str, answer: str, asks: list[list[str]], topic: str = "") -> dict[str, object]:
    return fact("lena", key, answer, asks, topic)


TEMPERATURE = "temperature|degrees|warm|cold"
FACTS = [
    _fact(
        "warm_at_opening",
        "When we open, the store is at 21 degrees.",
        [[TEMPERATURE, "opening|open|start*|begin*|at midnight|right now"]],
        topic="the temperature at opening",
    ),
    _fact(
        "cool_at_closing",
        "By closing the store must be back down to 18 degrees.",
        [[TEMPERATURE, "closing|close of day|end of day|finish*"]],
    ),
    _fact(
        "stack_height",
        "Crates go four high at most, in every aisle.",
        [["crate*|stack*", "high|height|tall|tier*|limit|how many"]],
    ),
    _fact(
        "heavy_low",
        "Anything over 20 kg stays on the two lowest tiers.",
        [["heavy|kg|weight", "tier*|level*|high|up|top"]],
    ),
]
TARGETS = ["cool_at_closing", "stack_height", "heavy_low"]


@pytest.fixture
def customer(tmp_path: Path) -> ScriptedCustomer:
    return customer_of(tmp_path, PERSON, FACTS, TARGETS)


def test_a_pattern_is_one_sided_when_it_names_one_slot_of_an_axis() -> None:
    start = parse_pattern({"asks": [[TEMPERATURE, "opening|start*"]]})
    assert [s.own.label for s in one_sided(start)] == ["the start"]
    both = parse_pattern({"asks": [[TEMPERATURE, "start*|finish*"]]})
    assert one_sided(both) == ()
    height = parse_pattern({"asks": [["crate*", "tier*|high"]]})
    (side,) = one_sided(height)
    assert (side.own.label, side.other.label) == ("the height", "the weight")


def test_an_ask_naming_only_the_other_slot_conflicts() -> None:
    (side,) = one_sided(parse_pattern({"asks": [[TEMPERATURE, "opening|start*"]]}))
    assert other_slot([side], ["what", "temperature", "at", "end"]) == side
    # both slots named: a comparison, left to the patterns
    assert other_slot([side], ["finish", "where", "it", "started"]) is None
    # "ends up" is a result, not the end of a period; a slot word as a verb of doing
    # ("starts to bite", "finish charging") names an action, not the slot
    assert other_slot([side], ["temperature", "ends", "up", "high"]) is None
    assert other_slot([side], ["when", "we", "finish", "cooling"]) is None
    (end,) = one_sided(parse_pattern({"asks": [[TEMPERATURE, "closing|finish*"]]}))
    assert other_slot([end], ["when", "heating", "starts", "to", "run"]) is None
    assert other_slot([end], ["heating", "starts", "warming", "room"]) is None
    assert other_slot([end], ["temperature", "at", "start", "day"]) == end


def test_the_start_does_not_answer_an_ask_about_the_end(customer: ScriptedCustomer) -> None:
    reply = customer.reply("What temperature should the store have at midnight for the handover?")
    assert reply.disclosed == []
    assert "the end" in reply.text  # asked back, honestly unsure
    assert "21" not in reply.text


def test_the_end_rule_still_answers_when_both_fire(customer: ScriptedCustomer) -> None:
    assert customer.reply("What temperature at midnight once the day finishes?").disclosed == [
        "cool_at_closing"
    ]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How warm is the store right now, at opening?", ["warm_at_opening"]),
        ("What temperature do we begin the day with?", ["warm_at_opening"]),
        ("Do we finish the day at the temperature we started with?", None),
    ],
)
def test_asks_about_the_start_or_both_keep_their_answers(
    customer: ScriptedCustomer, question: str, expected: list[str] | None
) -> None:
    disclosed = customer.reply(question).disclosed
    if expected is None:
        assert set(disclosed) == {"warm_at_opening", "cool_at_closing"}
    else:
        assert disclosed == expected


def test_a_height_rule_does_not_answer_an_ask_about_weight(customer: ScriptedCustomer) -> None:
    reply = customer.reply("What's the limit for heavy crates?")
    assert "stack_height" not in reply.disclosed
    assert "Crates go four high" not in reply.text
    # the sibling that speaks of weight answers when its pattern fires
    assert customer.reply("How high up may heavy crates go?").disclosed == ["heavy_low"]


def test_the_height_rule_still_answers_an_ask_about_height(customer: ScriptedCustomer) -> None:
    assert customer.reply("How many crates high can a stack go?").disclosed == ["stack_height"]
    # weight and height both named: left to the patterns
    assert set(customer.reply("Can a 25 kg crate go on the fourth tier?").disclosed) == {
        "stack_height",
        "heavy_low",
    }
