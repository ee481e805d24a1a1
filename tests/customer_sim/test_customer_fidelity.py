"""The failure classes outside testers found, each pinned with questions of our own.

Vocabulary dependence, confidently wrong sibling answers, near-miss leaks through shared words
and phrase splits, multi-stakeholder messages answered by one person, one canned non-answer for
everything, and facts cut off by impatience (issue: a customer that holds up on outside
questions). The fixture's patterned facts are ``cream_chill_limit``, ``nut_separation``,
``first_departure`` and ``last_return``.
"""

from __future__ import annotations

import pytest

from customer_sim.scripted import ScriptedCustomer
from customer_sim.segments import pieces


@pytest.mark.parametrize(
    "question",
    [
        "How long may the cream slices sit outside the chiller?",
        "if the patisserie stays unrefrigerated for two hours, is that a problem",
        "dairy products - max time out of the cold?",
        "Tom: what's the time limit on cream cakes outside the fridge",
        "how lnog can cream stuff be out of the frige",
    ],
)
def test_a_rule_asked_in_other_words_is_answered(customer: ScriptedCustomer, question: str) -> None:
    assert customer.reply(question).disclosed == ["cream_chill_limit"]


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("By what time do the vans have to be back at the depot?", "last_return"),
        ("When is the latest a driver can finish the round?", "last_return"),
        ("What's the earliest a van can leave in the morning?", "first_departure"),
        ("When does the first round start?", "first_departure"),
    ],
)
def test_a_sibling_fact_never_answers_instead(
    customer: ScriptedCustomer, question: str, fact: str
) -> None:
    assert customer.reply(question).disclosed == [fact]


@pytest.mark.parametrize(
    "question",
    [
        "Are there cream products in tomorrow's orders?",  # names the subject, asks no rule
        "How many nut-free orders are there?",
        "Which file lists the vans?",
        "What's the deadline for the plan?",
    ],
)
def test_a_near_miss_discloses_nothing(customer: ScriptedCustomer, question: str) -> None:
    reply = customer.reply(question)
    assert reply.disclosed == []
    assert reply.text  # still an answer in the persona's voice


def test_a_message_is_not_split_inside_a_phrase(customer: ScriptedCustomer) -> None:
    # "first and last" is one phrase: neither fragment may be matched on its own.
    reply = customer.reply("Do cream and nut products go in separate vans?")
    assert reply.disclosed == ["nut_separation"]


def test_two_questions_for_two_people_are_both_answered(customer: ScriptedCustomer) -> None:
    reply = customer.reply(
        "Priya: when do the vans have to be back? And Tom, how long can cream be unchilled?"
    )
    assert reply.speakers == ["priya", "tom"]
    assert reply.disclosed == ["last_return", "cream_chill_limit"]
    reply = customer.reply(
        "when do vans need to be back and how long can cream stay out of the fridge"
    )
    assert sorted(reply.disclosed) == ["cream_chill_limit", "last_return"]


def test_non_answers_respond_to_what_was_asked(customer: ScriptedCustomer) -> None:
    questions = [
        "What colour are the vans?",
        "Is there a canteen at the depot?",
        "What software do you plan with?",
        "Do the drivers get paid overtime?",
    ]
    texts = [customer.reply(q).text.lower() for q in questions]
    assert len(set(texts)) == len(texts)  # not one canned line for everything
    # Only nouns the case knows are quoted back (the vans are in its data; a canteen and
    # software are not, and a slice of the message would read as an echo).
    assert "van" in texts[0] and "canteen" not in texts[1] and "software" not in texts[2]
    assert texts == [customer.reply(q).text.lower() for q in questions]  # deterministic


