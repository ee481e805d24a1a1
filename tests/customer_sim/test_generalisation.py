"""Mechanisms that generalise beyond any one writer's wording, pinned with questions of our
own on a small fixture case (``tests/fixtures/customer/archive-move``): a near miss that asks
what the data holds, how to read a file or where a figure comes from reveals no rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim import intent
from customer_sim.scripted import ScriptedCustomer
from customer_sim.text import raw_tokens

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "customer" / "archive-move" / "hidden"


def customer() -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(FIXTURE)


@pytest.mark.parametrize(
    "question",
    [
        "How many heavy boxes are sitting on the top shelves right now?",
        "roughly how many 25 kg cartons are on the upper levels in the file",
        "Are there heavy boxes in the export on the upper levels?",
        "Was the 25 kg weight of the top-shelf crates measured by the movers or estimated?",
        "Is that the right way to read the shelf file? Top level, 22 kg.",
        "Which tool did you use to weigh the boxes on the top shelf?",
        "What caused all those heavy boxes to end up on the top shelf?",
        "Why were the 25 kg crates put on the upper levels in the first place?",
    ],
)
def test_an_ask_about_the_data_reveals_no_rule(question: str) -> None:
    reply = customer().reply(question)
    assert "heavy_boxes_low" not in reply.disclosed  # background facts may answer
    assert reply.text  # background, not silence


@pytest.mark.parametrize(
    "question",
    [
        "Can a 25 kg box go on the top shelf?",
        "How many heavy boxes may stand on the top shelf?",
        "Is there any weight limit for boxes on the upper levels?",
        "Are there rules in the file for heavy boxes on the top shelf?",
    ],
)
def test_the_same_subject_asked_as_a_rule_still_gets_it(question: str) -> None:
    assert customer().reply(question).disclosed == ["heavy_boxes_low"]


def test_a_data_ask_is_told_the_files_answer_it_without_denying_a_rule() -> None:
    text = customer().reply("How many heavy boxes are on the top shelves right now?").text
    assert "heavy boxes" in text.lower()
    assert "nothing special" not in text and "no rule" not in text


def test_background_only_reads_the_form_of_the_ask() -> None:
    assert intent.background_only("How many rows are in the extract?")
    assert intent.background_only("Could you tell me how many accounts are in the file?")
    assert not intent.background_only("How many pallets can go on one stack?")
    assert not intent.background_only("Is there anything in the data I should correct for?")
    assert not intent.background_only("How should I read the tier numbers?")


def test_a_files_history_a_lookup_or_a_request_for_an_example_is_background() -> None:
    # when a file was last made or changed
    assert intent.background_only("When was the shelf list last revised?")
    assert intent.background_only("so when were the box weights exported?")
    assert not intent.background_only("When are the boxes moved?")
    # which things the data holds now; not which may be handled
    assert intent.background_only("Which boxes are on the top shelf right now?")
    assert intent.background_only("What crates sit in room 4 in the current export?")
    assert intent.background_only(
        "Are there any light crates still waiting on the top shelf in this morning's export?"
    )
    assert not intent.background_only("Are there any limits on top-shelf crates in the export?")
    assert not intent.background_only("Which boxes are liftable right now?")
    assert not intent.background_only("Which unit is the weight in the file - kg?")
    assert not intent.background_only("Which boxes may go on the top shelf?")
    # asking to see an example is no rule question, asking whether one may is
    assert intent.background_only("Can I see a sample of a finished box list?")
    assert intent.background_only("Could we get an example of a good plan?")
    assert not intent.background_only("Can I put the heavy boxes on the top shelf?")
    # whether something has ever happened is history
    assert intent.background_only("Has a box ever fallen off the top shelf here?")
    assert not intent.background_only("Have you ever allowed boxes on the top shelf?")
    # what the data holds right now, even phrased with a limit; a past reading
    assert intent.background_only("Which shelves are currently at their max load?")
    assert not intent.background_only("Which boxes are allowed on the top shelf right now?")
    assert intent.background_only("What was the peak load on 3 June?")
    assert not intent.background_only("What is the max load per shelf?")
    # "May" the month is no permission: a past reading in May is history
    assert intent.background_only("What was the peak load in May?")
    assert intent.background_only("What was the peak load on 3 May?")
    assert not intent.background_only("May I put heavy boxes on the top shelf?")
    # who does something is a person, not a rule
    assert intent.background_only("Who at the depot checks the box lists each week?")
    assert not intent.background_only("Who decides? Can heavy boxes go on the top shelf?")
    # whom to ask, who keeps a document, who gets called: a person, after a lead clause too
    assert intent.background_only("For questions about the scales, who is the best contact?")
    assert intent.background_only("Who holds the signed supplier contract - the office or you?")
    assert intent.background_only("If the oven breaks at night, is it Sam who gets called?")
    assert not intent.background_only("Who should I ask? May heavy boxes go on the top shelf?")


def test_an_amount_of_a_resource_or_a_unit_is_a_rule_question_not_a_data_count() -> None:
    """ "How many hours do we have" asks for a budget (a rule settles it), and which currency
    a column is in is a unit question, often the very rule (pence vs pounds, lb vs kg)."""
    assert not intent.background_only("How many hours of oven time do we have?")
    assert not intent.background_only("how much time do we have on the line tomorrow?")
    assert not intent.background_only("What currency are the prices in?")
    assert intent.background_only("How many trucks do we have in the file?")
    assert intent.background_only("What precision is the probability column in?")
    # a column's storage format is the file's mechanics, like its precision
    assert intent.background_only("Is the loan balance kept to the cent?")
    assert intent.background_only("Is customer_ref stored as a string or an integer?")
    assert intent.background_only("What's the date format in the orders file?")
    assert not intent.background_only("Can I store the weights as integers?")
    assert not intent.background_only(
        "Lena quoted a loss rate of one in five. Is that how you count?"
    )


# A side answer never stands in for a rule's answer: a background fact fired by a few
# incidental words of a question that is mostly about a rule's subject is withheld, and the
# customer asks back which is meant.


def test_a_side_fact_grazed_by_a_rule_question_is_withheld_and_asked_back() -> None:
    question = (
        "Moving the heavy carton boxes and crates: the lift can take them, but where in the "
        "racks should heavy boxes weighing 25 kg be stored?"
    )
    reply = customer().reply(question)
    assert reply.disclosed == []  # neither the lift's "any box is fine" nor a guess at the rule
    assert "the goods lift" in reply.text and "?" in reply.text
    assert "300 kg" not in reply.text and "fine" not in reply.text


def test_the_side_fact_asked_for_itself_is_still_answered() -> None:
    assert customer().reply("The lift can take the boxes, right?").disclosed == ["lift_capacity"]
    assert customer().reply("How much can the lift take per trip?").disclosed == ["lift_capacity"]


@pytest.mark.parametrize(
    ("question", "fact", "sibling"),
    [
        ("What temperature is the room at opening?", "room_warm_at_open", "room_cool_at_close"),
        ("how warm is it when the doors open", "room_warm_at_open", "room_cool_at_close"),
        (
            "What temperature do you need in the room at closing time?",
            "room_cool_at_close",
            "room_warm_at_open",
        ),
        ("temp at the end of the day?", "room_cool_at_close", "room_warm_at_open"),
    ],
)
def test_a_sibling_question_gets_the_sibling_asked_never_the_other(
    question: str, fact: str, sibling: str
) -> None:
    disclosed = customer().reply(question).disclosed
    assert fact in disclosed and sibling not in disclosed


def test_a_question_naming_neither_sibling_is_asked_back() -> None:
    reply = customer().reply("What temperature should the reading room be?")
    assert reply.disclosed == []
    assert "reading room" in reply.text.lower() and "?" in reply.text


def test_a_rule_grazed_by_a_question_a_background_fact_answers_is_withheld() -> None:
    # The question asks where the weights come from; "top shelf" is incidental to it.
    question = (
        "Is the weight in the list the movers scale reading or an estimate, for the top shelf box?"
    )
    assert customer().reply(question).disclosed == ["weights_from_scale"]


def test_a_question_that_asks_the_rule_with_the_background_gets_both() -> None:
    question = "Does the scale weight in the list decide whether a box may go on the top shelf?"
    assert set(customer().reply(question).disclosed) == {"heavy_boxes_low", "weights_from_scale"}


def test_a_pronoun_names_the_rule_subject_only_in_a_short_follow_up() -> None:
    assert customer().reply("At closing, what level must it be?").disclosed == [
        "room_cool_at_close"
    ]
    # In a longer ask "it" is one of the things the ask names itself (the floor polish).
    long_ask = "At closing, what level must it be at for the cleaners floor polish to set properly?"
    assert customer().reply(long_ask).disclosed == []


def test_chat_shorthand_reads_as_the_words_it_stands_for() -> None:
    assert raw_tokens("can u calc the avg for tmrw pls") == [
        "can",
        "you",
        "calculate",
        "the",
        "average",
        "for",
        "tomorrow",
        "please",
    ]
    assert customer().reply("temp at close tmrw?").disclosed == ["room_cool_at_close"]


CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.mark.parametrize(
    ("slug", "question", "fact"),
    [
        # What a column holds is a rule question when the rule is about that column.
        ("warehouse-restack", "Does net_weight include the pallet?", "heavy_gross_weight"),
        ("warehouse-restack", "how many kg does a CHEP base add?", "heavy_gross_weight"),
        (
            "battery-dispatch",
            "How many kWh can I actually use out of the 1000?",
            "soc_warranty_window",
        ),
    ],
)
def test_the_data_discipline_leaves_data_semantics_rules_alone(
    slug: str, question: str, fact: str
) -> None:
    reply = ScriptedCustomer.from_hidden_dir(CASES / slug / "hidden").reply(question)
    assert fact in reply.disclosed
