from __future__ import annotations

from judging.text import acronyms, ask_kind, concepts, content_stems, expanded_stems, stem


def test_inflections_and_spelling_variants_meet() -> None:
    assert stem("charges") == stem("charged") == stem("charging")
    assert content_stems("What's the timezone?") == content_stems("what is the time zone")
    assert content_stems("Is it 1,700 lbs?") == ["1700", "pound"]


def test_a_column_name_is_one_token() -> None:
    assert content_stems("Is max_dpd_12m the label?") == ["max_dpd_12m", "label"]


def test_acronyms_the_texts_spell_out_are_expanded() -> None:
    table = acronyms(["The SoC must stay in range.", "What state of charge is allowed?"])
    assert table == {"soc": ("stat", "charg")}
    assert expanded_stems("min soc?", table) == ["min", "stat", "charg"]


def test_a_word_can_belong_to_several_concepts() -> None:
    assert {"~meaning", "~average"} <= set(concepts(stem("mean")))


def test_questions_for_a_person_place_or_document_are_recognised() -> None:
    assert ask_kind("Who downloads the prices?") == "person"
    assert ask_kind("And where is the depot?") == "place"
    assert ask_kind("Could you send me the June invoice?") == "document"
    assert ask_kind("Is there anyone who knows the rule?") is None
