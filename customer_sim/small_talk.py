"""The wording of replies that disclose nothing: courtesies, sweeps, the engagement, "why?".

These are the replies a newcomer meets first ("hi", "thanks", "anything else?"), so each is a
short, ordinary line a colleague would say, chosen deterministically (``compose.pick``) and
never quoting the message back. None states a rule: a sweep names what each person can speak
to (their public areas in the staff directory), a goal question gets the request's own summary,
a "why?" gets the reason the script gives for the fact just answered (its ``why``), or says the
speaker has nothing to add beyond it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from customer_sim import acts
from customer_sim.compose import gist, pick
from customer_sim.script import Fact, Stakeholder
from customer_sim.text import STOPWORDS, raw_tokens, stem

_COURTESY: dict[str, tuple[str, ...]] = {
    acts.GREETING: (
        "Hi! Good to have you on this - ask me whatever you need.",
        "Hello! Glad you're looking at this. What would you like to know?",
        "Hi there - happy to help. What's your first question?",
    ),
    acts.THANKS: (
        "You're welcome - just ask if anything else comes up.",
        "No problem at all. Shout if you need anything else.",
        "Glad that helps.",
    ),
    acts.ACK: (
        "Good - ask away if anything else comes up.",
        "Great. Let me know if you need anything else.",
        "Glad that's clear - shout if anything else comes up.",
    ),
    acts.FAREWELL: (
        "Thanks - good luck with it. I'm around if anything comes up.",
        "Sounds good. Speak soon.",
        "Great, talk soon - just message if something's unclear.",
    ),
    acts.APOLOGY: (
        "No problem at all.",
        "Don't worry about it - go ahead.",
        "Not at all - ask away, that's what I'm here for.",
    ),
    acts.SYMPATHY: (
        "Ha - it's manageable once you know about it. Anything else?",
        "It happens! Anything else you need from me?",
    ),
    acts.CHAT: (
        "Ha - can't complain! Anyway, what can I help you with?",
        "Ha, you know how it is. What can I do for you?",
    ),
    acts.COMPLIMENT: (
        "Ha, that's nice to hear - thank you! What can I help you with?",
        "Thanks, glad to hear it! What do you need from me?",
    ),
    acts.ABOUT_THEM: (
        "Ha, a good few years now - long enough to know where the surprises are! What can I "
        "help you with?",
        "Longer than I'd like to admit! Anyway - what do you need from me?",
    ),
    acts.WELL_WISH: (
        "Thanks, that's kind of you. Now, what can I help you with?",
        "That's kind, thank you. What do you need from me?",
    ),
    acts.SMALLTALK: (
        "Doing well, thanks - busy as ever. What can I help you with?",
        "All good here, thanks for asking! What do you need?",
    ),
}
_STATEMENT = (
    "Sounds good - ask me if anything's unclear along the way.",
    "Okay, go ahead. I'm here if you have questions.",
    "Fine by me - just ask if you need anything.",
)
_NOTED = (
    "Noted. If you want me to check part of that against how we work, ask me about it directly.",
    "Okay, noted - ask me about any part of it you'd like me to check.",
)
_SWEEP = (
    "Nothing I'd flag unprompted - ask me about the specifics and I'll tell you how we "
    "handle them.",
    "Nothing comes to mind off the top of my head - ask me about the details you're unsure of.",
)
_SURE = ("Yes, I'm sure.", "Yes, definitely.")
_SURE_MISCONCEIVED = ("That's how I understand it, yes.", "As far as I know, yes.")
_NO_REASON = (
    "That's simply how it's set up here - I don't have more background than that, but it "
    "holds for your plan.",
    "It's just the way we work - I can't give you more of the history, but you can rely on it.",
)
_NOTHING_BEFORE = (
    "Sorry, which point do you mean? Ask me about it directly and I'll explain.",
    "Which part do you mean? Ask me the point and I'll go through it.",
)
_DELIVERABLE = (
    "The file the request asks for, in the form submission_schema.json describes (its columns "
    "and units). Ask me if anything in it is unclear.",
)
_DEADLINE = (
    "The deadline is the one in the request - your workspace shows how much time you have "
    "left, and we'd like your final version by then.",
)


# "did anyone catch the cricket?", "do you cycle to work?": chat that asks about the person.
_ASKS_ABOUT_THEM = re.compile(r"\b(?:do|did|have) (?:you|u|anyone|any of you|you all)\b", re.I)
_ABOUT_ME = (
    "Ha, not lately - work keeps me busy! What can I help you with?",
    "Ha, I wish I had the time at the moment! Anyway, what do you need from me?",
)


# "how's the prep going, sounds hectic": the player guesses it is busy, and it is.
_BUSY = re.compile(r"\b(?:hectic|busy|mad|crazy|manic|stressful|chaos|chaotic)\b", re.I)
_BUSY_LINES = (
    "Hectic is the word! We'll get there, though. What can I help you with?",
    "It's busy, but nothing we can't handle. What do you need from me?",
)


def courtesy(kind: str, seed: str) -> str:
    if kind in (acts.SMALLTALK, acts.CHAT) and _BUSY.search(seed):
        return pick(_BUSY_LINES, seed)
    if kind in (acts.SMALLTALK, acts.CHAT) and _ASKS_ABOUT_THEM.search(seed):
        return pick(_ABOUT_ME, seed)
    return pick(_COURTESY[kind], seed)


def statement(seed: str) -> str:
    """For a message that tells rather than asks and touches nothing in the script ("I'll put
    the numbers together", "I'd like to go through a short checklist first")."""
    return pick(_STATEMENT, seed)


def noted(seed: str) -> str:
    """For a statement of a plan that touches a rule's subject: neither a yes nor a rule."""
    return pick(_NOTED, seed)


def sweep(speaker: Stakeholder, others: Sequence[Stakeholder], seed: str) -> str:
    """ "Anything else?": the customer does not volunteer rules; it says what each person can
    speak to (public, in the staff directory) so the player knows what to ask."""
    line = pick(_SWEEP, seed)
    parts = []
    if speaker.areas:
        parts.append(f"I can speak to {listed(speaker.areas)}")
    parts += [f"{p.name} covers {listed(p.areas)}" for p in others if p.areas]
    return f"{line} {'; '.join(parts)}." if parts else line


def who(
    people: Sequence[Stakeholder], question: str = "", speaker: Stakeholder | None = None
) -> str:
    """Whom to ask. "Who should I ask about the chiller and temperature?" names a subject: the
    people whose directory areas share its words are named alone; otherwise everyone is listed
    with their areas. The one replying speaks of themselves as "me", never by their own name."""
    named = _by_area(people, question)
    two = re.search(
        r"\b(?:vs\.?|versus|or|and\s+whom?\s+(?:about|for|on|with))\b", question, re.IGNORECASE
    )
    if len(named) == 1 and two:
        # "tariff questions vs battery questions", "who about the tariff and who about the
        # battery?": two subjects, one found
        named = []
    if speaker is not None and named == [speaker]:
        return "That's me - ask away."
    if speaker is not None and named and len(named) < len(people) and speaker in named:
        others = [p for p in named if p != speaker]
        return f"Me, and {' and '.join(p.label for p in others)} - start with @ and the first name for them."
    if named and len(named) < len(people):
        first = named[0].name.split()[0]
        people_named = " and ".join(p.label for p in named)
        return (
            f"That's {people_named} - start your message with @{first} and ask away."
            if len(named) == 1
            else f"That's {people_named}: start your message with @ and the first name."
        )

    def entry(p: Stakeholder) -> str:
        if p == speaker:
            return f"I cover {listed(p.areas)}" if p.areas else "I'm here too"
        return f"{p.label} covers {listed(p.areas)}" if p.areas else p.label

    directory = "; ".join(entry(p) for p in people)
    first = next((p.name.split()[0] for p in people if not p.default and p.name), "")
    example = f' ("@{first} ...")' if first else ""
    return (
        f"It depends on the subject: {directory}. To ask one of us, start your message with @ and "
        f"the first name{example}."
    )


def goal(summary: str, seed: str) -> str:
    if not summary:
        return "It's what the request says - ask me about any point in it that's unclear."
    # "The guided first case: plan how many trays ..." - the customer says the task, not the
    # case's description of itself.
    head, colon, task = summary.partition(":")
    if colon and "case" in head.lower() and task.strip():
        summary = task.strip()
    # "... for a school bake sale - ask before you build.": advice to the player, not the aim.
    summary = re.sub(r"\s+[-\u2013\u2014]\s+(?:ask|read|try|start|check)\b[^.]*\.?$", ".", summary)
    task = summary[:1].lower() + summary[1:]
    if acts.is_goal_check(seed) and not acts.asks_goal(seed):
        # "Let me start with the goal: you want the plan that raises the most, correct?": the
        # player's own wording is answered, neither confirmed (it may hide a rule) nor ignored.
        return (
            f"Here's how I'd put it: {task} If it's how exactly we'd count it that you want to "
            "pin down, ask me that directly."
        )
    return f"In short: {task} Ask me about any point that's unclear."


def deliverable(seed: str) -> str:
    return pick(_DELIVERABLE, seed)


def send_to(seed: str) -> str:
    return "Upload it in your workspace - that's where it reaches us, and we take it from there."


_JUDGED = (
    "We'll check it against how we actually work first - anything that breaks one of our rules "
    "we can't use - and then look at how much better it does for us than what we'd do without "
    "it. Ask me about the parts you're unsure of and I'll tell you how we count them.",
)


def judged(seed: str) -> str:
    """ "How will you judge whether the list is good?": the engagement's bar in general words;
    how a case counts its value is a rule, answered when it is asked."""
    return pick(_JUDGED, seed)


def sign_off(requester: Stakeholder, speaker: Stakeholder) -> str:
    """Who accepts the work: whoever asked for it (the case's default stakeholder)."""
    if requester.id == speaker.id:
        return "I do - it's my request, so it comes back to me, and I'll check it before it's used."
    return (
        f"{requester.label} - it's their request, so it goes back to them; the rest of us check "
        "our parts when you ask us."
    )


def deadline(seed: str) -> str:
    return pick(_DEADLINE, seed)


_REASON = re.compile(
    r"\b(?:because|since|so that|otherwise|that's why|which is why|so we|or else)\b", re.I
)


def why(fact: Fact | None, seed: str) -> str:
    """The fact's ``why``; else the sentence of its answer that gives a reason; else a plain
    "that's how it is" (never a new rule)."""
    if fact is None:
        return pick(_NOTHING_BEFORE, seed)
    if fact.why:
        return fact.why
    sentences = re.split(r"(?<=[.!?])\s+", fact.answer.strip())
    reason = next((s for s in sentences if _REASON.search(s)), None)
    return f"It comes down to this: {reason}" if reason else pick(_NO_REASON, seed)


def sure(fact: Fact | None, seed: str) -> str:
    """ "Are you sure? The request says 6": yes, with the part of the answer the doubt is about
    (``compose.gist``), so the player sees what is being confirmed."""
    if fact is None:
        return (
            "Which point do you mean? Tell me the part you're unsure of - if it's something in "
            "the request, quote it - and I'll check it for you."
        )
    line = pick(_SURE_MISCONCEIVED if fact.misconception else _SURE, seed)
    said = gist(fact.answer, seed)
    return f"{line} {said[:1].upper() + said[1:]}"


_PLAINLY = ("Put simply:", "In plain words:", "Sorry, that was a mouthful.")
# "what do you mean by 'the usual standards apply' in your email?": our own wording, quoted.
_QUOTES_US = re.compile(
    r"['\"\u2018\u201c].{3,80}['\"\u2019\u201d]|\b(?:in|from) (?:your|the) (?:email|request|"
    r"message|brief|note)\b",
    re.IGNORECASE,
)


def quotes_us(message: str) -> bool:
    """Does the message quote the customer's own wording (the request, an email)?"""
    return bool(_QUOTES_US.search(message))


_OUR_WORDING = (
    "That was shorthand on my part. Tell me which bit you need pinned down - a figure, a check, "
    "a rule - and I'll spell out how we actually do it.",
)


def mean(fact: Fact | None, seed: str) -> str:
    """What the speaker meant: the fact's ``plain`` line (the point in everyday words) when the
    script has one; else the gist (the answer's first sentence), not the whole answer again,
    and an offer to go into the part that is unclear."""
    if fact is None:
        if quotes_us(seed):
            return pick(_OUR_WORDING, seed)
        return pick(_NOTHING_BEFORE, seed)
    sentence = _sentence_asked_about(fact, seed)
    if fact.plain:
        plain = fact.plain[:1].upper() + fact.plain[1:]
        if sentence:
            return f"I mean this bit: {sentence} Put simply: {plain}"
        return f"{pick(_PLAINLY, seed)} {plain}"
    if sentence:
        return f"I mean this bit: {sentence} Which part of it is unclear? I'll go into it."
    first = re.split(r"(?<=[.!?])\s+", fact.answer.strip(), maxsplit=1)[0]
    return f"The short version: {first} Which part is unclear? I'll go into it."


# Words of "what do you mean ...?" that say nothing of what is unclear.
_MEAN_WORDS = frozenset(
    stem(w)
    for w in (
        "mean",
        "meant",
        "meaning",
        "sorry",
        "exactly",
        "say",
        "said",
        "simply",
        "plain",
        "words",
        "again",
        "explain",
        "bit",
        "part",
        "understand",
        "follow",
        "get",
        "lost",
        "confused",
    )
)


def _sentence_asked_about(fact: Fact, question: str) -> str | None:
    """The sentence of the fact's answer a "what do you mean the relay trips?" asks about:
    the one sharing the most of the question's own words, when the ``plain`` line shares
    none of them (else the plain line already covers it)."""
    wanted = {stem(w) for w in raw_tokens(question)} - _MEAN_WORDS - {stem(w) for w in STOPWORDS}
    if not wanted or wanted & {stem(w) for w in raw_tokens(fact.plain or "")}:
        return None
    sentences = re.split(r"(?<=[.!?])\s+", fact.answer.strip())
    shared = [len(wanted & {stem(w) for w in raw_tokens(s)}) for s in sentences]
    best = max(range(len(sentences)), key=lambda i: (shared[i], -i))
    return sentences[best] if shared[best] and best > 0 else None


# Words of a "who should I ask ..." question that say nothing of its subject.
_WHO_WORDS = frozenset(
    stem(w)
    for w in [
        "who",
        "whom",
        "ask",
        "asking",
        "talk",
        "speak",
        "contact",
        "question",
        "questions",
        "person",
        "people",
        "right",
        "best",
        "one",
        "thing",
        "things",
        "stuff",
        "side",
        "bit",
        "part",
        "about",
        "regarding",
        "for",
        "the",
        "and",
        "or",
        "vs",
        "versus",
        "else",
        "should",
        "could",
        "can",
        "would",
        "do",
        "i",
        "we",
        "you",
        "me",
        "is",
        "are",
        "there",
        "any",
        "anyone",
        "somebody",
        "someone",
        "before",
        "dig",
        "in",
        "please",
        "sorry",
        "if",
        "this",
        "basic",
        "responsible",
        "handles",
        "knows",
    ]
)


def _by_area(people: Sequence[Stakeholder], question: str) -> list[Stakeholder]:
    """The people whose directory areas share a content word of ``question``'s subject."""
    wanted = {stem(w) for w in raw_tokens(question)} - _WHO_WORDS - {stem(w) for w in STOPWORDS}
    if not wanted:
        return []
    return [p for p in people if wanted & {stem(w) for area in p.areas for w in raw_tokens(area)}]


def listed(areas: Sequence[str]) -> str:
    """ "a, b and c": items as a sentence says them."""
    items = list(areas)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
