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

Where the judge reads a unit differently, it is because the two questions differ: the customer
must pick the one fact to answer, the judge only decides whether answering would reveal the
rule.

- What a unit compares the rule's subject with, or quotes, is named, not asked about ("better
  AUC, weaker KS than the 2019 scorecard - how weighed?", "87 % vs the 85 % baseline - good
  enough?", "the chillers take four, as the night shift confirms?", a pasted feature list
  "['bureau_score', 'dti', ...]"), like the measure it describes a thing by ("the floor pallet
  of a four-high stack"): its words do not veto a rule the rest of the unit asks for
  (``named_not_asked``). They still count towards what it asks, and a veto the ask itself
  names still holds.
- An ask about what the data holds, a file's mechanics or where a figure comes from ("how many
  ambient pallets are in the chillers right now?", "which tool does validation use?") gets
  background from the customer, never a rule (``customer_sim.intent.background_only``); the
  judge credits no rule to it either, and treats a question whether data exists as it is now
  ("are any chiller stacks four high right now?") the same way (``asks_what_exists``). Both
  stop applying when the ask also asks for a limit, a permission or a reason.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from customer_sim import context, intent
from customer_sim.patterns import AskPattern, Term, TermIndex, strength, tokens_of, touches
from customer_sim.segments import pieces
from judging.base import Unit


@lru_cache(maxsize=256)
def _index(pattern: AskPattern) -> TermIndex:
    return TermIndex(pattern.terms())


# The thing a unit compares with: "than X", "vs X", "compared to X" (X at most six words, up to
# the next clause), and the source it cites for what it assumes ("as the lanes file says",
# "according to the night shift").
_COMPARED_WITH = re.compile(
    r"\b(?:than|vs\.?|versus|compared (?:to|with)|in comparison (?:to|with))\s+"
    r"(?:(?!(?:and|or|but|so)\b)[^\s,;:?!\-\u2013\u2014]+\s*){1,6}"
    r"|\bas (?:the|our|your|their|his|her|my)\s+(?:[a-z_.]+\s+){0,4}?"
    r"(?:says?|said|shows?|showed|confirms?|confirmed|claims?|claimed|states?|stated|"
    r"suggests?|suggested|reports?|reported|lists?|listed|puts it|has it)\b"
    r"|\baccording to (?:the|our|your|their|his|her|my)?\s*(?:[^\s,;:?!]+\s*){1,4}",
    re.IGNORECASE,
)


# Quoted data: a bracketed list or object, a backticked span, a quoted identifier.
_QUOTED = re.compile(
    r"\[[^\]]{0,300}\]|\{[^}]{0,300}\}|`[^`]{1,80}`|'[a-z0-9_.]+'|\"[a-z0-9_.]+\"",
    re.IGNORECASE,
)


# A measure that describes the thing after it: "a four-high stack", "an 800-kg pallet".
_DESCRIBED_BY = re.compile(
    r"\b(?:[0-9]+(?:\.[0-9]+)?|one|two|three|four|five|six|seven|eight|nine|ten)-"
    r"(?:high|tier|tall|deep|level|storey|pallet|batch|sku|kg|kw|kwh|lb|day|week|month|year)"
    r"\s+(?=[a-z])",
    re.IGNORECASE,
)


def named_not_asked(text: str) -> str:
    """The unit without what it compares with, cites as a source, quotes as data or describes
    a thing by (see the module docstring)."""
    for named in (_COMPARED_WITH, _QUOTED, _DESCRIBED_BY):
        text = named.sub(" ", text)
    return text


# "Are there any ...", "Is any ...", "Do any ... have ...": whether something exists ...
_EXISTS = re.compile(
    r"^\W*(?:(?:and|so|also|but)\s+)?(?:are (?:there )?any|is there any|are there|is any|"
    r"do any|does any|has any|have any|how many)\b",
    re.IGNORECASE,
)
# ... in the data as it is now ...
_IN_THE_DATA = re.compile(
    r"\b(?:right now|currently|at the moment|at present|today|as of now|this morning|"
    r"in the (?:current |latest )?(?:file|data|export|extract|snapshot|csv|sheet|table)|"
    r"in [a-z0-9_]+\.(?:csv|json|xlsx?)|in (?:the )?(?:train|training|test) (?:set|data|file)|"
    r"current export)\b",
    re.IGNORECASE,
)
# ... unless it asks for a rule about it as well.
_RULE_ASK = re.compile(
    r"\b(?:can|could|may|might|must|should|shall|allow\w*|permit\w*|ok|okay|fine|limit\w*|"
    r"rules?|max\w*|min|cap|caps|restrict\w*|requirement\w*|constraint\w*|polic\w*|need\w*|"
    r"have to|has to|supposed|reason\w*|why|required|tolerance|threshold|checks?|tests?|"
    r"conditions?|terms|count as|counted as|considered|treat\w*|mean\w*|problem|issue|wrong)\b",
    re.IGNORECASE,
)


def asks_what_exists(text: str) -> bool:
    """Does the ask only ask whether (or how many) things exist in the data as it is now?"""
    return (
        bool(_EXISTS.search(text))
        and bool(_IN_THE_DATA.search(text))
        and not _RULE_ASK.search(text)
    )


def _vetoed(pattern: AskPattern, found: set[Term]) -> bool:
    return any(term in found for group in pattern.unless for term in group)


def asks_about_the_data(text: str) -> bool:
    """Does the ask ask about the data, a file or a figure's history rather than for a rule?"""
    return intent.background_only(text) or asks_what_exists(text)


def _fires(pattern: AskPattern, text: str) -> bool:
    aside = context.set_aside(text)
    index = _index(pattern)
    found = index.present(tokens_of(aside))
    if strength(pattern, found):
        return True
    if not _vetoed(pattern, found) or not strength(replace(pattern, unless=()), found):
        return False
    # Vetoed: does the veto come only from what the unit compares with or quotes?
    trimmed = named_not_asked(aside)
    return trimmed != aside and not _vetoed(pattern, index.present(tokens_of(trimmed)))


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
        credited = [
            hit and not asks_about_the_data(text) for hit, text in zip(decided, texts, strict=True)
        ]
        covering.extend(dict.fromkeys(o for o, hit in zip(owners, credited, strict=True) if hit))
    return covering
