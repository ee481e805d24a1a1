"""What a word means, the last answer in plain words, and the small turns around them: a
goodbye after an "ok", an apology for a "dumb q", "is it busy?", "who signs it off?". Written
for these behaviours on the bundled cases' scripts, not taken from any probe or conversation
set."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import glossary
from customer_sim.base import Exchange
from customer_sim.script import ScriptError, parse_script
from customer_sim.scripted import ScriptedCustomer
from tests.customer_sim.playing import played

CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.fixture(scope="module")
def customers() -> dict[str, ScriptedCustomer]:
    slugs = ("battery-dispatch", "credit-default", "tutorial-bake-sale", "warehouse-restack")
    return {slug: ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden") for slug in slugs}


def _after(customer: ScriptedCustomer, question: str, key: str) -> list[Exchange]:
    """A history whose one exchange disclosed ``key`` (asserted, so a pattern change that
    stops it shows up here rather than as a confusing failure below)."""
    reply = customer.reply(question)
    assert key in reply.disclosed, reply.text
    return [Exchange(question, reply.text, reply.stakeholder_id, list(reply.disclosed))]


@pytest.mark.parametrize(
    ("message", "term"),
    [
        ("what's a tier?", "tier"),
        ("sorry, what does KS stand for?", "ks"),
        ("what do you mean by 'round trip' in the spec?", "round trip' in the spec"),
        ("define FEFO please", "fefo please"),
        ("How do I count the demand charge for one day?", None),
        ("Is there a height limit?", None),
    ],
)
def test_a_question_about_a_words_meaning_names_that_word(message: str, term: str | None) -> None:
    assert glossary.asked_term(message) == term


def test_what_a_word_means_is_defined_and_discloses_nothing(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["battery-dispatch"]
    reply = customer.reply("Hi! what is a demand charge? the tariff file mentions one")
    assert reply.disclosed == []
    assert "per kW" in reply.text and "15-minute" in reply.text
    assert reply.stakeholder_id == "tobias"  # the glossary says whose word it is


def test_a_rule_question_that_names_a_defined_word_still_gets_the_rule(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["battery-dispatch"]
    reply = customer.reply("How does the demand charge count for tomorrow's bill?")
    assert "demand_charge_increment" in reply.disclosed


def test_a_definition_asked_right_after_a_rule_explains_the_word_not_the_rule_again(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["battery-dispatch"]
    history = _after(
        customer,
        "Is the 90 % efficiency per direction or for the whole cycle?",
        "efficiency_round_trip",
    )
    walk = customer.walk("what do you mean by round trip?", history)
    assert walk.decision.kind == "definition"
    assert walk.wording.text.startswith("Round trip means")
    assert "As I said" not in walk.wording.text


def test_say_it_more_simply_gives_the_facts_plain_line(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["tutorial-bake-sale"]
    history = _after(
        customer,
        "Are price_per_portion and ingredient_cost_per_tray in the same unit?",
        "prices_in_pence",
    )
    reply = customer.reply("can you say that more simply?", history)
    assert reply.disclosed == []
    assert customer.case.facts["prices_in_pence"].plain.lower() in reply.text.lower()


def test_a_long_what_do_you_mean_after_a_rule_is_the_rule_in_plain_words(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["tutorial-bake-sale"]
    history = _after(customer, "How long can the oven run on Friday?", "oven_time")
    reply = customer.reply(
        "what do you mean, the little one is broken so we have less time than you wrote?", history
    )
    assert reply.disclosed == []
    assert customer.case.facts["oven_time"].plain.lower() in reply.text.lower()


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Acknowledged. Goodbye.", ("good luck", "speak soon", "talk soon")),
        ("Understood. I'll send the CSV shortly.", ("good luck", "speak soon", "talk soon")),
        ("I'll send it over once it's ready.", ("good luck", "speak soon", "talk soon")),
        ("sry that was a dumb q", ("no problem", "don't worry", "not at all")),
        ("Is it a busy time of year for you?", ("busy", "hectic", "all good here")),
        ("How's everyone's week going?", ("busy as ever", "all good here")),
        ("Nice to meet you!", ("hi!", "hello!", "hi there")),
    ],
)
def test_small_turns_get_the_reply_a_colleague_would_give(
    customers: dict[str, ScriptedCustomer], message: str, expected: tuple[str, ...]
) -> None:
    reply = customers["warehouse-restack"].reply(message)
    assert reply.disclosed == []
    assert any(words in reply.text.lower() for words in expected), reply.text


def test_who_signs_it_off_is_whoever_asked_for_the_work(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["warehouse-restack"]
    by_marta = customer.reply("@Marta who signs the list off in the end?")
    assert by_marta.disclosed == [] and by_marta.text.startswith("I do")
    by_gary = customer.reply("@Gary who signs the list off in the end, you or Marta?")
    assert by_gary.disclosed == [] and by_gary.text.startswith("Marta Kowalczyk")


def test_a_deadline_question_after_a_rule_is_not_the_rule_again(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["battery-dispatch"]
    history = _after(customer, "What state of charge should it end the day at?", "end_soc_handover")
    reply = customer.reply("when do u need it by", history)
    assert reply.disclosed == []
    assert "As I said" not in reply.text and "final version" in reply.text


def test_a_glossary_entry_must_name_a_known_person() -> None:
    raw = {
        "stakeholders": [{"id": "ana", "name": "Ana", "non_answer": "Hm?"}],
        "facts": [],
        "glossary": [{"terms": ["SKU"], "says": "A stock-keeping unit.", "stakeholder": "bob"}],
    }
    with pytest.raises(ScriptError, match=r"glossary\[0\].*bob"):
        parse_script(raw)
    raw["glossary"] = [{"terms": [], "says": "A stock-keeping unit."}]
    with pytest.raises(ScriptError, match="terms"):
        parse_script(raw)


def test_are_you_sure_is_about_the_answer_its_words_name(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["battery-dispatch"]
    history = _after(
        customer,
        "@Tobias is the 558.3 kW from the June invoice the peak I have to stay under?",
        "peak_so_far_july",
    )
    history += _after(
        customer, "How does the demand charge count for tomorrow's bill?", "demand_charge_increment"
    )
    reply = customer.reply("are you sure? june's invoice says 558.3 kW", history)
    assert reply.disclosed == []
    assert "June's 558 kW is settled" in reply.text


def test_a_rule_restated_as_a_statement_is_not_said_again_in_place_of_the_question(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["tutorial-bake-sale"]
    history = _after(
        customer,
        "Are price_per_portion and ingredient_cost_per_tray in the same unit?",
        "prices_in_pence",
    )
    reply = customer.reply(
        "OK, the prices are in pence, not pounds. Is there a template for the plan file?", history
    )
    assert "pence" not in reply.text and "As I said" not in reply.text


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the same verb and subject after "or": one question with two alternatives
        (
            "Do we take the ingredient cost off, or do we just count what the stall takes?",
            ["Do we take the ingredient cost off, or do we just count what the stall takes?"],
        ),
        # another subject, or a question word: two questions
        (
            "Is that the figure to compare, or is there something else to add to it?",
            ["Is that the figure to compare?", "is there something else to add to it?"],
        ),
        (
            "Is the oven free all Friday afternoon, and is the school hall booked for Saturday?",
            ["Is the oven free all Friday afternoon?", "is the school hall booked for Saturday?"],
        ),
    ],
)
def test_alternatives_of_one_yes_or_no_question_stay_together(
    message: str, expected: list[str]
) -> None:
    from customer_sim.segments import pieces

    assert pieces(message) == expected


def test_an_alternative_question_about_costs_gets_the_profit_rule(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["tutorial-bake-sale"].reply(
        "Do we take the ingredient cost off, or do we just count what the stall takes?"
    )
    assert reply.disclosed == ["money_is_profit"]


def test_good_to_know_is_an_acknowledgement_not_a_statement(
    customers: dict[str, ScriptedCustomer],
) -> None:
    walk = customers["warehouse-restack"].walk("Oh good to know, I'd have got that wrong.", [])
    assert walk.decision.kind == "courtesy"


def test_a_question_about_the_requests_own_wording_is_not_met_with_which_part(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["credit-default"].reply(
        "what do you mean by 'the usual checks' in your email?"
    )
    assert reply.disclosed == []
    assert reply.text.startswith("That was shorthand on my part")


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Who's the best person to ask about the trucks?", "who"),
        ("Who I must ask about the lanes file?", "who"),
        ("what am I actually supposed to hand in?", "deliverable"),
        ("What exactly am I supposed to be making?", "deliverable"),
        ("what should the final file look like?", "deliverable"),
        ("So just to check: you want a CSV of moves, in order, by Saturday?", "deliverable"),
        ("hi, um, I'm not sure where to start", "goal"),
        ("How will you judge whether the list is good?", "judged"),
    ],
)
def test_questions_about_the_engagement_in_a_newcomers_words(message: str, kind: str) -> None:
    from customer_sim import acts

    assert kind in acts.engagements(message)


@pytest.mark.parametrize(
    "message",
    [
        "ttyl",
        "I'll be in touch with the list. Best wishes.",
        "Did anyone catch the cricket at the weekend?",
    ],
)
def test_more_courtesies_are_courtesies(
    customers: dict[str, ScriptedCustomer], message: str
) -> None:
    walk = customers["warehouse-restack"].walk(message, [])
    assert walk.decision.kind == "courtesy", walk.wording.text


@pytest.mark.parametrize(
    "message",
    [
        "is it the same for the chilled stock?",
        "does that apply on Sundays?",
        "and the heavy pallets on the second level as well?",
    ],
)
def test_the_last_questions_rule_asked_of_another_subject_is_a_follow_up(message: str) -> None:
    from customer_sim.follow_ups import is_follow_up

    assert is_follow_up(message)


def test_an_acknowledgement_before_and_is_not_cut_off_as_a_verdict_asked() -> None:
    from customer_sim.segments import pieces

    assert pieces("oh ok, and is it the same for the hotels? they open early")[0] == "oh ok"


@pytest.mark.parametrize(
    ("slug", "plan", "key"),
    [
        (
            "battery-dispatch",
            "My plan is to leave the battery at whatever charge the optimiser ends on at midnight."
            " Fine?",
            "end_soc_handover",
        ),
        (
            "credit-default",
            "I was going to treat income as yearly for everyone. OK?",
            "income_period",
        ),
    ],
)
def test_a_plan_put_up_for_approval_gets_the_rule_it_runs_into(
    customers: dict[str, ScriptedCustomer], slug: str, plan: str, key: str
) -> None:
    reply = customers[slug].reply(plan)
    assert key in reply.disclosed, reply.text
    assert "wouldn't want to say yes" not in reply.text


def test_a_plan_touching_two_rules_alike_is_not_checked_against_either(
    customers: dict[str, ScriptedCustomer],
) -> None:
    # "heavy pallets wherever there's room" touches the top-only, low-levels and pounds rules
    # equally: picking one would be a guess, so the plan is asked back.
    reply = customers["warehouse-restack"].reply(
        "I'll just put heavy pallets wherever there's room. That alright?"
    )
    assert reply.disclosed == []
    assert "specific point" in reply.text


def test_a_plan_about_another_case_is_not_checked_against_this_cases_rules(
    customers: dict[str, ScriptedCustomer],
) -> None:
    # Only the word "plan" touches the oven rule: no content word of the plan names it.
    reply = customers["tutorial-bake-sale"].reply(
        "My plan is to leave the battery at whatever charge the optimiser ends on at midnight."
        " Fine?"
    )
    assert reply.disclosed == []


@pytest.mark.parametrize(
    ("slug", "first", "question"),
    [
        ("tutorial-bake-sale", "how many portions of one bake can we sell?", "Who bakes them?"),
        ("battery-dispatch", "what SoC limits apply during the day?", "Who installed it?"),
        (
            "battery-dispatch",
            "what SoC limits apply during the day?",
            "What brand is the inverter?",
        ),
    ],
)
def test_a_short_question_of_its_own_after_a_rule_does_not_get_the_rule_again(
    customers: dict[str, ScriptedCustomer], slug: str, first: str, question: str
) -> None:
    customer = customers[slug]
    history = played(customer, [first])
    assert history[0].disclosed, history[0].answer
    reply = customer.reply(question, history)
    assert not set(reply.disclosed) & set(history[0].disclosed), reply.text
    assert not reply.text.startswith("As I said")


def test_a_detail_asked_of_the_rule_just_given_still_leans_on_it(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["battery-dispatch"]
    history = played(customer, ["when does the demand charge reset?"])
    reply = customer.reply("what's the exact time?", history)
    assert set(reply.disclosed) & set(history[0].disclosed), reply.text


def test_a_follow_up_after_a_follow_up_is_read_with_the_question_they_both_follow(
    customers: dict[str, ScriptedCustomer],
) -> None:
    # "why so few?" leans on the 30-portion answer; "and the same for the brownies?" leans on
    # it too, through the message in between.
    customer = customers["tutorial-bake-sale"]
    history = played(customer, ["how many portions of one bake can we sell?", "why so few?"])
    assert "thirty_portions_sell" in history[0].disclosed
    reply = customer.reply("right, and does the same apply to the brownies?", history)
    assert "thirty_portions_sell" in reply.disclosed, reply.text


def test_a_repeat_that_opens_with_a_short_sentence_goes_on_to_the_rule(
    customers: dict[str, ScriptedCustomer],
) -> None:
    customer = customers["tutorial-bake-sale"]
    history = played(customer, ["how many portions of one bake can we sell?"])
    reply = customer.reply("is that a hard limit?", history)
    assert reply.text.startswith("As I said: Not everything sells.")
    assert "30 portions" in reply.text


def _package(slug: str) -> Path:
    found = [CASES / slug, CASES / "drafts" / slug]
    return next(path for path in found if path.is_dir())  # a draft until it is moved up


def test_who_handles_x_gets_the_rule_that_says_who_handles_it() -> None:
    # The rule's answer ("... are handled by Northgate") is who handles them: not a person to
    # point to, and not background.
    customer = ScriptedCustomer.from_hidden_dir(_package("insurance-claims-triage") / "hidden")
    reply = customer.reply("quick one - who handles the claims on the Fleetline scheme?")
    assert "northgate_claims" in reply.disclosed, reply.text


def test_who_checks_x_stays_a_question_about_a_person(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["warehouse-restack"].reply("who checks the batch codes on the labels?")
    assert not any(
        customers["warehouse-restack"].case.facts[key].target for key in reply.disclosed
    ), reply.text
