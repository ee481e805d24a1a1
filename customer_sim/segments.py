"""Cutting a player's message into the asks a customer answers one by one.

A message may hold several questions, for several people ("Tobias: how is the bill made up?
And Aylin, is the 90 % round trip?"). The customer answers every ask, each by the person it is
addressed to (or, unaddressed, by the owner of what it asks), so it first cuts the message:

- at question marks and sentence ends (". ", "! ", "; ", line breaks): these are where one
  question stops and the next begins; a sentence may end in a whole number ("the file says
  4. Can I trust it?") but not in a list number;
- after a lead-in's colon when a question word or a list marker follows ("Two things for
  Aisha: may I ...", "Checks: (1) is ..."): the lead-in's own words ask nothing, and an item
  that ends in ";" or "." still asks when a question word opens it (after its marker, or
  after a preposition: "by when ...") or it follows an imperative ask ("Please confirm X and
  which Y.");
- inside a sentence only where a new question starts after "and"/"also"/"or" ("is the 90 %
  round trip and what should the battery hold at midnight"), never inside a phrase ("maximum
  charge and discharge power" stays whole, so a fragment cannot match a rule of its own), and
  never inside a statement ("the column is filled in train and is empty in test." is context);
- at the markers of a list written on one line ("1. when was X, 2. is Y ..." or "(i) what is
  X, (ii) does Y ..."), when the markers count from the first item;
- after a question that opens with a question word, where a comma opens another ("is X filled
  late, was Y sampled, and are Z in EUR?"); a comma after a condition ("if I do X, is that
  ok?") does not cut, since "if ..." is no question of its own;
- around a fenced code block (three backticks): the block is one piece, never cut at its lines
  or its question marks, and it stays fenced so the customer reads it as context
  (``is_code``), the way it reads a statement.

An address at the start of a segment ("Aylin, ...", "@tobias", "question for finance: ...")
holds for the segments after it until another address appears.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from customer_sim import acts
from customer_sim.addressing import AddressBook

# Sentence ends, but not the dot of a list number ("1. Battery bounds") or of an abbreviation
# inside a sentence ("800 kg incl. the base?", "e.g. the chillers").
_ABBREVIATION = (
    r"(?<!\bincl\.)(?<!\bexcl\.)(?<!\bapprox\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)"
    r"(?<!\bresp\.)(?<!\besp\.)(?<!\bca\.)(?<!\bcf\.)(?<!\bno\.)(?<!\bnr\.)"
)
# A sentence that ends in a decimal figure ("the average PD is about 0.25. Is there ..."): a
# list number has no decimals, so the dot ends the sentence when a capital letter follows.
_DECIMAL_END = (
    r"(?:(?<=[0-9][.,][0-9]\.)|(?<=[0-9][.,][0-9][0-9]\.)|(?<=[0-9][.,][0-9][0-9][0-9]\.))"
    r"\s+(?=(?-i:[A-Z]))"
)
# After a lead-in ("Two things for Aisha: may I ...", "Checks: (1) is ..."), a question word or
# a list marker starts the first question; "any"/"there" may as well continue a statement.
_LEAD_IN_QUESTION = (
    r"is|are|am|was|were|can|could|should|shall|may|might|must|will|would|do|does|did|has|"
    r"have|what|which|who|whom|whose|when|where|why|how|whether"
)
# A list item's number or letter: "2", "iv", "b".
_ITEM_LABEL = r"(?:[0-9]{1,2}|[ivx]{1,4}|[a-h])"
_LIST_MARKER = rf"(?:\({_ITEM_LABEL}\)|{_ITEM_LABEL}\)|[0-9]{{1,2}}\.)\s"
# A sentence that ends in a whole number ("the file says 4. Can I trust it?"): after a word,
# not a list number, when a capitalised question word follows.
_NUMBER_END = (
    r"(?:(?<=[a-z]\s[0-9]\.)|(?<=[a-z]\s[0-9][0-9]\.)|(?<=[a-z]\s[0-9][0-9][0-9]\.)"
    r"|(?<=[a-z]\s[0-9][0-9][0-9][0-9]\.))"
    rf"\s+(?=(?-i:[A-Z]))(?=(?:{_LEAD_IN_QUESTION})\b)"
)
_SENTENCE = re.compile(
    rf"(?<=[?!;])\s+|(?<=[^0-9]\.){_ABBREVIATION}\s+|\n+|{_DECIMAL_END}|{_NUMBER_END}"
    rf"|(?<=:)\s+(?=(?:{_LEAD_IN_QUESTION})\b|{_LIST_MARKER})",
    re.IGNORECASE,
)
# "and what ...", "and is ...": a conjunction followed by a word that opens a new question.
_QUESTION_START = (
    r"what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|"
    r"should|shall|may|might|must|will|would|has|have|any|anything|there"
)
# An adverb may stand between ("and exactly which ...", "and finally is ..."), and "whether"
# opens an indirect question ("..., and whether X").
_NEW_QUESTION = re.compile(
    r",?\s+(?:and|also|plus|or)\s+"
    r"(?:(?:also|exactly|then|finally|lastly|second|secondly|third|thirdly|additionally)\s+)?"
    rf"(?=(?:{_QUESTION_START}|whether)\b)"
    # ", and let me know whether ...": an imperative ask is a new question too (only after a
    # comma, so "explain and confirm the rule" stays whole)
    r"|,\s+(?:and|also|plus)\s+(?=(?:please\s+)?(?:confirm|clarify|explain|tell me|let me know)\b)",
    re.IGNORECASE,
)
# A sentence that asks without a question mark: an imperative ask ("Please confirm X and which
# Y.") or a lead-in naming its asks ("Two data checks: X, and which Y.").
_ASKS_FOR = re.compile(
    r"^\s*(?:(?:please|pls|kindly)\s+)?(?:confirm|clarify|explain|tell me|let me know|"
    r"i need to know|i'?d like to know|i want to know|need to know)\b"
    r"|^[^:?]{0,60}\b(?:checks?|questions?|points|things|items|queries|clarifications?)\b"
    r"[^:?]{0,30}:\s",
    re.IGNORECASE,
)
_MIN_WORDS = 2
# ", and that ...": the next proposition of a list of assumptions or claims.
# ", then ...": the next step of a plan told as a statement (not the "then" of "if ...").
_THEN_STEP = re.compile(r",\s+(?:and\s+)?then\s+(?=[a-z])", re.IGNORECASE)
_PLAN = re.compile(
    r"^\s*(?:if|when|whenever|once|after|before|as soon as)\b|.*[?]\s*$", re.IGNORECASE
)
_AND_THAT = re.compile(r"[,;]\s+and\s+that\s+(?!is\b|was\b|one\b|s\b|'s\b)", re.IGNORECASE)
# A list item marker inside a line: "1. ", "2) ", "(3) ", "(ii) ", "b) ", after the start of the
# line or a space (the list count is checked in ``_list_items``).
_INLINE_ITEM = re.compile(
    r"(?:^|(?<=\s))(?:\((?P<a>[0-9]{1,2}|[ivx]{1,4}|[a-h])\)|(?P<b>[0-9]{1,2}|[ivx]{1,4}|[a-h])\)"
    r"|(?P<c>[0-9]{1,2})\.)\s+",
    re.IGNORECASE,
)
_FIRST_ITEMS = ({"1", "i", "a"}, {"2", "ii", "b"})
# A question word after a preposition ("by when ...", "in which lane ...", "for how long ...").
PREPOSITIONS = r"by|until|till|from|to|in|at|for|on|with|under"
PREPOSED_WH_WORDS = r"when|what|which|whom|whose|how"
_PREPOSED_WH = rf"(?:{PREPOSITIONS})\s+(?:{PREPOSED_WH_WORDS})"
# A list marker or bullet in front ("(2) how high ...", "b) is ...", "- can I ...").
_MARKER = rf"(?:[-*\u2022]\s+|\(?{_ITEM_LABEL}[).]\s+)"
_OPENS_QUESTION = re.compile(
    rf"^\s*{_MARKER}?(?:(?:and|so|or|but|also|then|plus|ok|okay|please)\b[,\s]*)?"
    rf"(?:{_QUESTION_START}|{_PREPOSED_WH})\b",
    re.IGNORECASE,
)
# ", was the file sampled", ", whether X": a comma followed by a word that opens a question (not
# "any"/"there", which also continue a statement).
_COMMA_QUESTION = re.compile(
    r",\s+(?=(?:what|which|who|when|where|why|how|is|are|was|were|do|does|did|can|could|"
    r"should|will|would|has|have|whether)\b)",
    re.IGNORECASE,
)


# A fenced code block ("```" ... "```", or to the end of a message left unclosed).
_FENCE = "```"
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)


@dataclass(frozen=True)
class Segment:
    """One ask of a message: its text (without the address) and whom it is addressed to."""

    text: str
    addressed: str | None


def segments(message: str, addresses: AddressBook) -> list[Segment]:
    """The message's asks in order, with the stakeholder each is addressed to (or None)."""
    result: list[Segment] = []
    current: str | None = None
    for piece in (
        p
        for whole in pieces(message)
        for p in ([whole] if is_code(whole) else addresses.handover.split(whole))
    ):
        if is_code(piece):  # code is context: no address in it, none taken from it
            result.append(Segment(text=piece, addressed=current))
            continue
        address = addresses.resolve(piece)
        if address.stakeholder_id is not None:
            current = address.stakeholder_id
        text = address.question.strip()
        if text:
            result.append(Segment(text=text, addressed=current))
    return result or [Segment(text=message.strip(), addressed=None)]


