"""Cutting a player's message into the asks a customer answers one by one.

A message may hold several questions, for several people ("Tobias: how is the bill made up?
And Aylin, is the 90 % round trip?"). The customer answers every ask, each by the person it is
addressed to (or, unaddressed, by the owner of what it asks), so it first cuts the message:

- at question marks and sentence ends (". ", "! ", "; ", line breaks): these are where one
  question stops and the next begins;
- inside a sentence only where a new question starts after "and"/"also"/"or" ("is the 90 %
  round trip and what should the battery hold at midnight"), never inside a phrase ("maximum
  charge and discharge power" stays whole, so a fragment cannot match a rule of its own).

An address at the start of a segment ("Aylin, ...", "@tobias", "question for finance: ...")
holds for the segments after it until another address appears.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from customer_sim.addressing import AddressBook

# Sentence ends, but not the dot of a list number ("1. Battery bounds").
_SENTENCE = re.compile(
    r"(?<=[?!;])\s+|(?<=[^0-9]\.)\s+|\n+"
    r"|(?<=:)\s+(?=(?:is|are|can|could|should|do|does|what|which|how|when)\b)",
    re.IGNORECASE,
)
# "and what ...", "and is ...": a conjunction followed by a word that opens a new question.
_QUESTION_START = (
    r"what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|"
    r"should|shall|may|might|must|will|would|has|have|any|anything|there"
)
_NEW_QUESTION = re.compile(
    rf",?\s+(?:and|also|plus|or)\s+(?:also\s+)?(?=(?:{_QUESTION_START})\b)", re.IGNORECASE
)
_MIN_WORDS = 2


@dataclass(frozen=True)
class Segment:
    """One ask of a message: its text (without the address) and whom it is addressed to."""

    text: str
    addressed: str | None


def segments(message: str, addresses: AddressBook) -> list[Segment]:
    """The message's asks in order, with the stakeholder each is addressed to (or None)."""
    result: list[Segment] = []
    current: str | None = None
    for piece in (p for whole in pieces(message) for p in addresses.handover.split(whole)):
        address = addresses.resolve(piece)
        if address.stakeholder_id is not None:
            current = address.stakeholder_id
        text = address.question.strip()
        if text:
            result.append(Segment(text=text, addressed=current))
    return result or [Segment(text=message.strip(), addressed=None)]


def pieces(message: str) -> list[str]:
    """The message cut at question and sentence ends and where a new question starts."""
    pieces: list[str] = []
    for sentence in _SENTENCE.split(message):
        parts = [p for p in _NEW_QUESTION.split(sentence) if p and p.strip()]
        if len(parts) > 1 and all(len(p.split()) >= _MIN_WORDS for p in parts):
            # Every part of a question stays a question ("can X, and can Y?" asks X too).
            asked = sentence.rstrip().endswith("?")
            pieces.extend(p if not asked or p.rstrip().endswith("?") else f"{p}?" for p in parts)
        elif sentence.strip():
            pieces.append(sentence)
    return pieces
