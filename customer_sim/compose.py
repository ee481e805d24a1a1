"""The customer's wording around the facts: non-answers, redirects, repeats and impatience.

Why this is more than one canned line: a player must be able to tell "you asked about something
I have nothing on" from "ask me the specific point" from "that is someone else's area", and a
non-answer that ignores what was asked reads like a broken bot. Every line here names the
subject the player raised, stays in the speaker's voice (their authored non-answers), never
states or denies a rule, and is chosen deterministically (the same ask gets the same words).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

from customer_sim.script import Stakeholder
from customer_sim.text import STOPWORDS, stem

# Letters of any alphabet: "café" quoted back as "caf" read as garbled (a blind rater).
_WORD = re.compile(r"[^\W_](?:[^\W_]|[%./:'\-])*")
# Words that frame a question rather than name its subject.
_FRAMING = STOPWORDS | {
    # prepositions the stop list lacks: a subject never runs across one ("nights per ...")
    "per",
    "via",
    "versus",
    "vs",
    "according",
    "should",
    "would",
    "could",
    "can",
    "may",
    "might",
    "must",
    "shall",
    "okay",
    "fine",
    "sure",
    "mean",
    "happens",
    "happen",
    "question",
    "quick",
    "wondering",
    "assume",
    "correct",
    "good",
    "great",
    "agreed",
    "agree",
    "reasonable",
    "sensible",
    "plausible",
    "acceptable",
    "true",
    "yes",
    "yeah",
    "confirm",
    "sounds",
    "sound",
    "sense",
    "right",
    "actually",
    "exactly",
    "else",
    "anything",
    "something",
    "need",
    "needs",
    "use",
    "make",
    "give",
    "send",
    "ask",
    "asking",
    "check",
    "thing",
    "things",
    "stuff",
    "way",
    "sort",
    "kind",
    "bit",
    "lot",
    "also",
    "again",
    "still",
    "now",
    "then",
    "maybe",
    "perhaps",
    "guess",
    "think",
    "done",
    "handled",
    "treated",
    "work",
    "works",
    "many",
    "much",
    "roughly",
    "approximately",
}
_MAX_SUBJECT_WORDS = 5

# Each template comes in two forms: with the subject the ask names (a noun phrase the case
# knows: a column, a fact's topic, a person's area) and without one, so a non-answer never
# quotes a random slice of the message back ("That: can you be more specific?").
_SPECIFIC = (
    "On {subject} - what exactly do you need to know? Ask me the specific point and I'll "
    "tell you how we handle it.",
    "What about {subject} do you need to know? Tell me the decision you're trying to make.",
    "Which part of {subject} do you mean? Tell me what you're planning and I'll say what applies.",
)
_SPECIFIC_PLAIN = (
    "What exactly do you need to know? Ask me the specific point and I'll tell you how we "
    "handle it.",
    "I'm not sure which part you mean - what's the decision you're trying to make?",
    "Can you be a bit more specific? Tell me what you're planning and I'll say what applies.",
)
_UNSURE = (
    "I'm not sure what you're after on {subject}.",
    "Not sure I follow on {subject}.",
    "{Subject} - nothing comes to mind that I could add there.",
    "I don't have much to say on {subject}.",
)
_UNSURE_PLAIN = (
    "I'm not sure what you're after there.",
    "Not sure I follow, sorry.",
    "Nothing comes to mind that I could add there.",
)
# Neither "nothing special" nor "no rule": a question about the data says nothing of a rule.
_IN_THE_DATA = (
    "On {subject}, the files are the source - they'll tell you that better than I can.",
    "{Subject}: that's in the data as it stands; I don't keep my own figures on it.",
    "For {subject}, go by what the files show - I'd only be guessing.",
)
_IN_THE_DATA_PLAIN = (
    "The files are the source there - they'll tell you that better than I can.",
    "That's in the data as it stands; I don't keep my own figures on it.",
    "Go by what the files show there - I'd only be guessing.",
)
_WHICH_ONE = (
    "Do you mean {topic}? If it's something else about {subject}, ask me that point directly.",
    "Is that about {topic}, or about something else on {subject}? Ask me the specific point.",
)
_WHICH_ONE_PLAIN = (
    "Do you mean {topic}? If it's something else, ask me that point directly.",
    "Is that about {topic}, or about something else? Ask me the specific point.",
)
# An ask that names one slot of a sibling pair while what the speaker has speaks of the other
# (``customer_sim.slots``): ask which one is meant, in the player's words, stating nothing.
_WHICH_SLOT = (
    "Just so I answer the right thing: is that about {asked} or {other}? Ask me the exact "
    "point on {subject}.",
    "{Subject} - {asked} or {other}? Tell me which one you need and I'll say what applies.",
)
_WHICH_SLOT_PLAIN = (
    "Just so I answer the right thing: is that about {asked} or {other}?",
    "{Asked} or {other}? Tell me which one you need and I'll say what applies.",
)
_REDIRECT = (
    "For {subject}, ask {owner} - that's their side, not mine.",
    "{Subject} is really one for {owner}.",
    "I'd put {subject} to {owner}; they'd know.",
)
_REDIRECT_PLAIN = (
    "That one's for {owner} - it's their side, not mine.",
    "That's really one for {owner}.",
    "I'd put that to {owner}; they'd know.",
)
# A yes or no asked for a plan, answered by a fact that settles only part of it, while the ask
# also touches a rule nobody has stated: the answer must not read as a yes to the rest.
_PARTIAL = (
    "That's as far as that point goes - don't read it as a yes to the whole plan.",
    "That covers that point only; I wouldn't call the rest of the plan fine on that basis.",
    "That's the part I can speak to - don't take it as a yes to everything else you're planning.",
)
_COLLEAGUE = (
    "{owner} would know that better - ask them.",
    "That one's for {owner}, really - ask them.",
)


def pick(options: Sequence[str], seed: str) -> str:
    """One of ``options``, the same every time for the same ``seed`` (whatever its case and
    spacing: a question resent with an extra space or line break gets the same words)."""
    canonical = " ".join(seed.lower().split())
    return options[zlib.crc32(canonical.encode("utf-8")) % len(options)]


def subject_of(text: str, known: frozenset[str] | None = None) -> str | None:
    """The phrase a question is about: its longest run of content words (at most five), or
    None. With ``known`` (stems of the case's own nouns: columns, topics, people's areas) a
    run holds only known words, so what is quoted back is a noun phrase the case knows."""
    runs: list[list[str]] = [[]]
    for word in _WORD.findall(text):
        bare = word.strip(".:'-").lower().replace("’", "'").split("'")[0]
        unknown = known is not None and stem(bare) not in known
        if not bare or bare in _FRAMING or bare.rstrip("s") in _FRAMING or unknown:
            runs.append([])
        else:
            runs[-1].append(word.strip(".:'-"))
    best = max(runs, key=len)[:_MAX_SUBJECT_WORDS]
    while best and best[-1].lower() in _WEAK:  # "heavy pallets" yes; "high", "time" no
        best = best[:-1]
    while best and best[0].lower() in _WEAK and best[0].lower() not in _MODIFIERS:
        best = best[1:]
    if best and all(word.lower() in _WEAK for word in best):
        best = []
    if len(best) == 1 and _names_nothing(best[0].lower()):  # "on limit", "on scored"
        best = []
    return " ".join(best) if best else None


def _names_nothing(word: str) -> bool:
    """A word that cannot be a subject on its own: a rule word ("something else on limit") or
    a past participle, the ask's verb ("which ones need scored?"). Short words ending in -ed
    ("feed", "speed") are kept as nouns."""
    return word in _RULE_NOUNS or _PARTICIPLE.fullmatch(word) is not None


_PARTICIPLE = re.compile(r"[a-z]{4,}ed")


# A rule word alone names no subject: "is there a limit on how fast ..." is about the speed.
_RULE_NOUNS = frozenset(
    [
        "limit",
        "limits",
        "rule",
        "rules",
        "restriction",
        "restrictions",
        "constraint",
        "constraints",
        "requirement",
        "requirements",
        "cap",
        "policy",
        "maximum",
        "minimum",
        "max",
        "min",
    ]
)


# A subject must hold a noun that says what is meant: a modifier or a very general noun alone
# ("Happy to help on high", "On day - ...") quotes a scrap of the message back.
_MODIFIERS = frozenset(
    [
        "high",
        "low",
        "higher",
        "lower",
        "heavy",
        "light",
        "big",
        "small",
        "full",
        "empty",
        "different",
        "same",
        "other",
        "new",
        "old",
        "total",
        "more",
        "less",
        "long",
        "short",
        "early",
        "late",
        "first",
        "last",
        "next",
        "single",
        "each",
        "every",
        "whole",
    ]
)
_WEAK = _MODIFIERS | frozenset(
    [
        "time",
        "times",
        "day",
        "days",
        "hour",
        "hours",
        "number",
        "numbers",
        "value",
        "values",
        "amount",
        "level",
        "levels",
        "point",
        "part",
        "side",
        "case",
    ]
)


def _fill(templates: tuple[str, ...], plain: tuple[str, ...], seed: str, subject: str | None,
          **names: str) -> str:  # fmt: skip
    if subject is None:
        chosen = pick(plain, seed)
        return chosen.format(**names, **{k.capitalize(): _cap(v) for k, v in names.items()})
    return pick(templates, seed).format(subject=subject, Subject=_cap(subject), **names)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_WHAT_ABOUT = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|also|but)\W+)*(?:what about|how about|tell me (?:more )?about|"
    r"anything (?:on|about))\b",
    re.IGNORECASE,
)


def is_vague(ask: str) -> bool:
    """Does the ask name a subject without saying what about it it wants ("oven minutes?",
    "what about the efficiency?", "tell me about the ovens")? Only such an ask is asked back
    "what exactly do you need to know?"; a question with more to it than its subject is
    specific, and asking it back reads as not listening (a blind rater's commonest
    complaint)."""
    if _ALTERNATIVE.search(ask):
        return False  # "from the grid or only from the solar?" says exactly what it wants
    return bool(_WHAT_ABOUT.match(ask)) or len(_content_stems(ask)) <= 2


_ALTERNATIVE = re.compile(r"\bor\b|\bvs\.?\b|\bversus\b", re.IGNORECASE)


def ask_specific(ask: str, subject: str | None) -> str:
    """For an ask that names a fact's subject without asking for the rule."""
    return _fill(_SPECIFIC, _SPECIFIC_PLAIN, ask, subject)


