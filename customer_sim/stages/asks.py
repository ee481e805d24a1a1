"""Stage 2, asks: which pieces of the message ask something, and which may ask for facts.

Only a piece that asks gets a non-answer when nothing matches it; the statements and context
sentences around a real question get none (they are read with it in stage 3 instead). A piece
asks when it has a question mark or opens like a question (a question word, "please confirm",
"I need to know", after fillers such as "ok", "um", a list marker, or a preposition before the
question word: "by when ...", "in which lane ..."), or when it asks for something outright
(``customer_sim.segments.asks_for``). Code is never an ask.

- The items of a list after an asking lead-in ("Please confirm:\n1. ...\n2. ...", "three
  questions: (1) ..., (2) ...", "Could you tick these off?") ask too, and so does every terse
  item of a list once one of its items asks.
- A message with no question at all is one ask as a whole, unless it opens by taking the last
  answer in ("ah ok, that explains the high bad rate"): that is a remark (``is_remark``); or
  it ends on a goodbye or a thank-you ("Will send it before midnight. Bye!"): that is news
  and a farewell.
- A piece without a question form may still be matched for facts (it is *eligible*) when it
  asks in the middle ("net_weight is that kg or lbs", "not sure whether the chillers take
  four"); a plain statement ("the export shows 61.8 %") is context and is not matched alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from customer_sim import acts
from customer_sim.segments import PREPOSED_WH_WORDS, PREPOSITIONS, Segment, asks_for, is_code
from customer_sim.stages.dialogue import Heard

# A bullet or list number in front of a line ("- can I ...", "(2) how high ...", "b. is ...").
_ITEM_MARKER = r"(?:[-*\u2022]|\(?[0-9a-z]{1,2}[.)])\s+"
QUESTION_FORM = re.compile(
    rf"\?|^\s*(?:{_ITEM_MARKER})?"
    r"(?:(?:and|so|or|but|also|then|plus|ok|okay|um+|uh+|erm*|hm+|well|hi|hey|right)\b[,\s]*)*"
    # a question word may follow a preposition ("by when ...", "in which lane ...")
    rf"(?:(?:{PREPOSITIONS})\s+(?=(?:{PREPOSED_WH_WORDS})\b))?"
    r"(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|"
    r"could|should|shall|may|might|must|will|would|has|have|any|tell|explain|confirm|clarify|"
    r"please|let me know|i need to know|i'?d like to know|i want to know)\b"
    r"|\b(?:please (?:confirm|clarify|advise|explain|tell)|(?:confirm|clarify|check) (?:whether|if)"
    r")\b"
    r"|\b(?:wondering|want to know|need to know|not sure|unclear|confused)\b",
    re.IGNORECASE,
)

_EMBEDDED_ASK = re.compile(
    r"\b(?:or|vs|versus|whether|which|what|how|is there|are there|anything|do i|do we|should i|"
    r"should we|can i|can we|need to|"
    r"have to|wondering|not sure|unclear|confirm|clarify|tell me|let me know)\b",
    re.IGNORECASE,
)

_WEIGHS_ALTERNATIVES = re.compile(
    r"\b(?:\w+ or \w+ (?:too|as well|also|then)|only or|or (?:not|also|both|just|only|too)|vs\.?|"
    r"versus|whether)\b",
    re.IGNORECASE,
)

_LIST_LEAD = re.compile(
    r"\b(?:questions?|queries|query|checks?|look-?ups?|points|things|ones|clarif\w*|confirm\w*)\b",
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(rf"^\s*{_ITEM_MARKER}")
# A question about a list after it ("Could you tick these off?", "Are the following right?").
_POINTS_FORWARD = re.compile(
    r"\b(?:these|the following|below|this list|my list|the list|tick|check(?:list)?)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Asks:
    """What stage 2 hands on, about ``heard.pieces``: the indexes that ask (``asking``; all of
    them when none does), those that may be matched (``eligible``), whether any piece asks in
    its own right (``asks_anything``) and whether any has a question's form."""

    heard: Heard
    asking: frozenset[int]
    eligible: frozenset[int]
    asks_anything: bool
    question_form: bool

    @property
    def pieces(self) -> list[Segment]:
        return self.heard.pieces


