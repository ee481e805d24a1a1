"""Column names quoted in an ask (``customer_sim.names``), pinned with questions of our own on
the archive-move fixture: a name counts as one word, and a name the ask is about decides what
it asks, so a part of ``lift_weight`` or a question about what ``box_list_total`` holds never
gets a fact about something else."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.names import filter_names, name_asked_about, names_in
from customer_sim.patterns import tokens_of
from customer_sim.scripted import ScriptedCustomer

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "customer" / "archive-move" / "hidden"


def customer() -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(FIXTURE)


def _names(text: str) -> list[list[str]]:
    tokens = tokens_of(text)
    return [[tokens[i] for i in sorted(name)] for name in names_in(text, tokens)]


def test_a_name_is_found_with_its_word_parts() -> None:
    assert _names("Does box_list_total include the crates?") == [["box", "list", "total"]]
    # a unit or qualifier part is not one the name must be matched by
    assert _names("Is heavy_box_flag set?") == [["heavy", "box"]]
    assert _names("what is in room_temperature_log_c") == [["room", "temperature", "log"]]
    # a rate's unit after "per" is a qualifier too
    assert _names("Is rent_per_room_month in euros?") == []
    assert _names("is box_weight_per_crate right?") == [["box", "weight"]]


def test_plain_words_and_code_attributes_are_not_names() -> None:
    assert _names("Can the heavy boxes go on the top shelf?") == []
    assert _names("ratio = df.shelf_load / df.box_count") == []
    # a name with one word part left is just that word
    assert _names("Is weight_kg in kilograms?") == []


def test_the_name_an_ask_is_about_is_the_first_thing_it_names() -> None:
    text = "Does box_list_total include the heavy boxes?"
    tokens = tokens_of(text)
    about = name_asked_about(tokens, names_in(text, tokens))
    assert about is not None and {tokens[i] for i in about} == {"box", "list", "total"}
    later = "Can heavy boxes go where shelf_level_max allows?"
    tokens = tokens_of(later)
    assert name_asked_about(tokens, names_in(later, tokens)) is None


def test_a_name_that_picks_rows_by_a_value_is_a_filter_not_the_subject() -> None:
    def filters(text: str) -> list[list[str]]:
        tokens = tokens_of(text)
        return [[tokens[i] for i in sorted(name)] for name in filter_names(text, tokens)]

    assert filters("Can box_type HEAVY boxes go on the top shelf?") == [["box", "type"]]
    assert filters("may shelf_zone = COLD crates stay in the van?") == [["shelf", "zone"]]
    # the column itself asked about, or a value with nothing it qualifies
    assert filters("Does box_list_total include the crates?") == []
    assert filters("Is box_type HEAVY?") == []


@pytest.mark.parametrize(
    "question",
    [
        "Does box_list_total include the heavy boxes on the top shelf?",
        "does box_list_total count the 25 kg crates on the upper levels or not",
        "Is heavy_box_flag set for boxes over 20 kg on the top shelf?",
    ],
)
def test_an_ask_about_what_a_column_holds_gets_no_rule(question: str) -> None:
    reply = customer().reply(question)
    assert reply.disclosed == []
    assert reply.text


@pytest.mark.parametrize(
    "question",
    [
        "Can the heavy boxes go on the top shelf?",
        "Does the box list total include the heavy boxes on the top shelf?",
        "What does top_shelf_weight_kg mean for heavy boxes?",
    ],
)
def test_the_rule_is_still_answered_when_asked(question: str) -> None:
    assert customer().reply(question).disclosed == ["heavy_boxes_low"]


def test_part_of_a_name_does_not_fire_a_fact_about_that_word() -> None:
    # "weight" of lift_weight is the lift's, not the box list's weights
    assert (
        customer().reply("Where does the lift_weight figure come from - the movers?").disclosed
        == []
    )
    assert customer().reply("Where do the box weights come from - the movers?").disclosed == [
        "weights_from_scale"
    ]