_NOT_TO_HAND = (
    "On {subject}, I don't know that offhand, I'm afraid. Is there a rule or a figure behind "
    "it that you need? Ask me that and I'll tell you how we do it.",
    "{Subject}: I couldn't say offhand, sorry. Is it a limit or a rule you're checking? Ask me "
    "about that and I'll answer.",
)
_NOT_TO_HAND_PLAIN = (
    "I don't know that offhand, I'm afraid. Is there a rule or a figure behind it that you "
    "need? Ask me that and I'll tell you how we do it.",
    "I couldn't say offhand, sorry. Is it a limit or a rule you're checking? Ask me about that "
    "and I'll answer.",
)
# A non-answer the player already got word for word one turn ago reads as a broken bot.
_STILL_UNSURE = (
    "Sorry, I'm still not the right one for that. Try me on a specific rule or figure, or ask "
    "whose area it is.",
    "I'm afraid I still can't help with that one. Ask me about the rule or figure you're "
    "worried about, or who would know.",
)


def still_unsure(seed: str) -> str:
    """For a non-answer that would repeat the previous reply word for word."""
    return pick(_STILL_UNSURE, seed)


def not_to_hand(ask: str, subject: str | None) -> str:
    """For a specific what/when/how question that names a fact's subject but asks nothing the
    script answers: "can you be more specific?" would read as not listening to a question
    that was specific, and "what would it change in your plan?" as a challenge (blind raters
    said both); the speaker says plainly they don't know it offhand and offers the rule or
    figure behind it (never "nothing special": it may be a rule asked in words the patterns
    miss)."""
    return _fill(_NOT_TO_HAND, _NOT_TO_HAND_PLAIN, ask, subject)


