"""Follow-ups read with the last exchange when the message also says something first: a
reaction ("yikes.", "oh wow, that's earlier than I thought.") before the follow-up itself.
Messages written for these behaviours, not taken from any probe or conversation set."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.scripted import ScriptedCustomer
from tests.customer_sim.playing import played

CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.fixture(scope="module")
def warehouse() -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(CASES / "warehouse-restack" / "hidden")


def test_a_reaction_before_a_follow_up_does_not_hide_the_follow_up(
    warehouse: ScriptedCustomer,
) -> None:
    history = played(
        warehouse, ["The net_weight column says 1605 for one pallet - is that in kilos?"]
    )
    assert history[0].disclosed == ["weight_in_pounds"]
    reply = warehouse.reply("yikes. and is that the pallet with the wood?", history)
    assert reply.disclosed == ["heavy_gross_weight"], reply.text


def test_a_plan_before_is_that_ok_is_what_that_points_at(warehouse: ScriptedCustomer) -> None:
    """The first sentence names a rule's subject: "that" is the plan, not the last answer."""
    history = played(warehouse, ["how high can I stack in the chillers?"])
    reply = warehouse.reply("On weight I was going to ignore it completely. Is that ok?", history)
    assert not reply.text.startswith("As I said"), reply.text
    assert "cold_height_limit" not in reply.disclosed


@pytest.mark.parametrize(
    "asked",
    [
        "What means 'price board'? I don't know this word.",
        "what is meaning of 'pence'?",
        "What you mean by this?",
    ],
)
def test_a_learners_what_means_x_gets_the_last_answer_in_plain_words(asked: str) -> None:
    tutorial = ScriptedCustomer.from_hidden_dir(CASES / "tutorial-bake-sale" / "hidden")
    history = played(tutorial, ["what unit is price_per_portion in?"])
    assert "prices_in_pence" in history[0].disclosed
    reply = tutorial.reply(asked, history)
    assert reply.disclosed == []
    assert "the prices are pence and the costs are pounds" in reply.text.lower(), (
        reply.text
    )  # its plain line


@pytest.mark.parametrize(
    ("message", "addressed"),
    [
        ("thanks Gary", "gary"),
        ("Cheers Marta, that was useful", "marta"),
        ("Who told you that, Gary?", "gary"),
        # politeness before the questions chooses no one: the questions go to their owners
        ("Thanks for sending everything over, Gary. How heavy can a pallet be?", None),
        ("Does Gary know about the chillers?", None),
    ],
)
def test_a_name_said_to_someone_addresses_them(
    warehouse: ScriptedCustomer, message: str, addressed: str | None
) -> None:
    assert warehouse.case.addresses.resolve(message).stakeholder_id == addressed


def test_thanks_with_a_name_is_answered_by_that_person(warehouse: ScriptedCustomer) -> None:
    history = played(warehouse, ["@marta how high can I stack in the chillers?"])
    assert history[0].stakeholder_id == "marta"
    reply = warehouse.reply("thanks Gary", history)
    assert reply.stakeholder_id == "gary" and reply.disclosed == []


def test_why_after_a_short_reaction_asks_why_of_the_last_answer(
    warehouse: ScriptedCustomer,
) -> None:
    history = played(warehouse, ["@marta what unit is the net_weight column in?"])
    assert history[0].disclosed == ["weight_in_pounds"]
    reply = warehouse.reply("Huh, strange. Why would they do that?", history)
    assert reply.disclosed == [], reply.text
    assert reply.text == warehouse.case.facts["weight_in_pounds"].why


def test_a_longer_why_that_points_back_is_about_the_last_answer(
    warehouse: ScriptedCustomer,
) -> None:
    history = played(warehouse, ["@marta what unit is the net_weight column in?"])
    reply = warehouse.reply(
        "ok but why is it like that and not just kilos like everything else here?", history
    )
    assert reply.text == warehouse.case.facts["weight_in_pounds"].why, reply.text


def test_why_goes_to_the_colleague_who_gave_the_answer(warehouse: ScriptedCustomer) -> None:
    """Gary may speak to the pounds (``known_by``) and gave them: Gary says why, not Marta."""
    history = played(warehouse, ["@gary what unit is the net_weight column in?"])
    assert history[0].disclosed == ["weight_in_pounds"]
    assert history[0].stakeholder_id == "gary"
    reply = warehouse.reply("why?", history)
    assert reply.stakeholder_id == "gary", reply.text


def test_a_follow_up_naming_a_file_of_its_own_is_read_alone(warehouse: ScriptedCustomer) -> None:
    """ "and ..., per lanes.csv?" names a file the last question did not: read with the last
    question it must not turn into that question's neighbouring rule."""
    history = played(warehouse, ["how high can I stack in the chillers?"])
    reply = warehouse.reply("and the ambient lanes take five, per lanes.csv?", history)
    assert not reply.text.startswith("As I said"), reply.text