def test_a_near_miss_on_a_colleagues_topic_names_the_colleague(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply("Priya, are there cream products in tomorrow's orders?")
    assert reply.disclosed == []
    assert "Tom Becker (Food safety lead)" in reply.text


def test_a_near_miss_touching_the_speakers_own_area_as_much_is_not_sent_on(
    customer: ScriptedCustomer,
) -> None:
    # "vans" touches Priya's own rules as much as "cream" touches Tom's: she asks what is
    # meant herself instead of sending the player to Tom over one word.
    reply = customer.reply("Priya, is cream on the vans?")
    assert reply.disclosed == []
    assert reply.speakers == ["priya"]
    assert "Tom" not in reply.text


def test_courtesies_around_a_question_get_no_answer_of_their_own(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply("Thanks, that helps. How long can cream be out of the fridge? Cheers!")
    assert reply.text == customer.script.fact("cream_chill_limit").answer


def test_a_fact_known_by_several_people_is_answered_by_the_one_asked(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply("Priya, how long can cream cakes be out of the fridge?")
    assert reply.speakers == ["priya"]
    assert reply.disclosed == ["cream_chill_limit"]


def test_a_second_person_named_mid_sentence_gets_their_own_ask(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "hey priya when do vans need to be back and tom how long can cream stay unchilled"
    )
    assert reply.speakers == ["priya", "tom"]
    assert reply.disclosed == ["last_return", "cream_chill_limit"]


def test_a_question_is_read_with_the_sentence_before_it(customer: ScriptedCustomer) -> None:
    reply = customer.reply("The cream slices go out on the first van. How long is that allowed?")
    assert reply.disclosed == ["cream_chill_limit"]


def test_an_ask_without_a_question_mark_is_still_answered(customer: ScriptedCustomer) -> None:
    reply = customer.reply("Thanks. Not sure whether cream can stay out of the fridge for 2 hours")
    assert reply.disclosed == ["cream_chill_limit"]


def test_a_statement_of_context_is_not_matched_on_its_own(customer: ScriptedCustomer) -> None:
    reply = customer.reply(
        "Our cream stays out of the fridge for an hour. What's the depot address?"
    )
    assert reply.disclosed == []


@pytest.mark.parametrize(
    ("word", "known", "typo"),
    [
        ("effciency", "efficiency", True),
        ("recieve", "receive", True),
        ("warrenty", "warranty", True),
        ("stock", "stack", False),
        ("weight", "height", False),
        ("pound", "found", False),
        ("matter", "master", False),
        # four letters: only two swapped neighbours, never a wrong, dropped or extra letter
        ("teir", "tier", True),
        ("paek", "peak", True),
        ("tear", "tier", False),
        ("tie", "tier", False),
        ("tiers", "tier", False),
    ],
)
def test_only_plausible_typos_are_read_as_the_known_word(word: str, known: str, typo: bool) -> None:
    from customer_sim.patterns import is_typo

    assert is_typo(word, known) is typo


def test_the_items_of_a_list_after_an_asking_lead_in_are_asks(customer: ScriptedCustomer) -> None:
    reply = customer.reply(
        "Please confirm:\n1. the latest time vans must be back\n2. cream time out of the fridge"
    )
    assert sorted(reply.disclosed) == ["cream_chill_limit", "last_return"]


def test_a_name_after_a_colon_lead_in_opens_an_ask_for_that_person(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Priya and Tom, please: Tom, how long can cream be out of the fridge? "
        "Priya, when must the vans be back?"
    )
    assert reply.speakers == ["tom", "priya"]
    assert reply.disclosed == ["cream_chill_limit", "last_return"]


def test_a_numbered_list_on_one_line_is_cut_into_its_items(customer: ScriptedCustomer) -> None:
    # Each item is matched on its own: in one unsplit line the "back" of the second item
    # would veto the first item's rule.
    reply = customer.reply(
        "Two checks for the plan: (a) what's the earliest a van may set off, "
        "(b) by when must it be back"
    )
    assert reply.disclosed == ["first_departure", "last_return"]
    reply = customer.reply(
        "couple of quick ones: 1. how long can dairy be out of the chiller, "
        "2. how many vans do you have"
    )
    assert reply.disclosed == ["cream_chill_limit"]


@pytest.mark.parametrize(
    "message",
    [
        "Two things for the plan: (1) may nut orders share a van with nut-free ones; "
        "(2) by when must the vans be back",
        "Two things for the plan: may nut orders share a van with nut-free ones; "
        "by when must the vans be back",
        "A couple of checks: 1) may nut orders share a van with nut-free ones; "
        "2) by when must the vans be back?",
        "may nut orders share a van with nut-free ones; by when must the vans be back",
    ],
)
def test_items_ended_by_semicolons_after_a_lead_in_are_each_asked(
    customer: ScriptedCustomer, message: str
) -> None:
    # Neither item ends in a question mark, and the first follows a lead-in: each is still a
    # question (its marker or lead-in does not hide the question word that opens it).
    assert sorted(customer.reply(message).disclosed) == ["last_return", "nut_separation"]


def test_questions_strung_together_with_commas_are_each_asked(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Tom, quick things: can nut orders go in the same van as nut-free ones, "
        "how long may cream cakes stay outside the fridge, and do you have a depot map?"
    )
    assert reply.disclosed == ["nut_separation", "cream_chill_limit"]
    # A condition before a comma is not a question of its own.
    assert pieces("If a van sets off at 04:00, is that a problem?") == [
        "If a van sets off at 04:00, is that a problem?"
    ]
    # Nor is a "when" clause with its own subject ("when the van leaves, ..."), while "when is
    # ..." opens a question and is cut.
    assert pieces("When the van leaves the depot, where is the cream log kept?") == [
        "When the van leaves the depot, where is the cream log kept?"
    ]
    assert pieces("When is the van loaded, where is the cream log kept?") == [
        "When is the van loaded?",
        "where is the cream log kept?",
    ]
    # ", whether ..." after a question opens another (an indirect one)
    assert pieces("how the vans are loaded, whether nut orders may share one.") == [
        "how the vans are loaded",
        "whether nut orders may share one.",
    ]


def test_a_one_line_list_after_a_lead_in_naming_its_asks_is_cut_at_its_commas(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Three things I need before I plan: the earliest time a van may set off, the latest "
        "time it must be back, and the number of vans you own."
    )
    # unsplit, the second item's "back" would veto the first item's rule
    assert sorted(reply.disclosed) == ["first_departure", "last_return"]
    # a plain enumeration of short nouns is not cut, nor a question after the colon
    assert pieces("Points to cover: vans, cream and nuts.") == [
        "Points to cover: vans, cream and nuts."
    ]
    assert pieces("Two questions: the vans leave at which time, 04:00 or 05:00?") == [
        "Two questions: the vans leave at which time, 04:00 or 05:00?"
    ]


def test_an_imperative_ask_after_a_comma_and_is_a_question_of_its_own(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Please confirm the earliest time a van may set off, and let me know by when it must "
        "be back."
    )
    assert sorted(reply.disclosed) == ["first_departure", "last_return"]


@pytest.mark.parametrize(
    "message",
    [
        "Can you tick these off?\n[ ] cream may sit out of the fridge all morning\n"
        "[x] there is no deadline for the vans to be back",
        "My assumptions:\n- [ ] cream may sit out of the fridge all morning\n"
        "- [ ] there is no deadline for the vans to be back",
    ],
)
def test_checklist_boxes_are_list_items_and_a_question_about_the_list_asks_them(
    customer: ScriptedCustomer, message: str
) -> None:
    assert sorted(customer.reply(message).disclosed) == ["cream_chill_limit", "last_return"]


@pytest.mark.parametrize(
    "message",
    [
        "Say the cream slices travel in a van whose chiller is broken. How many hours may the "
        "delivery take?",
        "Suppose the fridge in van 3 fails with cream cakes on board. How long may the round last?",
    ],
)
def test_a_question_after_a_supposition_is_read_with_it(
    customer: ScriptedCustomer, message: str
) -> None:
    # "Say X. Can I Y?" asks "if X, can I Y?", although the question names no pronoun
    assert customer.reply(message).disclosed == ["cream_chill_limit"]


def test_a_statement_is_not_cut_at_and_into_questions(customer: ScriptedCustomer) -> None:
    statement = "The cream log is filled for the morning runs and is blank for the afternoon."
    assert pieces(statement) == [statement]
    assert pieces("is the log filled for the morning runs and is it blank later") == [
        "is the log filled for the morning runs",
        "is it blank later",
    ]


def test_a_pronoun_chain_is_read_back_to_the_sentence_naming_the_subject(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "The cream eclairs ride in the back of the third van. It has no cooling at all. "
        "How long can they stay in there?"
    )
    assert reply.disclosed == ["cream_chill_limit"]


@pytest.mark.parametrize("verdict", ["Fine by you?", "Correct?", "Any objection?", "ok?"])
def test_a_short_ask_for_a_verdict_is_read_with_the_plan_before_it(
    customer: ScriptedCustomer, verdict: str
) -> None:
    plan = "My plan leaves the cream slices unrefrigerated for two hours on the long round."
    assert customer.reply(f"{plan} {verdict}").disclosed == ["cream_chill_limit"]
    # Only a short verdict ask leans back; a question of its own does not.
    assert customer.reply(f"{plan} What's the depot address?").disclosed == []
    assert customer.reply(f"We run 12 vans. {verdict}").disclosed == []


def test_a_question_after_a_topic_lead_in_is_read_with_it(customer: ScriptedCustomer) -> None:
    reply = customer.reply("cream cakes on the long round: how long may they sit unchilled?")
    assert reply.disclosed == ["cream_chill_limit"]
    reply = customer.reply("cream cakes: is 2 hours outside ok?")
    assert reply.disclosed == ["cream_chill_limit"]


def test_an_abbreviation_dot_does_not_end_the_sentence() -> None:
    assert pieces("is 90 min incl. loading ok for cream?") == [
        "is 90 min incl. loading ok for cream?"
    ]
    assert pieces("Any rules for dairy, e.g. yoghurt? And nuts?") == [
        "Any rules for dairy, e.g. yoghurt?",
        "And nuts?",
    ]