def in_the_data(ask: str, subject: str | None) -> str:
    """For an ask about what the data holds, a file's mechanics or a figure's history
    (``customer_sim.intent``): the files answer it (which says nothing of any rule)."""
    return _fill(_IN_THE_DATA, _IN_THE_DATA_PLAIN, ask, subject)


def which_one(ask: str, subject: str | None, side_topic: str) -> str:
    """For a rule's question that only grazed a side topic (``FactFinder.withheld``): ask
    back whether the side topic is what is meant, instead of answering it as if it were."""
    return _fill(_WHICH_ONE, _WHICH_ONE_PLAIN, ask, subject, topic=side_topic)


def which_slot(ask: str, subject: str | None, asked: str, other: str) -> str:
    """For an ask about one slot (``asked``, "the end") whose only match speaks of its sibling
    (``other``, "the start"): ask back which one is meant."""
    return _fill(_WHICH_SLOT, _WHICH_SLOT_PLAIN, ask, subject, asked=asked, other=other)


def redirect(ask: str, subject: str | None, owner: Stakeholder) -> str:
    """For an ask that belongs to a colleague's area."""
    return _fill(_REDIRECT, _REDIRECT_PLAIN, ask, subject, owner=owner.label)


_UNCHECKED_PLAN = (
    "I can't give you a yes on the whole plan from here - which part are you least sure of? "
    "Ask me that and I'll tell you how we handle it.",
    "Nothing I can sign off in one go, I'm afraid. Take me through the part you're unsure "
    "about and I'll say what applies.",
    "I wouldn't want to say yes to all of that blind - ask me about the specific point "
    "you're worried about.",
)