def find(heard: Heard) -> Asks:
    pieces = heard.pieces
    asked = asking(pieces)
    # "k. and mixed means diff sku only or diff batch too": after an "ok", a piece that weighs
    # two readings against each other asks which one holds, question mark or not.
    asks_anything = bool(asking(pieces, whole_if_none=False)) or any(
        _WEIGHS_ALTERNATIVES.search(piece.text) and not is_code(piece.text) for piece in pieces
    )
    if _signs_off(heard) and not any("?" in piece.text for piece in pieces):
        asked, asks_anything = set(), False  # "Will send it before midnight. Bye!": news
    return Asks(
        heard=heard,
        asking=frozenset(asked),
        eligible=frozenset(eligible(pieces, asked)),
        asks_anything=asks_anything,
        question_form=any(QUESTION_FORM.search(part.text) for part in pieces),
    )


def _signs_off(heard: Heard) -> bool:
    """Does the message end on a goodbye or a thank-you? Its statements before that are the
    player's own news ("I'll send it tonight"), not a question the whole message asks."""
    kinds = [kind for kind in heard.acts.courtesies if kind is not None]
    last = heard.acts.courtesies[-1] if heard.acts.courtesies else None
    return bool(kinds) and last in (acts.FAREWELL, acts.THANKS)


def eligible(parts: list[Segment], asked: set[int]) -> set[int]:
    """The pieces matched for facts: those that ask, and those that ask in passing."""
    return {
        index
        for index, part in enumerate(parts)
        if index in asked or (not is_code(part.text) and bool(_EMBEDDED_ASK.search(part.text)))
    }


def asking(parts: list[Segment], *, whole_if_none: bool = True) -> set[int]:
    """The pieces that ask something (see the module docstring)."""
    asked = {
        index
        for index, part in enumerate(parts)
        if not is_code(part.text) and (QUESTION_FORM.search(part.text) or asks_for(part.text))
    }
    for index, part in enumerate(parts):
        lead_in = index in asked or _LIST_LEAD.search(part.text)
        forward = part.text.rstrip().endswith("?") and _POINTS_FORWARD.search(part.text)
        if lead_in and (part.text.rstrip().endswith(":") or forward):
            following = range(index + 1, len(parts))
            asked.update(i for i in following if _LIST_ITEM.match(parts[i].text))
    # "1) weight unit of net_weight 2) tare per pallet_type 3) who signs off the list": the
    # terse items of a list are asks once one of them asks.
    items = {i for i, part in enumerate(parts) if _LIST_ITEM.match(part.text)}
    if items & asked:
        asked |= {i for i in items if not parts[i].text.rstrip().endswith(".")}
    if not asked and parts and is_remark(parts[0].text):
        return set()
    return asked or (set(range(len(parts))) if whole_if_none else set())


# "ah ok, that explains the high bad rate", "oh right, makes sense then": an acknowledgement
# with a remark of the player's own. No question form, and it opens by taking the last answer
# in, so it is not a terse ask ("ok and the heavy ones" is, by its "and").
_ACK_OPENING = re.compile(
    r"^\s*(?:(?:ah+|oh+|ahh+|ooh+)[, ]+)?(?:ah+|oh+|ok(?:ay)?|right|i see|got it|makes sense|"
    r"good to know|interesting|cool|great|perfect|fair enough|understood|noted|wow|gotcha|"
    r"that makes sense)\b[,.!\s-]+(?P<rest>.*)$",
    re.IGNORECASE,
)
_FOLLOWS_ON = re.compile(
    r"^(?:and|also|plus|but|so|then|what about|how about|same for|what if)\b", re.IGNORECASE
)


def is_remark(text: str) -> bool:
    """Is ``text`` an acknowledgement followed by a remark (see above), never an ask?"""
    found = _ACK_OPENING.match(text)
    if found is None:
        return False
    rest = found.group("rest").strip()
    return len(rest.split()) >= 4 and not _FOLLOWS_ON.match(rest)
