"""Three turns the customer used to get wrong, each written for this behaviour on the bundled
cases' own scripts (not taken from any probe or conversation set):

- an "ok" in front of a question without a question mark ("k. and mixed means diff sku only or
  diff batch too") got "Great. Let me know ..." instead of the answer;
- a first message that states a plan ("I'm reading net_weight as kg ...") was taken for a
  self-introduction ("I'm <name>") and got "Hello!";
- a bare subject ("what about heavy pallets?", "what's the oven situation for friday?") got
  "X: not something I have to hand", where an employee states the rule on that subject.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import acts, compose
from customer_sim.scripted import ScriptedCustomer
from tests.customer_sim.playing import played

CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.fixture(scope="module")
def customers() -> dict[str, ScriptedCustomer]:
    slugs = ("warehouse-restack", "tutorial-bake-sale")
    return {slug: ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden") for slug in slugs}


@pytest.mark.parametrize("opening", ["k.", "ok", "right, thanks."])
def test_an_ok_before_an_either_or_question_does_not_swallow_it(
    customers: dict[str, ScriptedCustomer], opening: str
) -> None:
    message = f"{opening} and mixed means diff sku only or diff batch too"
    reply = customers["warehouse-restack"].reply(message)
    assert reply.disclosed == ["batch_is_mixed"], reply.text


def test_an_ok_before_a_plain_remark_is_still_an_acknowledgement(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["warehouse-restack"].reply("ok. I'll start on the lanes file now.")
    assert reply.disclosed == []
    assert "hello" not in reply.text.lower()


@pytest.mark.parametrize(
    "text",
    [
        "I'm reading net_weight as kg and flagging anything over 800 as heavy.",
        "I'm not sure the lanes file is current.",
        "I'm assuming the heights are right.",
        "This is fine for the chillers I think.",
    ],
)
def test_i_am_doing_something_is_no_self_introduction(text: str) -> None:
    assert acts.leading_greeting(text) is None


@pytest.mark.parametrize("text", ["I'm Sam, the new analyst.", "Hi, I'm Priya", "this is Tom"])
def test_a_self_introduction_is_still_a_greeting(text: str) -> None:
    assert acts.leading_greeting(text) == acts.GREETING


def test_a_first_message_stating_a_plan_is_checked_not_greeted(
    customers: dict[str, ScriptedCustomer],
) -> None:
    plan = "I'm reading net_weight as kg and flagging anything over 800 as heavy."
    reply = customers["warehouse-restack"].reply(plan)
    assert "weight_in_pounds" in reply.disclosed
    assert not reply.text.lower().startswith("hello")


@pytest.mark.parametrize(
    ("slug", "message", "rule"),
    [
        ("warehouse-restack", "what about heavy pallets", "heavy_low_levels"),
        ("tutorial-bake-sale", "what's the oven situation for friday?", "oven_time"),
        ("tutorial-bake-sale", "what about nuts?", "nut_free_school"),
    ],
)
def test_a_bare_subject_gets_the_rule_it_is_the_heart_of(
    customers: dict[str, ScriptedCustomer], slug: str, message: str, rule: str
) -> None:
    reply = customers[slug].reply(message)
    assert reply.disclosed == [rule], reply.text


@pytest.mark.parametrize(
    "message",
    [
        "what about the oven temperature?",  # a detail no rule speaks to
        "what about the oven door?",  # the same
    ],
)
def test_a_subject_with_a_detail_of_its_own_is_not_given_a_rule(
    customers: dict[str, ScriptedCustomer], message: str
) -> None:
    assert customers["tutorial-bake-sale"].reply(message).disclosed == []


@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("warehouse-restack", "tell me about heavy pallets"),
        ("tutorial-bake-sale", "anything on nuts?"),
    ],
)
def test_a_request_to_volunteer_on_a_subject_gets_no_rule(
    customers: dict[str, ScriptedCustomer], slug: str, message: str
) -> None:
    """ "Tell me about X" asks the customer to volunteer, which it does not (FDE-Bench A.9.2)."""
    assert customers[slug].reply(message).disclosed == []


def test_what_about_x_right_after_an_answer_leans_on_it(
    customers: dict[str, ScriptedCustomer],
) -> None:
    """After the chiller heights, "what about ambient lanes?" asks about the ambient heights
    (already in that answer), not for the cold-chain rule the words "ambient lanes" are the
    heart of."""
    customer = customers["warehouse-restack"]
    history = played(customer, ["how high can stacks go in the chillers?"])
    assert history[0].disclosed == ["cold_height_limit"]
    assert customer.reply("what about ambient lanes?", history).disclosed == []


def test_a_plan_laid_out_as_a_list_is_checked_step_by_step(
    customers: dict[str, ScriptedCustomer],
) -> None:
    """Each step meets the rule it runs into: kilos (the file is in pounds) and four high in
    the chillers (three since the retrofit). Read together, the steps' words fired the heavy
    rule ("kg" from one step, "high" from the next), which no step asks about."""
    plan = "Plan: kg for weights, 4 high in chillers, mixed stacks first. Sign off?"
    reply = customers["warehouse-restack"].reply(plan)
    assert sorted(reply.disclosed) == ["cold_height_limit", "weight_in_pounds"]
    assert "those points" in reply.text  # two rules given, the rest of the plan not approved


def test_a_plan_list_that_asks_no_verdict_is_not_checked(
    customers: dict[str, ScriptedCustomer],
) -> None:
    reply = customers["warehouse-restack"].reply("Plan: kg for weights, 4 high in chillers.")
    assert "cold_height_limit" not in reply.disclosed


def test_a_non_answer_does_not_say_it_is_puzzled_twice(
    customers: dict[str, ScriptedCustomer],
) -> None:
    """Marta's own line opens "Not sure what you're after there."; the generic half before it
    must not say the same ("Not sure I follow, sorry. Not sure what you're after there.")."""
    marta = customers["warehouse-restack"].script.stakeholder("marta")
    for ask in ("forklifts first, lorries second", "the paint", "tea", "who painted it"):
        for subject in (None, "forklifts"):
            text = compose.unsure(ask, subject, marta).lower()
            assert text.count("not sure") == 1, text
            assert text.startswith("not sure") or subject in text


@pytest.mark.parametrize(
    ("slug", "message", "rule"),
    [
        # a comparison word names no subject: "Same unit?" asks about the two figures before it
        (
            "tutorial-bake-sale",
            "price_per_portion 150 vs ingredient_cost_per_tray 6.09. Same unit?",
            "prices_in_pence",
        ),
        # "any reason not to ...?" asks for a verdict on the statement before it
        (
            "warehouse-restack",
            "the chiller lanes say 4 high in the file, same as the ambient lanes. any reason "
            "not to use all 4?",
            "cold_height_limit",
        ),
    ],
)
def test_a_short_question_leaning_on_the_statement_before_it_is_read_with_it(
    customers: dict[str, ScriptedCustomer], slug: str, message: str, rule: str
) -> None:
    assert customers[slug].reply(message).disclosed == [rule]


def test_a_redirect_and_a_colleague_pointer_to_the_same_person_are_said_once() -> None:
    """Kofi has neither the committee nor the default definition: both are Priya's. "I'd put
    committee to Priya ..." then "Priya ... would know that better" in one reply is a stuck
    record; the non-answer's pointer counts as the one pointer to Priya."""
    customer = ScriptedCustomer.from_hidden_dir(CASES / "credit-default" / "hidden")
    for message in (
        "@kofi is the committee strict? and how is default defined?",
        "@kofi which validation checks are there? how is default defined?",
    ):
        text = customer.reply(message).text
        assert text.count("Priya Raman") == 1, text