def unchecked_plan(ask: str) -> str:
    """For a plan the player states and asks a yes for ("I'll let it end the day wherever the
    optimiser leaves it. OK?") when no rule is asked in so many words: neither a yes (nobody
    checked it) nor "what's the decision you're trying to make?" (they just said)."""
    return pick(_UNCHECKED_PLAN, ask)


def partial(ask: str, points: int = 1) -> str:
    """After an answer to part of a plan the ask wants a verdict on (``points`` rules given:
    "That covers those points only" after two)."""
    if points > 1:
        return pick(_PARTIAL_SEVERAL, ask)
    return pick(_PARTIAL, ask)


_PARTIAL_SEVERAL = (
    "That's as far as those points go - don't read it as a yes to the whole plan.",
    "That covers those points only; I wouldn't call the rest of the plan fine on that basis.",
    "Those are the parts I can speak to - don't take it as a yes to everything else you're "
    "planning.",
)


def colleague(owner: Stakeholder, seed: str) -> str:
    """For a fact the addressee knows is someone else's."""
    return pick(_COLLEAGUE, seed).format(owner=owner.label)


def unsure(ask: str, subject: str | None, speaker: Stakeholder) -> str:
    """For an ask nothing in the script speaks to: the subject, then the speaker's own line.

    Most authors open that line with the same puzzlement ("Not sure what you're after there.
    Ask me ..."), and "Not sure I follow, sorry. Not sure what you're after there." says it
    twice: when it does, the line speaks alone, or after a template that only names the
    subject."""
    own = pick(speaker.non_answers or (speaker.non_answer,), ask + "#")
    if not _PUZZLED.search(own.split(".")[0]):
        return f"{_fill(_UNSURE, _UNSURE_PLAIN, ask, subject)} {own}"
    if subject is None:
        return own
    return f"{pick(_UNSURE_NAMING, ask).format(subject=subject, Subject=_cap(subject))} {own}"


