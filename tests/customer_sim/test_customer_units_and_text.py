"""Question units (FDE-Bench A.3) and the text normaliser the matcher relies on."""

from __future__ import annotations

import pytest

from customer_sim.base import split_units
from customer_sim.text import content_stems, has_stem, raw_tokens, stem, within_one_edit


@pytest.mark.parametrize(
    ("message", "units"),
    [
        ("Are windows hard?", ["Are windows hard?"]),
        ("Please describe the cost model", ["Please describe the cost model"]),
        ("Hard windows? And the -R suffix?", ["Hard windows?", "And the -R suffix?"]),
        ("Is it hard? Thanks a lot.", ["Is it hard?"]),
        ("What?? Really?", ["What?", "Really?"]),
        ("  ", []),
        ("?", []),
        ("One?\n\n  Two?  ", ["One?", "Two?"]),
    ],
)
def test_split_units_cuts_after_every_question_mark(message: str, units: list[str]) -> None:
    assert split_units(message) == units


@pytest.mark.parametrize(
    ("words", "root"),
    [
        (["batch", "batches", "batched", "batching"], "batch"),
        (["charge", "charges", "charged", "charging"], "charg"),
        (["use", "used", "uses", "using"], "us"),
        (["stop", "stopped", "stopping"], "stop"),
        (["delivery", "deliveries"], "delivery"),
        (["bus", "buses"], "bus"),
        (["speed", "speeding"], "speed"),
    ],
)
def test_stem_brings_word_forms_together(words: list[str], root: str) -> None:
    assert {stem(word) for word in words} == {root}


def test_stem_leaves_short_and_vowelless_words_alone() -> None:
    assert [stem(w) for w in ("red", "bring", "status", "km", "140")] == [
        "red",
        "bring",
        "status",
        "km",
        "140",
    ]


def test_folding_expands_contractions_and_drops_function_words() -> None:
    assert raw_tokens("What's the van's capacity? Isn't it 140%") == [
        "what",
        "is",
        "the",
        "van",
        "capacity",
        "is",
        "not",
        "it",
        "140",
        "percent",
    ]
    assert content_stems("Café windows: what's the maximum?") == ["caf", "window", "max"]


def test_within_one_edit_accepts_one_typo_and_rejects_two() -> None:
    assert within_one_edit("capacity", "capcity")
    assert within_one_edit("window", "windw")
    assert within_one_edit("allergen", "allregen")
    assert within_one_edit("trays", "trsys")
    assert not within_one_edit("capacity", "cpcity")
    assert not within_one_edit("window", "widow s")


def test_has_stem_matches_prefixes_typos_and_phrases() -> None:
    tokens = raw_tokens("Do the refrigerated btaches need same day delivery?")
    assert has_stem(tokens, "refrigerat")
    assert has_stem(tokens, "batch")
    assert has_stem(tokens, "same day")
    assert not has_stem(tokens, "same sku")
    assert not has_stem(tokens, "nut")


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("net_weight 1,700 kg", ["net", "weight", "1700", "kg"]),
        ("a bill of 12,500.50 EUR", ["a", "bill", "of", "12500.50", "eur"]),
        ("1,700, then", ["1700", "then"]),
        # not thousands: a decimal comma, a list of tiers, a group of four digits
        ("0,925", ["0", "925"]),
        ("tiers 1,2,3", ["tiers", "1", "2", "3"]),
        ("1,7000", ["1", "7000"]),
    ],
)
def test_a_figure_with_thousands_separators_is_one_number(text: str, tokens: list[str]) -> None:
    assert raw_tokens(text) == tokens


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("the highest 15-min import", ["highest", "15", "minutes", "import"]),
        ("every 15min", ["every", "15", "minutes"]),
        ("the min SoC", ["min", "soc"]),
        ("at least 10 % min", ["at", "least", "10", "percent", "min"]),
    ],
)
def test_min_after_a_number_is_minutes_not_a_minimum(text: str, tokens: list[str]) -> None:
    from customer_sim.patterns import tokens_of

    assert tokens_of(text) == tokens


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("I'm going to stack four high", ["i", "am", "will", "stack", "four", "high"]),
        ("is that going to be a problem", ["is", "will", "be", "problem"]),
        ("the pallet is going to the top", ["pallet", "is", "going", "to", "top"]),
        ("going to lane A05", ["going", "to", "lane", "a05"]),
    ],
)
def test_going_to_before_a_verb_is_the_future_not_a_movement(text: str, tokens: list[str]) -> None:
    """ "I'm going to stack four high" says what the player will do; "go" in a rule's pattern
    (where a moved pallet goes) must not read it as a destination."""
    from customer_sim.patterns import tokens_of

    assert tokens_of(text) == tokens