def pieces(message: str) -> list[str]:
    """The message cut at question and sentence ends and where a new question starts; a
    fenced code block is one piece of its own."""
    pieces: list[str] = []
    position = 0
    for block in _CODE_BLOCK.finditer(message):
        pieces.extend(_prose_pieces(message[position : block.start()]))
        if block.group(0).strip("`").strip():
            pieces.append(block.group(0).strip())
        position = block.end()
    pieces.extend(_prose_pieces(message[position:]))
    return pieces


def opens_question(text: str) -> bool:
    """Does the text open with a question word ("is ...", "and what ...")?"""
    return bool(_OPENS_QUESTION.match(text))


def asks_for(text: str) -> bool:
    """Does the text ask without a question mark ("Please confirm X", "Two checks: X")?"""
    return bool(_ASKS_FOR.match(text))


def is_code(text: str) -> bool:
    """Is this piece a fenced code block (context to the question around it)?"""
    return text.lstrip().startswith(_FENCE)


# A checklist's box in front of a line ("[ ] X", "- [x] Y", "\u2610 Z"): a list item's marker.
_CHECKBOX = re.compile(
    r"^[ \t]*(?:[-*\u2022][ \t]*)?(?:\[[ xX\u2713]?\]|[\u2610\u2611\u2612])[ \t]*", re.M
)


