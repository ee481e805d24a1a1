"""Behaviour of the scripted customer on the bakery-routes fixture script."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from customer_sim.base import Exchange, Reply
from customer_sim.scripted import ScriptedCustomer


def record(question: str, reply: Reply) -> Exchange:
    return Exchange(
        question, reply.text, reply.stakeholder_id, list(reply.disclosed), tuple(reply.speakers)
    )


def test_it_discloses_the_fact_a_question_asks_for(customer: ScriptedCustomer) -> None:
    reply = customer.reply("How many trays fit in one van?")
    assert reply.disclosed == ["van_capacity"]
    assert "140 trays" in reply.text
    assert reply.stakeholder_id == "priya"
    assert reply.contact_cost == 0.004


def test_it_routes_an_unaddressed_question_to_the_facts_owner(customer: ScriptedCustomer) -> None:
    reply = customer.reply("Can nut products share a van with nut-free orders?")
    assert reply.disclosed == ["nut_separation"]
    assert reply.stakeholder_id == "tom"
    assert reply.stakeholder_name == "Tom Becker"
    assert reply.stakeholder_role == "Food safety lead"
    assert reply.contact_cost == 0.01


def test_it_sends_unknown_questions_to_the_default_with_a_non_answer(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply("What's the name of the bakery's parrot?")
    assert reply.disclosed == []
    assert reply.stakeholder_id == "priya"
    # "parrot" is no noun of this case: the non-answer does not quote it back as a subject
    assert "parrot" not in reply.text
    assert reply.text.endswith(
        "Hm, I don't know what you mean. Ask me about the rounds, the vans or the shops."
    )


def test_a_near_miss_that_only_touches_the_topic_discloses_nothing(
    customer: ScriptedCustomer,
) -> None:
    for question in ("How many vans do you have?", "Which shops are supermarkets?"):
        assert customer.reply(question).disclosed == [], question


def test_it_answers_addressed_questions_as_the_addressee(customer: ScriptedCustomer) -> None:
    for question in (
        "@tom what is the maximum time cream products can be unrefrigerated?",
        "Tom, how long can cream cakes stay out of the fridge?",
        "question for QA: how long can cream cakes stay out of the fridge?",
        "Hi food safety lead - how long can cream cakes stay out of the fridge?",
    ):
        reply = customer.reply(question)
        assert reply.stakeholder_id == "tom", question
        assert reply.disclosed == ["cream_chill_limit"], question


def test_an_addressee_does_not_answer_a_colleagues_fact(customer: ScriptedCustomer) -> None:
    reply = customer.reply("@tom how many trays fit in a van?")
    assert reply.stakeholder_id == "tom"
    assert reply.disclosed == []
    assert "Priya Shah (Dispatch manager)" in reply.text
    assert reply.contact_cost == 0.01


def test_a_name_mentioned_in_passing_does_not_redirect(customer: ScriptedCustomer) -> None:
    reply = customer.reply("Does the dispatch team know how many trays fit in a van?")
    assert reply.stakeholder_id == "priya"
    assert reply.disclosed == ["van_capacity"]


def test_one_message_with_several_questions_discloses_each_fact(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Are the delivery windows hard or soft? And what does the -R at the end of some "
        "order ids mean? Also, is the goal fewer kilometres or fewer vans?"
    )
    assert reply.disclosed == ["window_hardness", "redelivery_suffix", "objective_cost"]
    assert len(reply.units) == 3
    # Answers come in the order the questions were asked.
    assert reply.text.index("Supermarket") < reply.text.index("-R") < reply.text.index("40 km")


def test_two_asks_joined_by_and_in_one_unit_disclose_both(customer: ScriptedCustomer) -> None:
    reply = customer.reply("How many trays fit in a van and does using an extra van cost anything?")
    assert sorted(reply.disclosed) == ["objective_cost", "van_capacity"]


def test_a_mixed_message_is_answered_by_each_facts_owner(customer: ScriptedCustomer) -> None:
    reply = customer.reply(
        "How many trays fit in a van? Can nut products go in the same van as nut-free orders?"
    )
    assert reply.speakers == ["priya", "tom"]
    assert reply.stakeholder_id == "priya"
    assert reply.disclosed == ["van_capacity", "nut_separation"]
    assert reply.text.startswith("Priya Shah (Dispatch manager): Every van takes 140 trays")
    assert "Tom Becker (Food safety lead): Anything containing nuts" in reply.text
    assert reply.contact_cost == 0.014  # both people's time


def test_an_addressed_message_points_a_colleagues_fact_to_them(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Priya, how many trays fit in a van? Can nut products go in the same van as nut-free?"
    )
    assert reply.speakers == ["priya"]
    assert reply.disclosed == ["van_capacity"]
    assert "Tom Becker (Food safety lead)" in reply.text


def test_typos_and_other_word_order_still_match(customer: ScriptedCustomer) -> None:
    assert customer.reply("whats the capcity of the vans").disclosed == ["van_capacity"]
    assert customer.reply("wat happens if we miss the delivery windw?").disclosed == [
        "window_hardness"
    ]
    assert customer.reply("nut free orders - do they need a separate van?").disclosed == [
        "nut_separation"
    ]


def test_a_misconception_is_disclosed_like_any_fact(customer: ScriptedCustomer) -> None:
    fact = customer.script.fact("van_capacity")
    assert fact.misconception is not None
    assert fact.misconception.contradicted_by == ("data/vans.csv",)
    reply = customer.reply("What is the capacity of each van?")
    assert reply.disclosed == ["van_capacity"]
    assert reply.text == fact.answer


def test_the_same_question_gets_the_same_reply(hidden_dir: Path) -> None:
    question = "Are there allergen rules for loading? And how strict are the time windows?"
    first = ScriptedCustomer.from_hidden_dir(hidden_dir).reply(question)
    second = ScriptedCustomer.from_hidden_dir(hidden_dir).reply(question)
    assert first == second
    assert first.speakers == ["tom", "priya"]
    assert first.disclosed == ["nut_separation", "window_hardness"]


def test_a_repeated_question_repeats_the_answer(customer: ScriptedCustomer) -> None:
    question = "How long can cream cakes stay out of the fridge?"
    first = customer.reply(question)
    again = customer.reply(question, [record(question, first)])
    assert again.disclosed == first.disclosed == ["cream_chill_limit"]
    assert again.text == f"As I said: {first.text}"


def test_past_patience_the_tone_is_short_but_the_fact_is_whole(
    customer: ScriptedCustomer,
) -> None:
    # Tom's patience is 3: three answered messages, then he is short with the player.
    history: list[Exchange] = []
    for question in (
        "Tom, is there a dress code?",
        "Tom, any allergen rules?",
        "Tom, who audits you?",
    ):
        history.append(record(question, customer.reply(question, history)))
    assert not customer.reply("Tom, any allergen rules?", history[:2]).exhausted
    tired = customer.reply("How long can cream cakes stay out of the fridge?", history)
    assert tired.exhausted
    assert tired.disclosed == ["cream_chill_limit"]
    assert tired.text.startswith("I've really got to get back to the audit.")
    # Every disclosed fact is in the text the player receives, in full.
    assert customer.script.fact("cream_chill_limit").answer in tired.text
    # Priya has answered none of these, so she is not impatient.
    assert not customer.reply("How many trays fit in a van?", history).exhausted


def test_patience_only_counts_the_same_stakeholder(customer: ScriptedCustomer) -> None:
    history = [Exchange(f"q{i}", "a", "tom", []) for i in range(10)]
    reply = customer.reply("How many trays fit in a van?", history)
    assert not reply.exhausted
    assert reply.text == customer.script.fact("van_capacity").answer


def test_the_fitted_matcher_is_reused_until_the_script_changes(
    hidden_dir: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "hidden"
    shutil.copytree(hidden_dir, copy)
    first = ScriptedCustomer.from_hidden_dir(copy)
    assert ScriptedCustomer.from_hidden_dir(copy).finder is first.finder
    script = json.loads((copy / "customer.json").read_text())
    script["facts"][1]["answer"] = "Vans take 120 trays."
    (copy / "customer.json").write_text(json.dumps(script))
    edited = ScriptedCustomer.from_hidden_dir(copy)
    assert edited.finder is not first.finder
    assert edited.reply("How many trays fit in a van?").text == "Vans take 120 trays."