@pytest.mark.parametrize(
    "message", ["what's the model for?", "what will you use the scores for?", "what is it for?"]
)
def test_what_the_work_is_for_gets_the_request_in_short(message: str) -> None:
    """Asked what the deliverable is for, the customer restates the request's aim; it used to
    ask back "Which part of model do you mean?"."""
    customer = ScriptedCustomer.from_hidden_dir(CASES / "credit-default" / "hidden")
    reply = customer.reply(message)
    assert reply.disclosed == [] and reply.text.startswith("In short:"), reply.text


def test_what_a_column_is_for_is_no_question_about_the_goal() -> None:
    assert acts.GOAL not in acts.engagements("what's the income column for?")


@pytest.mark.parametrize("message", ["who can tell me about the battery?", "who could help me?"])
def test_who_can_tell_me_asks_whom_to_ask(message: str) -> None:
    """It got "Battery: not something I have to hand" (a blind rater: garbled)."""
    assert acts.WHO in acts.engagements(message)


def test_a_why_after_a_short_lead_in_gets_the_reason_not_the_rule_again() -> None:
    customer = ScriptedCustomer.from_hidden_dir(CASES / "credit-default" / "hidden")
    history = played(customer, ["do the PDs have to be real probabilities?"])
    assert history[0].disclosed == ["calibration_rule"]
    why = "Sorry, I'm still learning, why does the level matter if the ranking is good?"
    reply = customer.reply(why, history)
    assert reply.text.startswith("Because"), reply.text


def test_whom_to_ask_about_two_subjects_names_more_than_one_person() -> None:
    customer = ScriptedCustomer.from_hidden_dir(CASES / "battery-dispatch" / "hidden")
    text = customer.reply("who do I ask about the tariff and who about the battery?").text
    assert "Tobias" in text and "Aylin" in text, text


@pytest.mark.parametrize(
    ("message", "kinds"),
    [
        ("When's it due and who signs off?", [acts.DEADLINE, acts.SIGN_OFF]),
        ("What should I hand in, and by when?", [acts.DELIVERABLE, acts.DEADLINE]),
        ("Deadline and sign-off?", [acts.DEADLINE, acts.SIGN_OFF]),
    ],
)
def test_both_halves_of_a_two_part_engagement_question_are_heard(
    message: str, kinds: list[str]
) -> None:
    """A blind rater: "When's it due and who signs off?" got only "I do"."""
    assert acts.engagements(message) == kinds


def test_a_word_with_an_accent_is_never_cut_short_in_a_reply() -> None:
    assert compose.subject_of("what about the café terrace?") == "café terrace"
    customer = ScriptedCustomer.from_hidden_dir(CASES / "tutorial-bake-sale" / "hidden")
    assert " caf " not in customer.reply("How long have you had the café?").text
