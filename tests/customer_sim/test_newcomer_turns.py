"""Turns a newcomer types that a probe set does not: chat shorthand, "so the goal is X, right?",
"who else should I talk to?", and a plain subject question two rules both touch. Written for
these behaviours, on the bundled cases' own scripts (not taken from any probe or conversation
set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import acts, compose, small_talk
from customer_sim.base import Exchange
from customer_sim.scripted import ScriptedCustomer
from customer_sim.shorthand import spelled_out

CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.fixture(scope="module")
def customers() -> dict[str, ScriptedCustomer]:
    slugs = ("warehouse-restack", "tutorial-bake-sale", "battery-dispatch")
    return {slug: ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden") for slug in slugs}


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("can i dump excess to teh grid", "can i dump excess to the grid"),
        ("r u sure?", "are you sure?"),
        ("thx, wen do u need it", "thanks, when do you need it"),
        ("whats the id col for", "what's the id col for"),
        ("y?", "why?"),
        ("ok n wat abt trays wiv nuts", "ok and what about trays with nuts"),
    ],
)
def test_chat_shorthand_is_spelled_out(typed: str, read: str) -> None:
    assert spelled_out(typed) == read


@pytest.mark.parametrize(
    "kept",
    ["option u is fine", "what about column r", "@teh hi", "B04 ok", "is n the count?", "y is it?"],
)
def test_a_lone_letter_or_a_name_is_left_as_typed(kept: str) -> None:
    assert spelled_out(kept) == kept


def test_a_typo_in_a_small_word_does_not_hide_the_rule(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["battery-dispatch"].reply("can i dump excess to teh grid")
    assert reply.disclosed == ["no_export"]


@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("warehouse-restack", "so the goal is just fewer mixed stacks, yeah?"),
        (
            "warehouse-restack",
            "just to check I get the goal - you want fewer mixed stacks and a list of moves?",
        ),
        (
            "tutorial-bake-sale",
            "Let me start with the goal: you want the plan that raises the most, correct?",
        ),
        ("tutorial-bake-sale", "what's the goal here?"),
        ("battery-dispatch", "so is the main aim to save money tomorrow?"),
        (
            "battery-dispatch",
            "Hi! Before I start, what's the main goal here - just the lowest bill?",
        ),
    ],
)
def test_the_goal_in_the_players_words_is_confirmed_without_a_rule(
    customers: dict[str, ScriptedCustomer], slug: str, message: str
) -> None:
    walk = customers[slug].walk(message)
    assert walk.wording.disclosed == []
    assert walk.decision.kind == "statement"
    # a question gets the request in short; the player's own version gets it put in ours,
    # neither confirmed (it may hide a rule) nor ignored
    opening = (
        "Here's how I'd put it:"
        if acts.is_goal_check(message) and not acts.asks_goal(message)
        else "In short:"
    )
    assert walk.wording.text.startswith(opening), walk.wording.text
    assert "ask before you build" not in walk.wording.text  # advice to the player, not the aim


def test_a_goal_question_that_names_the_convention_is_the_rules_question(
    customers: dict[str, ScriptedCustomer],
) -> None:
    assert not acts.is_goal_check("so the goal is profit after ingredient costs, right?")
    reply = customers["tutorial-bake-sale"].reply("Is the goal profit?")
    assert reply.disclosed == ["money_is_profit"]


@pytest.mark.parametrize(
    "message",
    ["who else should I talk to?", "is there anyone else I should ask?", "who should I contact?"],
)
def test_who_else_to_ask_lists_the_people_and_how_to_address_them(
    customers: dict[str, ScriptedCustomer], message: str
) -> None:
    reply = customers["warehouse-restack"].reply(message)
    assert reply.disclosed == []
    assert "Aisha Bello" in reply.text and "Gary Doyle" in reply.text
    assert '"@' in reply.text  # an example of the @ address, not an unexplained "handle"


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Is there a height limit?", "cold_height_limit"),
        ("and the really heavy pallets, can they go anywhere in a stack?", "heavy_low_levels"),
    ],
)
def test_a_plain_subject_question_two_rules_touch_gets_the_one_it_is_worded_like(
    customers: dict[str, ScriptedCustomer], message: str, rule: str
) -> None:
    history = [Exchange(question="Hello!", answer="Hi!", stakeholder_id="marta", disclosed=[])]
    assert customers["warehouse-restack"].reply(message, history).disclosed == [rule]


def test_who_to_ask_about_a_subject_names_the_person_whose_area_it_is(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["warehouse-restack"].reply(
        "Please, who I should ask for questions about the chiller and temperature?"
    )
    assert reply.text.startswith("That's Aisha Bello")
    assert "Gary Doyle" not in reply.text and reply.disclosed == []


def test_two_subjects_of_which_one_is_found_list_everyone(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["battery-dispatch"].reply(
        "who's the right person for tariff questions vs battery questions?"
    )
    assert "Tobias Reinholz" in reply.text and "Aylin Kaya" in reply.text


def _after_the_scoring_rule(customer: ScriptedCustomer) -> list[Exchange]:
    first = customer.reply("and if I can't get every single stack clean, is that a fail?")
    assert first.disclosed == ["mixed_first"]
    return [
        Exchange(
            question="and if I can't get every single stack clean, is that a fail?",
            answer=first.text,
            stakeholder_id=first.stakeholder_id,
            disclosed=list(first.disclosed),
        )
    ]


def test_a_longer_what_do_you_mean_puts_the_last_answer_simply(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["warehouse-restack"]
    walk = customer.walk(
        "sorry what do you mean by that exactly?", _after_the_scoring_rule(customer)
    )
    assert walk.decision.kind == "meta"
    # The scoring rule has a plain line in the script: that is what is said, not the rule again.
    plain = customer.case.facts["mixed_first"].plain
    assert plain and walk.wording.text.lower().endswith(plain.lower())


def test_why_after_a_remark_gives_the_reason_not_the_answer_again(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["warehouse-restack"]
    reply = customer.reply("that seems unambitious. why not?", _after_the_scoring_rule(customer))
    assert reply.text.startswith("Because")
    assert not reply.text.startswith("As I said")


@pytest.mark.parametrize(
    "remark",
    ["ah ok, that explains the high bad rate", "oh right, that explains why the file says 4"],
)
def test_an_acknowledgement_with_a_remark_is_no_ask(
    customers: dict[str, ScriptedCustomer], remark: str
) -> None:
    customer = customers["warehouse-restack"]
    walk = customer.walk(remark, _after_the_scoring_rule(customer))
    assert walk.wording.disclosed == []
    assert walk.decision.kind in {"statement", "courtesy"}


def test_a_deliverable_confirmation_is_checked_against_the_public_schema(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["warehouse-restack"]
    full = customer.reply("Deliverable: a CSV with step, pallet_id, from_stack, to_stack. Correct?")
    assert full.text.startswith("Yes, those are the columns: step, pallet_id, from_stack, to_stack")
    part = customer.reply("so the deliverable is a csv with pallet_id and to_stack?")
    assert "it needs step and from_stack." in part.text
    odd = customer.reply("what format do you want, with a move_id column?")
    assert "move_id isn't one of its columns." in odd.text
    assert full.disclosed == part.disclosed == odd.disclosed == []


def test_a_short_plain_question_worded_like_a_background_fact_gets_it(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["battery-dispatch"].reply(
        "is there a limit on how fast the battery can charge?"
    )
    assert reply.disclosed == ["power_rating"]


@pytest.mark.parametrize("message", ["what's this about?", "what do you want me to do?"])
def test_what_the_work_is_about_gets_the_request_in_short(
    customers: dict[str, ScriptedCustomer], message: str
) -> None:
    reply = customers["battery-dispatch"].reply(message)
    assert reply.text.startswith("In short:") and reply.disclosed == []


def _after(customer: ScriptedCustomer, question: str) -> list[Exchange]:
    reply = customer.reply(question)
    return [
        Exchange(
            question=question,
            answer=reply.text,
            stakeholder_id=reply.stakeholder_id,
            disclosed=list(reply.disclosed),
        )
    ]


def test_are_you_sure_restates_the_point_doubted(customers: dict[str, ScriptedCustomer]) -> None:
    customer = customers["tutorial-bake-sale"]
    history = _after(customer, "how many hours of oven time do we have?")
    reply = customer.reply("are you sure? the request says 6", history)
    assert reply.text.startswith("Yes")
    assert "6 hours was both ovens" in reply.text
    assert "changed!" not in reply.text  # the answer's flourish is not repeated


def test_a_how_much_repeat_quotes_the_sentence_with_the_figure_and_no_plan_caveat(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["tutorial-bake-sale"]
    history = _after(customer, "is there a limit on how much of one bake sells?")
    assert history[0].disclosed == ["thirty_portions_sell"]
    reply = customer.reply("how much can we sell of each?", history)
    assert "30 portions" in reply.text
    assert "plan" not in reply.text.split("30 portions", 1)[1]  # no "not a yes to the plan"


@pytest.mark.parametrize("message", ["what is the data?", "what files do I have?"])
def test_what_data_there_is_lists_the_workspace_files(message: str) -> None:
    customer = ScriptedCustomer.from_hidden_dir(CASES / "credit-default" / "hidden")
    reply = customer.reply(message)
    assert "train.csv" in reply.text and "test.csv" in reply.text
    assert reply.disclosed == []


def test_a_follow_up_with_a_subject_of_its_own_is_not_the_last_rule_again() -> None:
    found = [CASES / "churn-retention", CASES / "drafts" / "churn-retention"]
    package = next(path for path in found if path.is_dir())  # a draft until it is moved up
    customer = ScriptedCustomer.from_hidden_dir(package / "hidden")
    history = _after(customer, "what counts as the budget, the discount itself?")
    assert history[0].disclosed == ["budget_accounting"]
    reply = customer.reply("and who pays for the calls?", history)
    assert reply.disclosed == []
    assert not reply.text.startswith("As I said")


def test_anything_legal_i_should_know_is_a_sweep() -> None:
    assert acts.is_sweep("@niamh is there anything legal I should know?")


def test_an_amount_with_a_modifier_before_its_unit_is_a_budget_not_a_count() -> None:
    from customer_sim import intent

    assert not intent.background_only("how many investigator hours do we have next week?")
    assert intent.background_only("how many pallets are there in the file?")


@pytest.mark.parametrize(
    "message", ["Before I send it, what do you check at sign-off?", "what will you look at first?"]
)
def test_what_is_checked_at_sign_off_says_how_the_work_is_judged(
    customers: dict[str, ScriptedCustomer], message: str
) -> None:
    reply = customers["warehouse-restack"].reply(message)
    assert reply.disclosed == []
    assert "how we actually work" in reply.text, reply.text


@pytest.mark.parametrize(
    ("message", "wanted", "unwanted"),
    [
        # a plural column is that column said of many rows, not a wrong name
        ("so you want a CSV of bake_ids and trays, right?", "Yes, those are the columns", "isn't"),
        # columns said in plain words are named
        ("one row per bake with its trays, yes?", "Yes, those are the columns", "needs"),
        ("what do I need to hand in?", "One file with the columns bake_id, trays", "specific"),
        ("When you need the plan, please?", "deadline", "columns"),
        ("and you want the list back by Friday lunchtime?", "deadline", "specific"),
    ],
)
def test_the_deliverable_and_its_deadline_checked_in_plain_words(
    customers: dict[str, ScriptedCustomer], message: str, wanted: str, unwanted: str
) -> None:
    reply = customers["tutorial-bake-sale"].reply(message)
    assert wanted in reply.text and unwanted not in reply.text, reply.text
    assert reply.disclosed == []


def test_whom_to_ask_is_said_in_the_first_person_by_the_one_replying(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["warehouse-restack"]
    everyone = customer.reply("@marta who should I talk to?")
    assert everyone.stakeholder_id == "marta"
    assert "I cover" in everyone.text and "Marta Kowalczyk" not in everyone.text, everyone.text
    marta = customer.case.people["marta"]
    own = small_talk.who(customer.case.script.stakeholders, "who handles trucks?", marta)
    assert "Marta" not in own, own


@pytest.mark.parametrize(
    "message", ["Should I include a row for every bake?", "do I need a row per bake?"]
)
def test_a_question_about_the_files_rows_is_answered_from_the_schema(
    customers: dict[str, ScriptedCustomer], message: str
) -> None:
    reply = customers["tutorial-bake-sale"].reply(message)
    assert reply.text.startswith("The file has bake_id, trays"), reply.text
    assert reply.disclosed == []


@pytest.mark.parametrize(
    "typed",
    [
        "@kofi the default flag - status or dpd? the threshold?",
        "@Kofi default: status or days past due? threshold?",
    ],
)
def test_a_reply_points_to_the_same_colleague_once(typed: str) -> None:
    # Both parts of the ask are the validation officer's; the data engineer sends the player
    # there once, not once per part ("ask Priya ... That one's for Priya").
    credit = ScriptedCustomer.from_hidden_dir(CASES / "credit-default" / "hidden")
    text = credit.reply(typed, []).text
    assert text.count("Priya Raman") == 1, text


@pytest.mark.parametrize(
    ("ask", "subject"),
    [
        ("Which products do you want ranked?", "products"),
        ("Which ones do you need scored?", None),
        ("is the broker feed monthly?", "broker feed monthly"),
    ],
)
def test_a_lone_past_participle_is_not_quoted_as_the_subject(ask: str, subject: str | None) -> None:
    assert compose.subject_of(ask) == subject
