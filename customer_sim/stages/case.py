"""What every stage may consult about the case: the script, its fact finder and indexes of both.

Built once per customer (``ScriptedCustomer``) and never changed by a reply, so a stage reads
the case but cannot carry anything from one message to the next: the same message with the
same history always gets the same reply.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from customer_sim.addressing import AddressBook, names_of
from customer_sim.deliverable import Form
from customer_sim.finder import FactFinder
from customer_sim.script import Fact, Script, Stakeholder
from customer_sim.typos import Corrector
from customer_sim.vocabulary import case_vocabulary

# A fact touched this strongly (two of its pattern's groups) has its subject named.
_NAMED = 2


@dataclass(frozen=True)
class Case:
    """A case as the stages see it. ``summary`` is ``case.toml``'s public summary (the goal in
    the request's words); ``vocabulary`` the stems of the nouns the case knows (columns, file
    names, areas, topics), the only words a non-answer may quote; ``form`` the deliverable's
    public form (``submission_schema.json``), which the customer may check a player's columns
    against."""

    script: Script
    finder: FactFinder
    summary: str = ""
    vocabulary: frozenset[str] = frozenset()
    form: Form | None = None
    addresses: AddressBook = field(init=False)
    people: dict[str, Stakeholder] = field(init=False)
    facts: dict[str, Fact] = field(init=False)
    names: list[str] = field(init=False)
    typos: Corrector = field(init=False)

    def __post_init__(self) -> None:
        people = self.script.stakeholders
        set_ = object.__setattr__  # frozen: the indexes are derived once, here
        set_(self, "addresses", AddressBook(people))
        set_(self, "people", {person.id: person for person in people})
        set_(self, "facts", {fact.key: fact for fact in self.script.facts})
        names = sorted({n for p in people for n in names_of(p)}, key=len, reverse=True)
        set_(self, "names", names)
        set_(self, "vocabulary", case_vocabulary(self.script) | self.vocabulary)
        texts = _case_texts(self.script, self.summary) + sorted(self.vocabulary)
        set_(self, "typos", Corrector(texts))

    def asks_fact(self, text: str) -> bool:
        return bool(self.finder.asked(text))

    def names_subject(self, text: str) -> bool:
        """Does ``text`` name a fact's subject with more than a word in passing?"""
        return any(found.strength >= _NAMED for found in self.finder.touched(text))

    @property
    def default(self) -> Stakeholder:
        """Who answers what nobody in particular was asked."""
        return self.script.default_stakeholder


def _case_texts(script: Script, summary: str) -> list[str]:
    """The case's own words, which a typing slip is put right towards and never away from:
    what its people say (answers, plain lines, reasons, definitions) and the words it defines
    ("frigo" is a van word here, not a slip for "frig"). The nouns of the player-visible files
    (``vocabulary``) are added by the caller."""
    texts = [summary]
    for person in script.stakeholders:
        texts += [person.name, person.role, *person.areas]
    for fact in script.facts:
        texts += [fact.answer, fact.topic, fact.why, fact.plain, *fact.triggers]
    for definition in script.glossary:
        texts += [*definition.terms, definition.says]
    return texts
