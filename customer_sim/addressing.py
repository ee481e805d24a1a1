"""Working out whom a message is addressed to ("@dana", "Dana, ...", "question for QA: ...").

Players pick a stakeholder the way they would in a chat: a mention, a name before a comma or
colon, "question for <role>", or a person's own name said to them ("thanks Helen", "who told
you that, Alan?"). Only those explicit forms count; a name mentioned in passing
("is the manager OK with...") does not redirect the question, because guessing wrong would
charge the player another stakeholder's contact cost for nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from customer_sim.script import Stakeholder
from customer_sim.text import fold


@dataclass(frozen=True)
class Addressed:
    """The stakeholder a message names (None when it names no one) and the message without
    the address, which is what gets matched against facts."""

    stakeholder_id: str | None
    question: str


_GREETING = r"(?:(?:hi|hello|hey|dear|ok|okay|so|right|and|also|then|plus|now)\s*,?\s+)?"
_LEAD_IN = (
    r"(?:(?:(?:a|one|another|quick|my|next)\s+)*questions?\s+(?:for|to)\s+"
    r"|(?:this\s+is\s+|this\s+one\s+is\s+)?for\s+|to\s+|ask(?:ing)?\s+)?"
)
_ARTICLE = r"(?:the\s+|our\s+|your\s+)?"
_SEPARATOR = r"\s*(?:[,:\-\u2013\u2014]|\?)\s*"
_SHORT_COURTESY = 6
_QUESTION_WORDS = (
    r"what|whats|which|who|when|where|why|how|is|are|was|were|do|does|did|can|could|should|"
    r"would|will|any|quick"
)


class AddressBook:
    """Maps the names, roles and aliases in a script to stakeholder ids."""

    def __init__(self, stakeholders: tuple[Stakeholder, ...]) -> None:
        names: dict[str, str] = {}
        for person in stakeholders:
            for name in names_of(person):
                names.setdefault(name, person.id)
        # Longest names first so "operations manager" wins over "operations".
        self._names = dict(sorted(names.items(), key=lambda item: (-len(item[0]), item[0])))
        alternatives = "|".join(re.escape(name) for name in self._names)
        # "... and priya, what's the pass mark": a new ask for another person mid-sentence;
        # "please: Aylin, ...": a name after a colon lead-in opens an ask for that person.
        self.handover = re.compile(
            rf",?\s+(?:and|also|plus|then)\s+(?=@?(?:{alternatives})\b\s*[,:]?\s*\w)"
            rf"|(?<=:)\s+(?=@?(?:{alternatives})\b\s*[,:])",
            re.IGNORECASE,
        )
        self._mention = re.compile(rf"(?<![\w@])@({alternatives})\b[,:]?\s*")
        self._leading = re.compile(
            rf"^\s*{_GREETING}{_LEAD_IN}{_ARTICLE}({alternatives})\b{_SEPARATOR}"
        )
        people = "|".join(
            re.escape(name)
            for name in sorted(
                {n for person in stakeholders for n in _person_names(person)}, key=len, reverse=True
            )
        )
        # Chat style without a comma: "hey kofi whats ...", "priya what's the pass mark".
        self._bare = re.compile(rf"^\s*{_GREETING}@?({people})\s+(?=(?:{_QUESTION_WORDS})\b)")
        # A name said to someone at the end or after a courtesy: "thanks Helen", "Thanks Leah,
        # you've been lovely", "Who told you that, Alan?"
        self._vocative = re.compile(
            rf"\b(?:thanks|thank you|thx|cheers|ta|bye|goodbye|see you|morning|hi|hello|hey)"
            rf"\s+({people})\b|,\s*({people})\s*\?+\s*$"
        )
        self._inline = re.compile(
            rf"\(?\b(?:questions?\s+(?:for|to)|for)\s+{_ARTICLE}({alternatives})\s*[:)]\s*"
        )

    def resolve(self, message: str) -> Addressed:
        folded = fold(message)
        for pattern in (self._mention, self._leading, self._bare, self._inline):
            found = pattern.search(folded)
            if found:
                rest = folded[: found.start()] + " " + folded[found.end() :]
                return Addressed(self._names[found.group(1)], rest.strip())
        found = self._vocative.search(folded)
        # "Thanks for sending everything over, Maren. <questions>" is politeness, not a choice
        # of whom to ask: only a short thanks or a question ending on the name chooses.
        if found and (found.group(2) or len(folded.split()) <= _SHORT_COURTESY):
            name = found.group(1) or found.group(2)
            said = found.group(0).replace(name, " ") if found.group(1) else " "
            rest = folded[: found.start()] + said + folded[found.end() :]
            return Addressed(self._names[name], " ".join(rest.split()))
        return Addressed(None, message)


def _person_names(person: Stakeholder) -> set[str]:
    """A person's own names (not role aliases), which may address them without a comma."""
    full = fold(person.name)
    return {name for name in (fold(person.id), full, full.split()[0]) if name.strip()}


def names_of(person: Stakeholder) -> set[str]:
    """Every name a message may call this person by (id, name, first name, role, aliases)."""
    full = fold(person.name)
    candidates = {fold(person.id), full, full.split()[0], fold(person.role)}
    candidates.update(fold(alias) for alias in person.aliases)
    return {name.strip() for name in candidates if name.strip()}
