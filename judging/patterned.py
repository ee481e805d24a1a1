"""Coverage by ask pattern: the decision the scripted customer discloses by.

FDE-Bench A.3 asks of each unit whether answering it would reveal the requirement. A target
with a ``match`` pattern in ``gt.json`` already encodes that decision for the customer ("does
this ask name the rule's subject and the aspect it settles?"), so the offline judge applies the
same pattern to the same pieces of each unit (``customer_sim.segments.pieces``). Sharing it is
deliberate: a coverage page that credits a question the customer did not answer, or misses one
it did, would make Recall and the transcript disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from customer_sim.patterns import AskPattern, TermIndex, strength, tokens_of
from customer_sim.segments import pieces
from judging.base import Unit


@lru_cache(maxsize=256)
def _index(pattern: AskPattern) -> TermIndex:
    return TermIndex(pattern.terms())


def asks_for(pattern: AskPattern, text: str) -> bool:
    """Does one question unit ask for the rule (in any of its pieces)?"""
    index = _index(pattern)
    return any(strength(pattern, index.present(tokens_of(piece))) for piece in pieces(text))


def covering_units(pattern: AskPattern, units: Sequence[Unit]) -> list[int]:
    """Indices of the units that ask for the rule, in run order."""
    return [unit.index for unit in units if asks_for(pattern, unit.text)]