def _prose_pieces(text: str) -> list[str]:
    pieces: list[str] = []
    for whole in _SENTENCE.split(_CHECKBOX.sub("- ", text)):
        for line in _lead_in_list(whole):
            for sentence in _list_items(line):
                pieces.extend(_questions_in(sentence))
    return pieces


# A lead-in naming its asks, then a colon ("Three things I need: X, Y, and Z", "quick ones:
# X, Y, Z"): what follows is a list of asks on one line, cut at its commas.
_LIST_LEAD_IN = re.compile(
    r"^(?P<lead>[^:?]{0,80}\b(?:things|questions|points|items|checks|ones|queries|asks|"
    r"clarifications|confirmations)\b[^:?]{0,50}:)\s+(?P<rest>.+)$",
    re.IGNORECASE | re.DOTALL,
)
_ITEM_SEPARATOR = re.compile(r"\s*[,;]\s+(?:and\s+)?")
_MIN_ITEM_WORDS = 3


def _lead_in_list(line: str) -> list[str]:
    """A one-line list of asks after a lead-in that names them, cut into its lead-in and its
    items ("Three things I need: how X lines up, the minimum Y, and the way Z is billed"); any
    other line whole. Items are kept only when each has ``_MIN_ITEM_WORDS`` words or more, so
    a plain enumeration of nouns ("points: A, B and C") is not cut."""
    found = _LIST_LEAD_IN.match(line.strip())
    # a question after the colon ("Two questions: is X in which time, UTC or local?") is cut
    # where its own questions start (``_questions_in``), not at its commas
    if found is None or found["rest"].rstrip().endswith("?"):
        return [line]
    items = [item.strip(" .") for item in _ITEM_SEPARATOR.split(found["rest"])]
    if len(items) < 2 or any(len(item.split()) < _MIN_ITEM_WORDS for item in items):
        return [line]
    return [found["lead"], *(f"- {item}" for item in items)]


