"""Stage 1 of the reply: courtesies, sweeps, meta follow-ups and the engagement, answered in the
speaker's voice without matching facts, disclosing nothing and never quoting the message back."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import acts
from customer_sim.base import Exchange
from customer_sim.scripted import ScriptedCustomer

TUTORIAL = Path(__file__).resolve().parents[2] / "cases" / "tutorial-bake-sale" / "hidden"
ECHOES = ("that:", "on that -", "which part of", "you mean on", " on ok", "thx -", "both:")


@pytest.fixture(scope="module")
def bake_sale() -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(TUTORIAL)


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("hi.", acts.GREETING),
        ("Hello both, thanks for having me.", acts.GREETING),
        ("hm. ok.", acts.ACK),
        ("ok got it", acts.ACK),
        ("done, thx", acts.FAREWELL),
        ("Brilliant, thanks so much Priya, I'll get going!", acts.FAREWELL),
        ("ok, let me get started then", acts.FAREWELL),
        ("Ok great, thank you!", acts.THANKS),
        ("sorry for my english", acts.APOLOGY),
        ("How are you?", acts.SMALLTALK),
    ],
)
def test_a_piece_made_only_of_courtesies_is_that_courtesy(text: str, act: str) -> None:
    assert acts.courtesy(text, ("priya", "tom")) == act


@pytest.mark.parametrize(
    "text", ["Hi, is there a limit on oven time?", "ok so I'll bake 6 trays of B04", "Right?"]
)
def test_a_piece_that_asks_or_says_something_is_no_courtesy(text: str) -> None:
    assert acts.courtesy(text) is None


@pytest.mark.parametrize(
    "text", ["hi", "Ok great, thank you!", "thx.", "Hello both, thanks for having me.", "ciao!"]
)
def test_a_courtesy_gets_a_short_reply_that_discloses_nothing(
    bake_sale: ScriptedCustomer, text: str
) -> None:
    reply = bake_sale.reply(text)
    assert reply.disclosed == []
    assert len(reply.text) < 120 and not any(echo in reply.text.lower() for echo in ECHOES)


def test_a_greeting_before_a_question_does_not_stop_the_question(
    bake_sale: ScriptedCustomer,
) -> None:
    reply = bake_sale.reply("Hi! Before I start - do we still have 6 hours of oven time?")
    assert reply.disclosed == ["oven_time"]  # the fact behind the oven_five_hours target


def test_anything_else_names_what_people_speak_to_and_no_rule(bake_sale: ScriptedCustomer) -> None:
    reply = bake_sale.reply("Great. Anything I've missed?")
    assert reply.disclosed == []
    assert "Tom Fletcher covers" in reply.text or "Priya Shah covers" in reply.text


def test_why_after_a_rule_gives_its_reason_from_the_person_who_gave_it(
    bake_sale: ScriptedCustomer,
) -> None:
    first = bake_sale.reply("@tom can we sell the walnut cake?")
    assert first.disclosed == ["nut_free_school"]
    history = [Exchange("@tom can we sell the walnut cake?", first.text, first.stakeholder_id,
                        first.disclosed, tuple(first.speakers))]  # fmt: skip
    why = bake_sale.reply("why?", history)
    assert why.disclosed == [] and why.stakeholder_id == "tom"
    assert why.text and why.text != first.text
    sure = bake_sale.reply("are you sure?", history)
    assert sure.disclosed == [] and sure.text.startswith("Yes")


def test_a_meta_follow_up_with_nothing_before_it_asks_which_point(
    bake_sale: ScriptedCustomer,
) -> None:
    history = [Exchange("hi", "Hi!", "priya")]
    reply = bake_sale.reply("what do you mean?", history)
    assert reply.disclosed == [] and "which" in reply.text.lower()


def test_questions_about_the_engagement_get_plain_answers(bake_sale: ScriptedCustomer) -> None:
    who = bake_sale.reply("who should I ask about the school side?")
    facts = {fact.key: fact for fact in bake_sale.script.facts}
    assert "Tom" in who.text and all(facts[key].target is None for key in who.disclosed)
    goal = bake_sale.reply("what are we trying to achieve?")
    assert "In short: plan how many trays" in goal.text and goal.disclosed == []


def test_a_statement_that_asks_nothing_is_acknowledged_not_questioned(
    bake_sale: ScriptedCustomer,
) -> None:
    reply = bake_sale.reply("Thanks. I'll put the numbers together.")
    assert reply.disclosed == [] and "specific" not in reply.text


def test_a_non_answer_quotes_only_nouns_the_case_knows(bake_sale: ScriptedCustomer) -> None:
    assert "weather" not in bake_sale.reply("What's the weather like on Saturday?").text
    assert "trays" in bake_sale.reply("Tell me about the trays?").text.lower()


def test_a_role_in_brackets_never_nests_brackets_in_a_label() -> None:
    battery = Path(TUTORIAL).parents[1] / "battery-dispatch" / "hidden"
    customer = ScriptedCustomer.from_hidden_dir(battery)
    labels = [person.label for person in customer.script.stakeholders]
    assert all(label.count("(") <= 1 for label in labels), labels


def test_a_repeat_drops_the_answers_opening_flourish() -> None:
    from customer_sim.compose import repeated

    assert repeated("Good question - the oven has 5 hours.") == "As I said: The oven has 5 hours."


def _after(customer: ScriptedCustomer, first: str) -> list[Exchange]:
    reply = customer.reply(first)
    return [
        Exchange(first, reply.text, reply.stakeholder_id, reply.disclosed, tuple(reply.speakers))
    ]


def test_a_short_follow_up_is_read_with_the_question_before_it(bake_sale: ScriptedCustomer) -> None:
    history = _after(bake_sale, "max portions sold per bake?")
    assert history[0].disclosed == ["thirty_portions_sell"]
    again = bake_sale.reply("and beyond that, wasted?", history)
    assert again.disclosed == ["thirty_portions_sell"] and again.text.startswith("As I said:")


def test_a_follow_up_without_a_question_before_it_is_not_read_back(
    bake_sale: ScriptedCustomer,
) -> None:
    assert bake_sale.reply("and beyond that, wasted?").disclosed == []
