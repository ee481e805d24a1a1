"""Sibling slots: the start of a day is not its end, and a pallet's weight is not a stack's height.

Rules come in siblings that share a subject and differ in the slot they settle: the battery's
level at the start of the day and the level it must be handed over with at the end; how high a
stack may be and where a heavy pallet may stand. A pattern written for one sibling fires on
the shared subject and a few loose words, so a question about the other slot can complete it:
the start-of-day level answers "what must the battery hold when the day ends?", the stack-height
rule answers "how heavy may a pallet on the third tier be?". That answer is confidently wrong.

Authors guard against it with vetoes (the sibling's slot words in ``unless``), but only for the
wordings they thought of. This module does it for every case, from the patterns themselves:

- an **axis** is a pair of slots with the words that name each (``AXES``: start / end of a
  period, weight / height);
- a fact whose pattern names only one slot of an axis (its terms have start words and no end
  words) is **one-sided** on it;
- an ask that names the other slot and not the fact's own is not asking for that fact: the
  fact is withheld, and the customer asks back which slot is meant.

An ask that names both slots ("finish at the level it started with") is left to the patterns.
Designed misconceptions are never withheld. The slot words are kept tight: a word with another
everyday sense ("close to", "high prices", "the PD level", "weigh the options") is not one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from customer_sim.patterns import AskPattern, Term


@dataclass(frozen=True)
class Slot:
    """One side of an axis: how the customer names it, and the words that name it."""

    label: str
    words: frozenset[str]
    # A slot word followed by one of these means something else ("it ends up above 800").
    not_before: frozenset[str] = frozenset()


def _slot(label: str, words: str, not_before: str = "") -> Slot:
    return Slot(label, frozenset(words.split()), frozenset(not_before.split()))


# Each axis is a pair of sibling slots. Words are folded tokens (``patterns.tokens_of``).
AXES: tuple[tuple[Slot, Slot], ...] = (
    (
        _slot(
            "the start",
            "start starts started starting begin begins began beginning initial initially opening",
            not_before="to",
        ),
        _slot(
            "the end",
            "end ends ended ending finish finishes finished finishing closing handover terminal",
            not_before="up",
        ),
    ),
    (
        _slot(
            "the weight",
            "weight weights heavy heavier heaviest kg kgs kilo kilos kilogram kilograms lb lbs "
            "pound pounds tonne tonnes",
        ),
        _slot("the height", "height heights tall taller tier tiers"),
    ),
)


@dataclass(frozen=True)
class OneSided:
    """A pattern names ``own`` and never ``other``."""

    own: Slot
    other: Slot


def one_sided(pattern: AskPattern) -> tuple[OneSided, ...]:
    """The axes on which a pattern's asks name one slot only."""
    terms = [term for alternative in pattern.asks for group in alternative for term in group]
    found: list[OneSided] = []
    for first, second in AXES:
        has_first, has_second = _names(terms, first), _names(terms, second)
        if has_first and not has_second:
            found.append(OneSided(first, second))
        elif has_second and not has_first:
            found.append(OneSided(second, first))
    return tuple(found)


def _names(terms: Iterable[Term], slot: Slot) -> bool:
    """Does any term word name the slot (a prefix term ``finish*`` names "finishing")?"""
    for term in terms:
        last = len(term.words) - 1
        for index, word in enumerate(term.words):
            if word in slot.words:
                return True
            if term.prefix and index == last and any(w.startswith(word) for w in slot.words):
                return True
    return False


def other_slot(sides: Iterable[OneSided], tokens: Sequence[str]) -> OneSided | None:
    """The first axis on which the ask names only the slot the fact does not."""
    for side in sides:
        if _said(side.other, tokens) and not _said(side.own, tokens):
            return side
    return None


def _said(slot: Slot, tokens: Sequence[str]) -> bool:
    """Does the ask name the slot? A slot word used as a verb of doing ("starts missing
    payments", "starts to bite", "finish charging") names an action, not the slot."""
    for index, token in enumerate(tokens):
        if token not in slot.words:
            continue
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if after in slot.not_before or (len(after) > 4 and after.endswith("ing")):
            continue
        return True
    return False


__all__ = ["AXES", "OneSided", "Slot", "one_sided", "other_slot"]