# The speaker's own line already says they are lost ("Hm, not sure what you need there").
_PUZZLED = re.compile(
    r"\b(?:not sure|unsure|lost me|don'?t follow|not following|couldn'?t tell|no idea)\b",
    re.IGNORECASE,
)
_UNSURE_NAMING = tuple(t for t in _UNSURE if not _PUZZLED.search(t))


# An answer's opening flourish ("Good question - ", "Oh, thank you for asking - that's
# changed! ") reads wrongly after "As I said:" and is dropped from a repeat.
_OPENER = re.compile(
    r"^(?:(?:oh|ah|ooh),?\s+)?(?:good|great|fair|excellent) question\b[^-:!.]{0,40}[-:!.]\s*"
    r"|^(?:(?:oh|ah|ooh),?\s+)?(?:thank you|thanks) for asking\b[^-:!.]{0,40}[-:!.]\s*"
    r"|^glad you asked\b[^-:!.]{0,60}[-:!.]\s*",
    re.IGNORECASE,
)


#: A repeat gives the gist: its first sentences up to about this many characters.
REPEAT_CHARS = 160
# A sentence this short says too little alone when it is the one asked about.
_SHORT_GIST = 40
_ASKS_FIGURE = re.compile(
    r"\bhow (?:much|many|long|far|high|often|big)\b|\bwhat(?:'s| is) the (?:limit|max|cap|number|"
    r"figure|amount|rate)\b|\bper\b",
    re.IGNORECASE,
)


# "When did that change?", "since when?": the sentence with a date or a time of day.
_ASKS_WHEN = re.compile(r"\b(?:when|since when|what date|which date|what day|which day|"
                        r"how long ago)\b", re.IGNORECASE)  # fmt: skip
_DATED = re.compile(
    r"\b(?:\d{1,2}[:.]\d{2}|\d{4}-\d{2}-\d{2}|(?:19|20)\d{2}|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|"
    r"september|october|november|december|yesterday|today|tomorrow|last (?:week|month|year))\b",
    re.IGNORECASE,
)
# A question about the answer just given, pointing back at it ("when did that change?", "how
# much is it then?", "who decided this?"): a few words, a question word and a pronoun.
_POINTS_BACK = re.compile(
    r"^\W*(?:(?:oh|ah|ok|okay|wow|right|and|so|but)\W+)*(?:\w+\W+){0,3}?(?:when|since when|"
    r"why|who|how much|how many|how long|how often|what date|which date)\b.{0,40}\b(?:that|"
    r"this|it|they|those|these)\b",
    re.IGNORECASE,
)


def points_back(question: str) -> bool:
    """Is the question a short one about the answer just given (see ``_POINTS_BACK``)?"""
    return len(question.split()) <= 10 and bool(_POINTS_BACK.search(question))


# A question that asks for a time ("when's the credit committee?", "omg. since when is that?").
_WHEN_QUESTION = re.compile(
    r"^\W*(?:(?:oh|ah|ok|okay|so|and|but|wow|omg|hm+|right)\W+)*(?:(?:since )?when(?:'s|\s+(?:is|"
    r"are|was|were|do|does|did|will|would|should|shall|can|could|must|has|have|exactly)\b|\W*$|"
    r"\s*\?)|what date|which date|what day|which day|how long ago)",
    re.IGNORECASE,
)
_NO_DATE = (
    "I don't have a date for that to hand, I'm afraid.",
    "I couldn't give you a date for that offhand, sorry.",
)


