"""Coverage by ask pattern: the decision the scripted customer discloses by.

FDE-Bench A.3 asks of each unit whether answering it would reveal the requirement. A target
with a ``match`` pattern in ``gt.json`` already encodes that decision for the customer ("does
this ask name the rule's subject and the aspect it settles?"), so the offline judge applies the
same pattern to the same pieces of each unit (``customer_sim.segments.pieces``), and reads a
follow-up piece with the pieces before it in the same message by the customer's own rule
(``customer_sim.context``): "the net_weight column goes up to 1900. in kg?" asks for the unit
in its second question unit, read with the first. Sharing both is deliberate: a coverage page
that credits a question the customer did not answer, or misses one it did, would make Recall
and the transcript disagree.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from customer_sim import context
from customer_sim.patterns import AskPattern, TermIndex, strength, tokens_of, touches
from customer_sim.segments import pieces
from judging.base import Unit


@lru_cache(maxsize=256)
def _index(pattern: AskPattern) -> TermIndex:
    return TermIndex(pattern.terms())


def _fires(pattern: AskPattern, text: str) -> bool:
    return bool(strength(pattern, _index(pattern).present(tokens_of(context.set_aside(text)))))


def _touches(pattern: AskPattern, text: str) -> bool:
    return bool(touches(pattern, _index(pattern).present(tokens_of(context.set_aside(text)))))


def asks_for(pattern: AskPattern, text: str) -> bool:
    """Does one question unit ask for the rule (in any of its pieces, a piece read with the
    pieces before it in the unit when it leans on them)?"""
    return bool(covering_units(pattern, [Unit(index=0, turn=0, text=text)]))


def covering_units(pattern: AskPattern, units: Sequence[Unit]) -> list[int]:
    """Indices of the units that ask for the rule, in run order. The units of one turn are one
    message: a piece is read with the pieces before it there, never across messages."""
    covering: list[int] = []
    for _, turn_units in itertools.groupby(units, key=lambda unit: unit.turn):
        owners: list[int] = []
        texts: list[str] = []
        for unit in turn_units:
            for piece in pieces(unit.text):
                owners.append(unit.index)
                texts.append(piece)
        decided = context.credited(
            texts, lambda text: _fires(pattern, text), lambda text: _touches(pattern, text)
        )
        covering.extend(dict.fromkeys(o for o, hit in zip(owners, decided, strict=True) if hit))
    return covering
