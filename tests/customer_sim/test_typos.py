"""Typing slips put right before a message is read (``customer_sim.typos``), and what is never
touched: English words, British spellings, the case's own jargon, abbreviations and names.
Our own examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.scripted import ScriptedCustomer
from customer_sim.typos import Corrector

CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.fixture(scope="module")
def corrector() -> Corrector:
    return Corrector(["Divide the A rows by 12.", "The calibration check and the restack."])


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("whats the deadlien", "whats the deadline"),
        ("the evenig peak", "the evening peak"),
        ("divde by 12", "divide by 12"),
        ("is the tiem local", "is the time local"),
    ],
)
def test_a_slip_is_put_right(corrector: Corrector, typed: str, meant: str) -> None:
    assert corrector.fixed(typed) == meant


@pytest.mark.parametrize(
    "kept",
    [
        "the optimiser should colour it",  # British spellings
        "calib tolerance",  # the start of a case word
        "the restack tonight",  # a case word the list does not have
        "Maren and SKU-12 and max_dpd_12m",  # names, ids and columns
        "pd kwh avg",  # short jargon
        "good afternoon, I'm the new engineer",  # a rare word of the list, near no common one
        "the centre and the metres",  # British endings
    ],
)
def test_words_that_are_no_slip_are_left(corrector: Corrector, kept: str) -> None:
    assert corrector.fixed(kept) == kept


def test_a_slip_in_a_goodbye_or_deadline_no_longer_blocks_the_reading() -> None:
    customer = ScriptedCustomer.from_hidden_dir(CASES / "battery-dispatch" / "hidden")
    reply = customer.reply("whats the deadlien for the schedual?")
    assert reply.disclosed == []
    assert "workspace" in reply.text or "by then" in reply.text, reply.text


def test_a_greeting_is_not_spelled_into_a_slip() -> None:
    """The word "afternoon" has the word list's floor count and "aftrenoon" once read as its British
    form ("tre" for "ter" anywhere in a word), so "Good afternoon." became "Good aftrenoon."
    and the greeting went unheard."""
    customer = ScriptedCustomer.from_hidden_dir(CASES / "warehouse-restack" / "hidden")
    heard = customer.walk("Good afternoon. I'm the engineer on the floor restack.").dialogue
    assert heard.parts[0].text == "Good afternoon."
    assert heard.acts.courtesies[0] is not None


@pytest.mark.parametrize(
    ("folder", "typed"),
    [
        # a word the case defines in its glossary, not in any answer
        (CASES / "drafts" / "delivery-routing", "what does frigo mean?"),
        # a player-visible file's name: "schema" is no slip for "scheme"
        (CASES / "credit-default", "is the schema strict about extra columns?"),
    ],
)
def test_the_cases_defined_words_and_file_names_are_no_slips(folder: Path, typed: str) -> None:
    customer = ScriptedCustomer.from_hidden_dir(folder / "hidden")
    assert customer.case.typos.fixed(typed) == typed
