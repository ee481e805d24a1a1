"""Near rules (``customer_sim.finder``, "a near rule"): when a rule misses by one group and the
ask's words beyond what fired belong to it, what fired does not answer as if it were asked.
Pinned with questions of our own on a small script written here, with no vetoes in its
patterns: the mechanism must hold for wordings nobody wrote a veto for."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.scripted import ScriptedCustomer
from tests.support.scripts import customer_of, fact, person

PERSON = person("ines", "Ines Vidal", "Depot manager")


def _fact(key: str, answer: str, asks: list[list[str]], topic: str = "") -> dict[str, object]:
    return fact("ines", key, answer, asks, topic)


FACTS = [
    _fact(
        "delivery_days",
        "We deliver on Tuesdays and Fridays.",
        [["deliver*|van|truck", "when|day|days|which day"]],
        topic="our delivery days",
    ),
    _fact(
        "frozen_van",
        "Frozen goods only ever ride in the refrigerated van, never in the dry one.",
        [["frozen|ice cream|chilled", "van|truck|vehicle", "which|only|allowed|may|can"]],
    ),
    _fact(
        "heavy_floor",
        "A pallet over 500 kg stays on the floor, never on a rack.",
        [["pallet*", "heavy|overweight|kg", "floor|rack|shelf|level"]],
    ),
    _fact(
        "pallet_wrap",
        "Every pallet is shrink-wrapped before it leaves the depot.",
        [["pallet*", "wrap*|film"]],
    ),
]
TARGETS = ["frozen_van", "heavy_floor", "pallet_wrap"]


@pytest.fixture
def customer(tmp_path: Path) -> ScriptedCustomer:
    return customer_of(tmp_path, PERSON, FACTS, TARGETS)


def test_background_does_not_answer_a_question_a_rule_nearly_fires_on(
    customer: ScriptedCustomer,
) -> None:
    # "is it fine" is not in the frozen-van rule's words: a miss. Its subject (frozen ice
    # cream in the van) is most of the question; the delivery-days background is not the answer.
    reply = customer.reply("Is it fine to put the frozen ice cream in the van on delivery days?")
    assert reply.disclosed == []
    assert "Tuesdays" not in reply.text
    assert "delivery days" in reply.text  # asked back, naming what it could have meant


def test_background_still_answers_its_own_question(customer: ScriptedCustomer) -> None:
    assert customer.reply("Which days does the van deliver?").disclosed == ["delivery_days"]


def test_the_rule_answers_when_it_fires(customer: ScriptedCustomer) -> None:
    disclosed = customer.reply("Can frozen ice cream go in the van on delivery days?").disclosed
    assert "frozen_van" in disclosed


def test_a_sibling_rule_on_the_shared_subject_gives_way_to_the_near_one(
    customer: ScriptedCustomer,
) -> None:
    # Heavy, overweight, kg: the weight rule's aspect, one group short ("up high" is not in
    # its words). The wrapping rule fired on "pallet ... wrapped" only: it is not the answer.
    reply = customer.reply(
        "This heavy overweight 600 kg pallet is wrapped already - can it go up high?"
    )
    assert "pallet_wrap" not in reply.disclosed
    assert "shrink" not in reply.text


def test_a_sibling_rule_keeps_its_question_when_the_near_rule_has_few_words_of_its_own(
    customer: ScriptedCustomer,
) -> None:
    assert customer.reply("Does a heavy pallet need a wrap?").disclosed == ["pallet_wrap"]
    assert customer.reply("Does every pallet get wrapped?").disclosed == ["pallet_wrap"]


def test_the_finder_names_what_it_withheld_and_the_near_rule(customer: ScriptedCustomer) -> None:
    ask = "Is it fine to put the frozen ice cream in the van on delivery days?"
    assert [found.key for found in customer.finder.rivalled(ask)] == ["delivery_days"]
    assert "frozen_van" in customer.finder.near_rules(ask)
    assert "delivery_days" in {found.key for found in customer.finder.withheld(ask)}
    # nothing is withheld when no rule is near
    assert customer.finder.rivalled("Which days does the van deliver?") == []
