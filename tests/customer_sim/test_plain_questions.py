"""Messages as newcomers write them: a hello with a statement, a verdict asked in two words, a
"please confirm whether ...", a plain "can I use all the columns?", a deadline for the work. Each
is read for what it asks, on the bundled cases' own scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import acts, intent
from customer_sim.base import Exchange
from customer_sim.scripted import ScriptedCustomer

CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.fixture(scope="module")
def customers() -> dict[str, ScriptedCustomer]:
    slugs = ("credit-default", "warehouse-restack", "tutorial-bake-sale", "battery-dispatch")
    return {slug: ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden") for slug in slugs}


def test_a_hello_with_a_statement_fires_no_rule(customers: dict[str, ScriptedCustomer]) -> None:
    reply = customers["credit-default"].reply(
        "Hi, I've built scorecards at another bank before, so just a few targeted questions."
    )
    assert reply.disclosed == []
    assert "default" not in reply.text.lower()


def test_a_two_word_verdict_after_a_plan_is_asked_not_a_greeting(
    customers: dict[str, ScriptedCustomer],
) -> None:
    assert acts.courtesy("This is ok yes?") is None
    reply = customers["warehouse-restack"].reply(
        "Hello, I plan to put all pallets of SKU 411900 together in the same stacks, any batch, "
        "so fewer stacks are mixed. This is ok yes?"
    )
    assert "batch_is_mixed" in reply.disclosed


def test_please_confirm_whether_asks(customers: dict[str, ScriptedCustomer]) -> None:
    reply = customers["tutorial-bake-sale"].reply(
        "Noted. Regarding the objective: please confirm whether 'the most money' refers to gross "
        "takings or to takings net of ingredient costs."
    )
    assert "money_is_profit" in reply.disclosed


def test_a_plain_permission_question_on_a_rules_subject_gets_the_rule(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["credit-default"].reply("Can I use all the columns in the file?")
    assert reply.disclosed == ["collections_after_default"]


@pytest.mark.parametrize(
    "ask",
    [
        "How much did we pay in demand charges on the June invoice?",
        "Do I need to include pallet weights anywhere in the CSV I send back?",
        "Is the cold lane 3 or 4 high?",
        "Can the chilled ones go to A01 or do they have to stay in C?",
    ],
)
def test_what_questions_deliverable_questions_and_alternatives_are_not_whether_questions(
    ask: str,
) -> None:
    assert not intent.asks_whether_ruled(ask) or intent.offers_alternatives(ask)


def test_a_deadline_for_the_list_is_the_engagements_not_the_sites_hours(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["warehouse-restack"].reply("whats the deadline for the list")
    assert reply.disclosed == []
    assert "22:00" not in reply.text


def _played(customer: ScriptedCustomer, *messages: str) -> list:
    history: list[Exchange] = []
    replies = []
    for message in messages:
        reply = customer.reply(message, history)
        replies.append(reply)
        history.append(Exchange(message, reply.text, reply.stakeholder_id, list(reply.disclosed)))
    return replies


def test_an_answered_message_carries_no_ask_back_for_its_leftover_pieces(
    customers: dict[str, ScriptedCustomer],
) -> None:
    bake_sale = customers["tutorial-bake-sale"]
    for message in (
        "the prices look weird next to the costs. 150 vs 6.09? typo?",
        "Next, the oven. Is the 6 hours one oven or two, and are they both available?",
        "Tom, in the school of the children, there is some food that is forbidden? For allergy maybe?",
    ):
        reply = bake_sale.reply(message)
        assert reply.disclosed, message
        assert "specific" not in reply.text and "what exactly" not in reply.text.lower(), message


def test_a_repeat_gives_the_sentence_the_follow_up_asks_about(
    customers: dict[str, ScriptedCustomer],
) -> None:
    first, again = _played(
        customers["tutorial-bake-sale"], "max portions sold per bake?", "and beyond that, wasted?"
    )
    assert first.disclosed == again.disclosed == ["thirty_portions_sell"]
    assert again.text.startswith("As I said:") and "left over" in again.text


def test_a_question_about_the_answer_just_given_gets_that_answer_again(
    customers: dict[str, ScriptedCustomer],
) -> None:
    first, again, other = _played(
        customers["tutorial-bake-sale"],
        "the oven has 6 hours, yes?",
        "is it one oven or two?",
        "what time does baking start on friday?",
    )
    assert first.disclosed == again.disclosed == ["oven_time"]
    assert again.text.startswith("As I said:") and "oven" in again.text
    assert other.disclosed == []  # only a word or two in common: not about that answer


def test_a_follow_up_naming_the_other_slot_asks_the_earlier_question_about_it(
    customers: dict[str, ScriptedCustomer],
) -> None:
    start, end = _played(
        customers["battery-dispatch"], "whats soc at start of day", "and end of day?"
    )
    assert start.disclosed == ["start_soc"]
    assert end.disclosed == ["end_soc_handover"]


def test_who_to_ask_lists_people_with_labels_that_never_nest_brackets(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["battery-dispatch"].reply("who's the right person for tariff questions?")
    assert "Tobias Reinholz (Energy Buyer - Finance)" in reply.text
    assert "((" not in reply.text and "(Finance))" not in reply.text


@pytest.mark.parametrize(
    ("slug", "ask"),
    [
        ("warehouse-restack", "how high can I stack in the A lanes?"),
        ("tutorial-bake-sale", "what time does baking start on friday?"),
    ],
)
def test_a_specific_question_nothing_answers_is_not_told_to_be_more_specific(
    customers: dict[str, ScriptedCustomer], slug: str, ask: str
) -> None:
    reply = customers[slug].reply(ask)
    assert reply.disclosed == []
    assert "specific" not in reply.text
    assert " on high" not in reply.text and " on time" not in reply.text  # no scrap as subject
