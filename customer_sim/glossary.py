"""Definitions: "what is a demand charge?", "what do you mean by KS?", "what's a tier?".

A newcomer asks what a word means before they ask which rule it carries, and a colleague
answers that in a sentence. A definition is not a rule: a case's glossary (``customer.json``
``"glossary"``: terms and what they mean, written so that no hidden rule is stated) gives the
reply, and the reply discloses nothing. Only a message that asks what a term *means*, with no
other content left over, gets a definition: "what is the demand charge for a day with a new
peak?" asks how the charge counts, which is the rule's question, and the fact finder answers
it. The decision stage asks this module only when no new fact answered the message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from customer_sim.script import Definition
from customer_sim.text import STOPWORDS

_LEAD = r"^(?:(?:sorry|sry|ok|okay|so|and|but|hm+|wait|quick q(?:uestion)?|sorry if this is basic)[,:.!]* +)*"
# Each form leaves the asked phrase in the group ``term``.
_ASKS_MEANING = tuple(
    re.compile(_LEAD + form)
    for form in (
        r"(?:what|wat) (?:(?:do|did) )?(?:you|u) mean by (?P<term>.+)",
        r"(?:what|wat) does (?P<term>.+?) (?:mean|stand for|refer to)\b.*",
        r"(?:what|wat)(?:'?s| is| are| r) (?:a |an |the |your |this |that )?(?P<term>.+?)"
        r"(?: exactly| actually| again)?(?: when it'?s at home)?",
        r"(?:what|wat)(?:'?s| is) meant by (?P<term>.+)",
        r"(?:what|wat) means (?P<term>.+)",
        r"(?:what|wat) is (?:the )?meaning of (?P<term>.+)",
        r"(?:meaning of|define|definition of) (?P<term>.+)",
        r"(?:can|could) (?:you|u) (?:explain|define) (?:what )?(?P<term>.+?)(?: (?:is|means|are))?"
        r"(?: please)?",
        r"(?P<term>.+?),? (?:meaning|means) what",
    )
)
# Words a definition question may carry beside its term: where the term was seen, politeness.
_AROUND = frozenset(
    [
        "please",
        "exactly",
        "actually",
        "here",
        "there",
        "again",
        "in",
        "on",
        "your",
        "you",
        "the",
        "my",
        "our",
        "email",
        "mail",
        "request",
        "file",
        "files",
        "sheet",
        "column",
        "columns",
        "data",
        "csv",
        "mentioned",
        "mention",
        "said",
        "say",
        "says",
        "wrote",
        "message",
        "note",
        "notes",
        "brief",
        "earlier",
        "above",
        "just",
        "now",
        "term",
        "word",
        "phrase",
        "by",
        "mean",
        "means",
        "meaning",
        "that",
        "this",
        "it",
        "is",
        "a",
        "an",
        "of",
        "when",
        "its",
        "at",
        "home",
        "quick",
        "question",
        "bit",
        "basic",
        "for",
        "me",
        "us",
    ]
) | frozenset(STOPWORDS)


def asked_term(text: str) -> str | None:
    """The phrase a message asks the meaning of, or None when it asks something else."""
    folded = " ".join(text.lower().replace("\u2019", "'").split())
    folded = folded.strip(" ?!.")
    for pattern in _ASKS_MEANING:
        match = pattern.fullmatch(folded)
        if match:
            return match.group("term").strip(" '\"?!.,")
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9%]+", text.lower())


def lookup(glossary: Sequence[Definition], text: str) -> Definition | None:
    """The definition a message asks for: its asked phrase holds one of the entry's terms, and
    nothing else of substance (so a rule's question that names the term is not taken)."""
    phrase = asked_term(text)
    if not phrase:
        return None
    words = _words(phrase)
    best: tuple[int, Definition] | None = None
    for entry in glossary:
        for term in entry.terms:
            wanted = _words(term)
            at = _find(words, wanted)
            if at is None:
                continue
            rest = words[:at] + words[at + len(wanted) :]
            if all(word in _AROUND for word in rest) and (best is None or len(wanted) > best[0]):
                best = (len(wanted), entry)
    return best[1] if best else None


def _find(words: list[str], wanted: list[str]) -> int | None:
    for start in range(len(words) - len(wanted) + 1):
        window = words[start : start + len(wanted)]
        if all(_same(a, b) for a, b in zip(window, wanted, strict=True)):
            return start
    return None


def _same(word: str, term: str) -> bool:
    """A plural or a trailing "s" still names the term ("tiers", "the KS")."""
    return word == term or word.rstrip("s") == term.rstrip("s")