def asks_when(question: str) -> bool:
    """Does the question ask when (it opens with "when", "since when", "what date", ...)?"""
    return bool(_WHEN_QUESTION.match(question))


def no_date(seed: str) -> str:
    """For a "when ...?" nothing dated answers: saying the rule again ("As I said: the PDs go
    into the committee pack") for "when's the committee?" answers a question nobody asked."""
    return pick(_NO_DATE, seed)


def answers_in(answer: str, question: str) -> bool:
    """Does some sentence of ``answer`` hold what a pointing-back question asks for (a date for
    "when", a figure for "how much")? Only then is the answer given again for it."""
    if _ASKS_WHEN.search(question):
        return bool(_DATED.search(answer))
    if _ASKS_FIGURE.search(question):
        return bool(re.search(r"\d", answer))
    return False


def repeated(answer: str, question: str = "") -> str:
    """An answer given again, as "As I said: <gist>" (``gist``)."""
    found = gist(answer, question)
    return f"As I said: {found[:1].upper() + found[1:]}"


def gist(answer: str, question: str = "") -> str:
    """The part of an answer to say again: its chosen, not the whole paragraph (a word-for-word
    repeat reads as a broken bot); the player has the full answer in the earlier turn. The gist is the
    answer's opening, or, when the question asks about a later sentence of it ("and beyond
    that, wasted?" after the 30-portion answer), that sentence: a repeat that misses the point
    asked reads as not listening."""
    plain = _OPENER.sub("", answer, count=1).strip() or answer
    plain = re.sub(r"^[^.!?]{1,25}!\s+", "", plain) or plain  # "that's changed! ..."
    sentences = re.split(r"(?<=[.!?])\s+", plain)
    asked = _content_stems(question)
    overlap = [len(asked & _content_stems(sentence)) for sentence in sentences]
    if _ASKS_WHEN.search(question):  # "when did that change?": the sentence with the date
        overlap = [
            n + (2 if _DATED.search(s) else 0) for n, s in zip(overlap, sentences, strict=True)
        ]
    elif _ASKS_FIGURE.search(question):  # "how much ...?": the sentence with the figure
        overlap = [
            n + (1 if re.search(r"\d", s) else 0) for n, s in zip(overlap, sentences, strict=True)
        ]
    best = max(range(len(sentences)), key=lambda i: (overlap[i], -i))
    if overlap[best] > overlap[0]:
        chosen = sentences[best]
        if len(chosen) < _SHORT_GIST and best + 1 < len(sentences):  # "Not everything sells."
            chosen = f"{chosen} {sentences[best + 1]}"
    else:
        chosen = sentences[0]
        for index, sentence in enumerate(sentences[1:]):
            # a short opener ("Not everything sells.") says nothing alone: the rule follows it
            if len(chosen) + len(sentence) > REPEAT_CHARS and (index or len(chosen) >= _SHORT_GIST):
                break
            chosen = f"{chosen} {sentence}"
    return chosen


def leans_on(question: str, answer: str) -> bool:
    """Is the question about a sentence of ``answer``: at least two thirds of its content
    words, and at least one, are that sentence's?"""
    asked = _content_stems(question)
    if not asked:
        return False
    sentences = re.split(r"(?<=[.!?])\s+", answer)
    return any(3 * len(asked & _content_stems(s)) >= 2 * len(asked) for s in sentences)


def _content_stems(text: str) -> set[str]:
    words = (w.strip(".:'-,?!()").lower() for w in _WORD.findall(text))
    return {
        stem(w)
        for w in words
        if len(w) > 2 and w not in STOPWORDS and w not in _FRAMING and w not in _COUNTS
    }


# Counting words say how many of the subject, not what the subject is.
_COUNTS = frozenset(
    ["one", "two", "three", "four", "five", "six", "both", "single", "several", "many", "few"]
)