def _questions_in(sentence: str) -> list[str]:
    """One sentence cut where a new question starts (after "and", or after a comma that
    follows a question), or the sentence whole; a list of assumptions ("I assume X, and that
    Y") is cut into its propositions."""
    if not sentence.strip():
        return []
    propositions = [p for p in _AND_THAT.split(sentence) if p.strip()]
    if len(propositions) == 1 and _PLAN.match(sentence) is None:
        # a plan told as steps ("I'd drain it to 5 % at 21:00, then recharge to 50 %.")
        propositions = [p for p in _THEN_STEP.split(sentence) if p.strip()]
    if len(propositions) > 1 and all(len(p.split()) >= _MIN_WORDS + 1 for p in propositions):
        return [q for p in propositions for q in _questions_in(p)]
    stated = (
        sentence.rstrip().endswith(".")
        and not _OPENS_QUESTION.match(sentence)
        and not _ASKS_FOR.match(sentence)
    )
    kept = _alternatives_kept(sentence)
    parts = [] if stated else [p for p in _NEW_QUESTION.split(kept) if p and p.strip()]
    parts = [p.replace(_KEPT_OR, " or ") for p in parts]
    parts = [q for p in parts for q in _comma_questions(p)]
    if len(parts) > 1 and all(len(p.split()) >= _MIN_WORDS for p in parts):
        # Every part of a question stays a question ("can X, and can Y?" asks X too), except
        # an acknowledgement in front ("oh ok, and is it the same for the hotels?"): "oh ok?"
        # would read as a verdict asked.
        asked = sentence.rstrip().endswith("?")
        return [
            p if not asked or p.rstrip().endswith("?") or acts.courtesy(p) else f"{p}?"
            for p in parts
        ]
    return [sentence]


# "Do we take the £24.11 off, or do we just count the £36?": the same yes-or-no opening again
# after "or" (the same verb and subject) offers an alternative of one question, which is asked
# whole (the difference between the two is what it asks). "When do the vans leave, or is there
# no fixed time?" and "Is that the figure, or is there something to add?" stay two.
_YES_NO_OPENING = re.compile(
    r"^\W*(?:(?:and|so|but|also|then|ok|okay)\b[,\s]*)?((?:do|does|did|is|are|was|were|can|"
    r"could|should|shall|will|would|must|may|has|have)\s+(?:i|we|you|it|they|that|this|there|the"
    r"|those|these)\b)",
    re.IGNORECASE,
)


_KEPT_OR = " or\u2063"  # an "or" the new-question cut must not see (restored after the cut)


def _alternatives_kept(sentence: str) -> str:
    """``sentence`` with each "or" that repeats its yes-or-no opening marked, so the cut at
    a new question leaves the alternatives together."""
    first = _YES_NO_OPENING.match(sentence)
    if not first:
        return sentence
    opening = r"\s+".join(re.escape(word) for word in first.group(1).split())
    return re.sub(rf"\s+or\s+(?={opening}\b)", _KEPT_OR, sentence, flags=re.IGNORECASE)


# "when the system shows X, where is Y?": "when" opening a clause with its own subject (not
# "when is ...") is a condition, like "if ...", and the question is what follows the comma.
_WHEN_CLAUSE = re.compile(
    r"^\s*(?:(?:and|so|but|also|then)\b[,\s]*)?(?:when|whenever)\s+(?!(?:is|are|was|were|do|"
    r"does|did|can|could|should|will|would|has|have|must|may|shall)\b)",
    re.IGNORECASE,
)


def _comma_questions(part: str) -> list[str]:
    """A question that opens with a question word, cut where a comma opens another."""
    if not _OPENS_QUESTION.match(part) or _WHEN_CLAUSE.match(part):
        return [part]
    cut = [p for p in _COMMA_QUESTION.split(part) if p.strip()]
    return cut if all(len(p.split()) >= _MIN_WORDS + 1 for p in cut) else [part]


def _list_items(sentence: str) -> list[str]:
    """A line holding a numbered list ("a few checks: 1. X, 2. Y") cut into its lead-in and
    items; any other line whole. The first two markers must count 1, 2 (or i, ii or a, b)."""
    markers = list(_INLINE_ITEM.finditer(sentence))
    labels = [(m.group("a") or m.group("b") or m.group("c") or "").lower() for m in markers]
    if len(markers) < 2 or labels[0] not in _FIRST_ITEMS[0] or labels[1] not in _FIRST_ITEMS[1]:
        return [sentence]
    cuts = [0, *(m.start() for m in markers), len(sentence)]
    items = [sentence[a:b] for a, b in itertools.pairwise(cuts)]
    # Items keep a bullet ("- X"), which is no word to a pattern and marks a list item.
    stripped = [
        _INLINE_ITEM.sub("- ", item, count=1) if i else item for i, item in enumerate(items)
    ]
    return [item.strip().rstrip(",;").strip() for item in stripped if item.strip(" ,;-")]
