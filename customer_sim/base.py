"""The one interface every simulated-customer backend implements.

The site, the agent API and the benchmarks only ever talk to a ``Customer``: they pass the new
question and the run's earlier exchanges and get a ``Reply`` back. Keeping the backend behind
this seam is what lets a run switch between the offline scripted customer and an LLM customer
without the caller knowing which one answered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Exchange:
    """One earlier round of the dialogue, as the run recorded it."""

    question: str
    answer: str
    stakeholder_id: str = ""
    disclosed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Reply:
    """What a customer says back, plus the bookkeeping the run needs to record.

    ``disclosed`` holds the script fact keys released by this reply (always empty for backends
    that have no script); ``units`` the question units of the message (FDE-Bench A.3), so the
    clarification metrics count the same units the customer saw.
    """

    text: str
    stakeholder_id: str
    stakeholder_name: str
    stakeholder_role: str
    disclosed: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    contact_cost: float = 0.0
    exhausted: bool = False


class Customer(Protocol):
    """A simulated customer: answers one question given the dialogue so far."""

    def reply(self, question: str, history: Sequence[Exchange] = ()) -> Reply: ...


class CustomerUnavailable(Exception):
    """The customer cannot answer right now (a temporary backend failure).

    The message is shown to the player as is, so it never quotes hidden material, URLs or keys.
    Callers should let the player retry rather than count the round.
    """


_QUESTION_MARK = re.compile(r"\?")


def split_units(text: str) -> list[str]:
    """Split a message into question units the FDE-Bench way (A.3).

    The message is cut after every question mark; a message without one is a single unit.
    Empty pieces (e.g. "??" or trailing whitespace) are dropped, and the question mark stays
    with the unit it ends so a unit still reads as the question that was asked.
    """
    pieces: list[str] = []
    start = 0
    for mark in _QUESTION_MARK.finditer(text):
        pieces.append(text[start : mark.end()])
        start = mark.end()
    pieces.append(text[start:])
    units = [piece.strip() for piece in pieces]
    return [unit for unit in units if unit.strip("? \t\r\n")]
