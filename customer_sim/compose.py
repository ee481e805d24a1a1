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
from customer_sim.text import STOPWORDS

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9%./:'\-]*")
# Words that frame a question rather than name its subject.
_FRAMING = STOPWORDS | {
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

_SPECIFIC = (
    "On {subject} - what exactly do you need to know? Ask me the specific point and I'll "
    "tell you how we handle it.",
    "I'm not sure which part of {subject} you mean. What's the decision you're trying to make?",
    "{Subject}: can you be more specific? Tell me what you're planning and I'll say what applies.",
)
_UNSURE = (
    "I'm not sure what you're after on {subject}.",
    "Not sure I follow on {subject}.",
    "{Subject} - nothing comes to mind that I could add there.",
    "I don't have much to say on {subject}.",
)
# Neither "nothing special" nor "no rule": a question about the data says nothing of a rule.
_IN_THE_DATA = (
    "On {subject}, the files are the source - they'll tell you that better than I can.",
    "{Subject}: that's in the data as it stands; I don't keep my own figures on it.",
    "For {subject}, go by what the files show - I'd only be guessing.",
)
_WHICH_ONE = (
    "Do you mean {topic}? If it's something else about {subject}, ask me that point directly.",
    "Is that about {topic}, or about something else on {subject}? Ask me the specific point.",
)
# An ask that names one slot of a sibling pair while what the speaker has speaks of the other
# (``customer_sim.slots``): ask which one is meant, in the player's words, stating nothing.
_WHICH_SLOT = (
    "Just so I answer the right thing: is that about {asked} or {other}? Ask me the exact "
    "point on {subject}.",
    "{Subject} - {asked} or {other}? Tell me which one you need and I'll say what applies.",
)
_REDIRECT = (
    "For {subject}, ask {owner} - that's their side, not mine.",
    "{Subject} is really one for {owner}.",
    "I'd put {subject} to {owner}; they'd know.",
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


def subject_of(text: str) -> str:
    """The phrase a question is about: its longest run of content words (at most five)."""
    runs: list[list[str]] = [[]]
    for word in _WORD.findall(text):
        bare = word.strip(".:'-").lower().replace("’", "'").split("'")[0]
        if not bare or bare in _FRAMING or bare.rstrip("s") in _FRAMING:
            runs.append([])
        else:
            runs[-1].append(word.strip(".:'-"))
    best = max(runs, key=len)
    return " ".join(best[:_MAX_SUBJECT_WORDS]) if best else "that"


def _fill(template: str, subject: str, **names: str) -> str:
    capital = subject[:1].upper() + subject[1:]
    return template.format(subject=subject, Subject=capital, **names)


def ask_specific(ask: str) -> str:
    """For an ask that names a fact's subject without asking for the rule."""
    return _fill(pick(_SPECIFIC, ask), subject_of(ask))


def in_the_data(ask: str) -> str:
    """For an ask about what the data holds, a file's mechanics or a figure's history
    (``customer_sim.intent``): the files answer it (which says nothing of any rule)."""
    return _fill(pick(_IN_THE_DATA, ask), subject_of(ask))


def which_one(ask: str, side_topic: str) -> str:
    """For a rule's question that only grazed a side topic (``FactFinder.withheld``): ask
    back whether the side topic is what is meant, instead of answering it as if it were."""
    return _fill(pick(_WHICH_ONE, ask), subject_of(ask), topic=side_topic)


def which_slot(ask: str, asked: str, other: str) -> str:
    """For an ask about one slot (``asked``, "the end") whose only match speaks of its sibling
    (``other``, "the start"): ask back which one is meant."""
    return _fill(pick(_WHICH_SLOT, ask), subject_of(ask), asked=asked, other=other)


def redirect(ask: str, owner: Stakeholder) -> str:
    """For an ask that belongs to a colleague's area."""
    return _fill(pick(_REDIRECT, ask), subject_of(ask), owner=owner.label)


def partial(ask: str) -> str:
    """After an answer to part of a plan the ask wants a verdict on."""
    return pick(_PARTIAL, ask)


def colleague(owner: Stakeholder, seed: str) -> str:
    """For a fact the addressee knows is someone else's."""
    return pick(_COLLEAGUE, seed).format(owner=owner.label)


def unsure(ask: str, speaker: Stakeholder) -> str:
    """For an ask nothing in the script speaks to: the subject, then the speaker's own line."""
    own = speaker.non_answers or (speaker.non_answer,)
    return f"{_fill(pick(_UNSURE, ask), subject_of(ask))} {pick(own, ask + '#')}"


def repeated(answer: str) -> str:
    return f"As I said: {answer}"
