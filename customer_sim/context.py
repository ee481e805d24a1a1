"""Which sentences before an ask it is read with: one rule for the customer and the judge.

Players rarely repeat the subject in every sentence. "The collections_balance column is empty
in test. Kofi's export may be broken. Can I fill it with 0?" asks about collections_balance in
its last sentence, although that sentence names nothing but a value. The scripted customer
answers such a follow-up read together with the sentences that name its subject, and the
offline coverage judge credits it the same way (``judging.patterned``), so a transcript and its
coverage page agree.

An ask is read with what comes before it (at most ``MAX_BACK`` sentences, nearest first) when

- it points back: a pronoun or a leading "so"/"and" ("Are those counted from the top?"), or a
  short ask for a verdict ("Correct?", "Fine by you?");
- it names no subject of its own: a short question of at most ``MAX_SUBJECTLESS_WORDS`` content
  words ("can I fill with 0?", "in kg?", "am I undercounting the work?");
- the sentence before is a topic lead-in ending in a colon, or a code block, or the ask is one.

A bare noun phrase asked on its own ("metric?", "target col?") asks which one it is
(``terse_reading``).

A follow-up of the first two kinds reaches two sentences back even when the sentence between
does not point back itself ("Test has auto_loan rows. Marta's mail says consumer book. Do
those count?"), as long as that sentence is a statement: a pronoun refers to the nearest
question. Only an ask that names no subject at all reaches past a question too. Otherwise each
step back needs the sentence after it to point back (a chain).
Callers decide what a reading asks for and that it adds something the earlier sentences did
not ask on their own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from customer_sim.segments import is_code, opens_question
from customer_sim.text import STOPWORDS, raw_tokens

MAX_BACK = 2
MAX_SUBJECTLESS_WORDS = 1
_MAX_SUBJECTLESS_TOKENS = 7
_MAX_VERDICT_WORDS = 8
# An open ask for a verdict ("Anything I should watch for here?") may run this many words more.
_OPEN_EXTRA = 2

# A question that points back at the sentence before it ("How long is that allowed?", "so are
# those the bottom ones?").
_LEANS_BACK = re.compile(
    r"^\s*(?:so|and|then|but)\b|\b(?:that|this|those|these|it|its|they|them|their|there|such|"
    r"which one|which of|either)\b",
    re.IGNORECASE,
)

# What an open ask for more names ("Anything I should watch for?", "Any red flags?"): both a
# verdict on what was said and an ask with no plain reading (``_OPEN_ASK``).
_WATCH_WORDS = (
    r"missing|should know|watch for|watch out|look out for|careful|concerns?|worries|worry|"
    r"red flags?|pitfalls?|gotchas?|overlooking|forgetting"
)
# A short ask for a verdict on what was just said ("Correct?", "Fine by you?", "Any
# objection?", "Anything I should know?").
_VERDICT = re.compile(
    r"\b(?:correct|right|ok|okay|fine|alright|objections?|agreed?|sounds?|makes? sense|yes|"
    r"confirm(?:ed)?|isn'?t it|enough|"
    rf"{_WATCH_WORDS}|pass|fly|work for you|"
    r"how you run|how you operate|how you use|how you do it|what you do|"
    r"acceptable|true|problem|issue|good|sensible|plausible|reasonable|"
    r"valid|sound|straightforward|the idea|the plan|intended|what you want|what you expect|"
    r"what you had in mind|how you want it|the right approach|the right way|sign (?:it |that |"
    r"this )?off|good to go|happy with (?:that|this|it)|go ahead|(?:any )?reason not to|why not)\b",
    re.IGNORECASE,
)

# Words that frame a short question rather than name what it is about ("can I ... ?",
# "is that ok for you?"); with ``STOPWORDS`` they are not counted as its subject.
_FRAMING = frozenset(
    " ".join(
        (
            "ok okay fine alright right correct true false good bad sure able allow allowed",
            "acceptable safe problem issue worth better best enough still instead else rather",
            "either use using used make doing treat treated handle handled assume assuming mean",
            "meant count counted counting matter matters fill filled leave left keep drop work",
            "working yes no maybe perhaps probably actually exactly also too then now most",
            "least max min much many more less",
            # "Same unit?" after "price 150 vs cost 6.09.": a comparison of what came before
            "same different similar comparable",
        )
    ).split()
)


# Public name: other modules tell a question's subject words from its framing with it.
FRAMING = _FRAMING


def leans_back(text: str) -> bool:
    """Does the ask point back at the sentence before it (a pronoun, "so ...", a verdict)?"""
    if _LEANS_BACK.search(text):
        return True
    return asks_verdict(text)


# A pronoun that refers back ("Can I put it on top?", "in that quarter-hour"): not the
# relative "that" ("anything that I should correct for") nor the existential "there".
_REFERS_BACK = re.compile(
    r"^\s*(?:so|and|then|but)\b|\b(?:it|its|this|these|those|they|them|their)\b"
    r"|\b(?:in|at|of|for|on|with|to|from|by|about|is|do|does|did)\s+that\b",
    re.IGNORECASE,
)


# A statement that sets up a hypothetical ("Say my plan peaks at 540 kW.", "Suppose the lane
# is full."): the question after it asks about that scenario, as "if ..., ...?" would.
_SUPPOSES = re.compile(
    r"^\s*(?:say|suppose|supposing|assume|assuming|imagine|picture this|hypothetically|"
    r"let'?s say|let us say|let'?s assume|let us assume|in a scenario where|scenario)\b",
    re.IGNORECASE,
)


def supposes(text: str) -> bool:
    """Does the statement set up a hypothetical the next question asks about?"""
    return bool(_SUPPOSES.match(text)) and not is_question(text)


def points_back(text: str) -> bool:
    """Does the ask refer to the sentence before it (a pronoun, a leading "so"/"and")?"""
    return bool(_REFERS_BACK.search(text))


# A statement that describes what the question before it asks about ("It's all SKU 410186,
# ...", "They are both chilled."): it opens with a pronoun.
_DESCRIBES_BACK = re.compile(
    r"^\s*(?:it|it's|it\u2019s|its|they|they're|they\u2019re|this|these|those|both)\b",
    re.IGNORECASE,
)


def describes_back(text: str) -> bool:
    """Does the statement open with a pronoun for what was just asked about?"""
    return bool(_DESCRIBES_BACK.match(text))


def elaborates(question: str, after: str) -> bool:
    """Does the piece after a question show what the question asks about: a statement that
    opens with a pronoun for it ("Does A13-03 count? It's one SKU in two batches."), or a code
    block after an ask for a verdict ("My price selection, agreed?" then the code)? A player
    who pastes code usually asks first and shows it after."""
    if is_code(after):
        return asks_verdict(question) or question.rstrip().endswith(":")
    return describes_back(after) and not is_question(after)


def asks_verdict(text: str) -> bool:
    """Is the ask a short ask for a verdict on everything said before it ("Correct?")? An
    open ask ("Anything I need to watch for in my list?") may be a little longer."""
    limit = _MAX_VERDICT_WORDS + (_OPEN_EXTRA if _OPEN_ASK.search(text) else 0)
    return len(text.split()) <= limit and bool(_VERDICT.search(text))


def subjectless(text: str) -> bool:
    """Is the ask a short question that names no subject of its own ("in kg?", "can I fill
    with 0?", "am I undercounting the work?")?"""
    if is_code(text):
        return False
    tokens = raw_tokens(text)
    if not tokens or len(tokens) > _MAX_SUBJECTLESS_TOKENS:
        return False
    content = [t for t in tokens if t not in STOPWORDS and t not in _FRAMING]
    return len(content) <= MAX_SUBJECTLESS_WORDS


def is_question(text: str) -> bool:
    """Does the sentence ask (a question mark, or a question word in front)?"""
    return text.rstrip().endswith("?") or bool(opens_question(text))


_PLAIN_VERDICT = "Is that ok?"
# An open ask ("Anything I'm missing?", "What else should I know?") asks for more, not whether
# what was said is acceptable: it has no plain reading.
_OPEN_ASK = re.compile(rf"\b(?:anything|else|other|{_WATCH_WORDS})\b", re.IGNORECASE)
_MAX_TERSE_TOKENS = 3


def terse_reading(text: str) -> str | None:
    """A bare noun phrase asked as a question ("metric?", "target col?", "tz?") asks which one
    it is: its reading as "which ...?". None for anything else."""
    stripped = text.strip()
    if not stripped.endswith("?") or is_code(stripped):
        return None
    tokens = raw_tokens(stripped)
    if not tokens or len(tokens) > _MAX_TERSE_TOKENS or is_question(stripped.rstrip("?")):
        return None
    if any(t in STOPWORDS or t in _FRAMING or t.isdigit() for t in tokens):
        return None
    return f"which {stripped}"


# Where a subordinate clause starts: a purpose or result (", so heavy ones stay low"), a reason
# (", because ...", ", since ..."), a description of the subject ("applicants whose ..."), a
# comparison with something else ("counted from the floor like the heavy levels?").
_SUBORDINATE = re.compile(
    r",\s*(?:so that|so|because|since|as otherwise|otherwise)\s+|\s+(?:so that|whose|because)\s+"
    r"|\s+(?:just\s+)?(?:like(?!\s+(?:with|for|to)\s+like)|same as|as with|as for)\s+"
    r"(?:the|a|an|for|in|with|our|your)\s+",
    re.IGNORECASE,
)
_MIN_MAIN_WORDS = 4


def main_clause(text: str) -> str | None:
    """The ask without its subordinate clause ("can a pallet go underneath the others, so
    heavy ones stay low?" asks where a pallet may go), or None when it has none. Read on its
    own, so a sibling rule's words in the subordinate clause do not veto what it asks."""
    if is_code(text):
        return None
    cut = _SUBORDINATE.search(text)
    if cut is None:
        return None
    main = text[: cut.start()].strip()
    if len(main.split()) < _MIN_MAIN_WORDS:
        return None
    return main + ("?" if text.rstrip().endswith("?") else "")


# What an ask sets aside: "Besides X, ...", "Apart from X, ...", "Other than X, ...", "X aside"
# ("For the C lanes - height aside - which ...?"). X is what the player is *not* asking about,
# usually a sibling rule they already know; its words must neither fire nor veto a rule.
_SET_ASIDE_LEAD = re.compile(
    r"^\s*(?:besides|apart from|aside from|other than|except for|excluding|in addition to|"
    r"separate(?:ly)? from|leaving aside|setting aside|putting aside)\b"
    r"[^,;:?]{1,80}?[,;:]\s*",
    re.IGNORECASE,
)
_SET_ASIDE_INNER = re.compile(
    r"\s*(?:[-\u2013\u2014(,])\s*[^-\u2013\u2014(),?]{1,40}?\s+aside\s*(?:[-\u2013\u2014),]|$)\s*",
    re.IGNORECASE,
)
# "... besides the SoC window?", "... other than the height limit?": set aside at the end.
_SET_ASIDE_TAIL = re.compile(
    r",?\s+(?:besides|apart from|aside from|other than|except for|except)\s+(?:the|a|an|our|"
    r"your|that|this)\s+[^,;?.!]{1,50}(?=[?.!]?\s*$)",
    re.IGNORECASE,
)
# A comparison with another, definite thing (", like the income field the dictionary gets
# wrong,"), or the alternative an ask turns down ("... rather than to the whole lane"): it is
# named to compare with, not asked about ("like a balanced set" is an example of what is asked
# and stays; "is X the same as the Y?" asks the comparison itself).
_COMPARED_WITH = re.compile(
    r"(?<!\bsame)(?<!\bsimilar),?\s+(?:(?:just\s+)?(?:like|(?<!\bthe )same as|as with|as for)\s+"
    r"(?:the|our|your)|rather than)\s+"
    # up to the end of its sentence: a reading may join the next one ("... rather than
    # College. Does that change anything?"), and that one is asked
    r"(?:[^,;?.!]|\.(?=\d))*",
    re.IGNORECASE,
)


def set_aside(text: str) -> str:
    """The ask without what it explicitly sets aside ("Apart from adding the pallet base, do I
    need any other conversion?" asks about other conversions only). Unchanged when nothing is
    set aside, or when too little would be left to ask anything."""
    if is_code(text):
        return text
    rest = _SET_ASIDE_INNER.sub(" ", _SET_ASIDE_LEAD.sub("", text, count=1), count=1)
    rest = _SET_ASIDE_TAIL.sub("", rest, count=1)
    rest = _COMPARED_WITH.sub("", rest, count=1).strip()
    return rest if len(rest.split()) >= _MIN_MAIN_WORDS else text


def follows_up(text: str) -> bool:
    """Is the ask a follow-up that leans on what was said before it?"""
    return leans_back(text) or subjectless(text)


@dataclass(frozen=True)
class Reading:
    """Read ``texts[back : index + 1]`` together. ``strict``: the ask is read back only because
    it names no subject, so it must name part of what the reading asks for itself (its aspect:
    "can I fill with 0?" after a column, never "where is the depot?" after a plan)."""

    back: int
    strict: bool


def readings(texts: Sequence[str], index: int) -> Iterator[Reading]:
    """The readings of ``texts[index]`` with the sentences before it, nearest first (see the
    module docstring)."""
    current = texts[index]
    no_subject = subjectless(current)
    points_back = leans_back(current)
    for back in range(index - 1, max(index - MAX_BACK, 0) - 1, -1):
        previous, after = texts[back], texts[back + 1]
        chained = (
            leans_back(after)
            or previous.rstrip().endswith(":")
            or is_code(previous)
            or is_code(after)
            # "Say the load is 542 kW. Can I discharge 500?" asks "if ..., can I ...?"
            or (after is current and supposes(previous))
        )
        # Past a question of its own, only an ask that names nothing reaches further back: a
        # pronoun refers to the nearest question ("Is X only for Y? Does it turn up in Z?").
        nearest = after is current or not is_question(after)
        if chained or (points_back and nearest):
            yield Reading(back, strict=False)
        elif no_subject or (nearest and _shared_ids(previous, current)):
            # an ask naming the pallet, stack or row a statement just described ("P7 is at the
            # bottom of A02. Can step 1 be P7 from A02 to A05?") is about that scenario too
            yield Reading(back, strict=True)
        else:
            return


# An identifier of a thing in the data: letters then a digit ("P00533", "A13-03", "C02").
_ID = re.compile(r"\b[A-Za-z]{1,4}[0-9][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\b")


def _shared_ids(previous: str, current: str) -> bool:
    """Do two sentences name the same identifier (of three characters or more)?"""
    if is_code(previous) or is_code(current):
        return False
    ids = {m.group(0).lower() for m in _ID.finditer(previous) if len(m.group(0)) >= 3}
    return bool(ids) and any(m.group(0).lower() in ids for m in _ID.finditer(current))


def joined(texts: Sequence[str], back: int, index: int) -> str:
    """The sentences ``back`` .. ``index`` as one text."""
    return " ".join(texts[back : index + 1])


def reading_texts(texts: Sequence[str], back: int, index: int) -> list[str]:
    """What a reading back to ``back`` reads, in order.

    A short verdict ask is read with each statement on its own first ("I assume X, and that
    Y. Correct?" asks about X and about Y), then with everything in between. One that asks
    whether something is acceptable ("Is that the idea?", "Correct?") is also read in plain
    words ("... Is that ok?"), so a pattern need not list every way of asking for a verdict;
    an open ask ("Anything I'm missing?") asks for more, not for a verdict, and is not.
    """
    whole = joined(texts, back, index)
    current = texts[index]
    if not asks_verdict(current):
        return [whole]
    plain = not _OPEN_ASK.search(current)
    readings = []
    if back < index - 1:
        readings.append(f"{texts[back]} {current}")
        if plain:
            readings.append(f"{texts[back]} {_PLAIN_VERDICT}")
    readings.append(whole)
    if plain:
        readings.append(f"{joined(texts, back, index - 1)} {_PLAIN_VERDICT}")
    return readings


def _also_fires(text: str, fires: Callable[[str], bool]) -> bool:
    """Does a narrower reading of the text fire: its main clause, or its terse reading?"""
    return any(
        reading is not None and fires(reading)
        for reading in (main_clause(text), terse_reading(text))
    )


def elaborated(
    texts: Sequence[str], index: int, fires: Callable[[str], bool], alone: Sequence[bool]
) -> bool:
    """Does question ``index`` ask for the rule once read with the piece right after it that
    shows what it asks about ("Does A13-03 count? It's one SKU in two batches.", or code after
    "agreed?"), also with the question before it when it is the second half of one? Only when
    none of those sentences asks for it alone."""
    after = index + 1
    if after >= len(texts) or not is_question(texts[index]):
        return False
    if not elaborates(texts[index], texts[after]) or alone[after]:
        return False
    for back in range(index, max(index - 1, 0) - 1, -1):
        if alone[back]:
            return False
        if fires(joined(texts, back, after)):
            return True
    return False


def credited(
    texts: Sequence[str], fires: Callable[[str], bool], touches: Callable[[str], bool]
) -> list[bool]:
    """For one rule: which sentences ask for it, alone or read with their context.

    ``fires`` decides whether a text asks for the rule, ``touches`` whether it names any part
    of it (for strict readings). A sentence read with its context is credited only when the
    sentences it leans on do not ask for the rule on their own (they have the credit then).
    """
    alone = [fires(text) or _also_fires(text, fires) for text in texts]
    result = list(alone)
    for index in range(len(texts)):
        if alone[index]:
            continue
        if elaborated(texts, index, fires, alone):
            result[index] = True
            continue
        for reading in readings(texts, index):
            if alone[reading.back]:
                break
            if reading.strict and not touches(texts[index]):
                continue
            if any(fires(text) for text in reading_texts(texts, reading.back, index)):
                result[index] = True
                break
    return result


__all__ = [
    "FRAMING",
    "MAX_BACK",
    "Reading",
    "asks_verdict",
    "credited",
    "describes_back",
    "elaborated",
    "elaborates",
    "follows_up",
    "joined",
    "leans_back",
    "main_clause",
    "points_back",
    "reading_texts",
    "readings",
    "set_aside",
    "subjectless",
    "terse_reading",
]
