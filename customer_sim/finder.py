"""Which facts of a script one ask (a segment of a message) asks for, and which it only touches.

Facts with an ask pattern (``customer_sim.patterns``) are decided by their pattern: a fact is
asked for when one of its alternatives is complete. Facts without one (older packages) fall back
to the lexical matcher over their example questions. "Touched" facts are those whose pattern's
subject appears without the ask: the customer uses them to answer a near miss in kind ("what do
you need to know about heavy pallets?") without disclosing the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from customer_sim.context import set_aside
from customer_sim.matching import FactExamples, LexicalMatcher
from customer_sim.patterns import TermIndex, strength, tokens_of, touches
from customer_sim.script import Fact

_MAX_CACHE = 4096


@dataclass(frozen=True)
class Found:
    """A fact an ask fired, with how strongly (groups of the completed alternative)."""

    key: str
    strength: float


class FactFinder:
    """Decides, for one script, which facts an ask is asking for (see module docstring)."""

    def __init__(self, facts: Sequence[Fact]) -> None:
        self._patterned = [fact for fact in facts if fact.pattern is not None]
        self._index = TermIndex(
            term for fact in self._patterned if fact.pattern for term in fact.pattern.terms()
        )
        rest = [f for f in facts if f.pattern is None and f.triggers]
        self._lexical = (
            LexicalMatcher([FactExamples(f.key, f.triggers, f.requires_any) for f in rest])
            if rest
            else None
        )
        self._order = {fact.key: i for i, fact in enumerate(facts)}
        self._cache: dict[str, tuple[list[Found], list[Found]]] = {}

    def asked(self, text: str) -> list[Found]:
        """Facts the ask asks for, strongest first (ties in script order)."""
        return self._decide(text)[0]

    def touched(self, text: str) -> list[Found]:
        """Facts whose subject the ask names without asking for them, most touched first."""
        return self._decide(text)[1]

    def _decide(self, text: str) -> tuple[list[Found], list[Found]]:
        if text not in self._cache:
            if len(self._cache) >= _MAX_CACHE:
                self._cache.clear()
            self._cache[text] = self._compute(text)
        return self._cache[text]

    def _compute(self, text: str) -> tuple[list[Found], list[Found]]:
        # What the ask sets aside ("Besides X, ...") is not what it asks about.
        found_terms = self._index.present(tokens_of(set_aside(text)))
        asked: list[Found] = []
        near: list[Found] = []
        for fact in self._patterned:
            assert fact.pattern is not None
            fired = strength(fact.pattern, found_terms)
            if fired:
                asked.append(Found(fact.key, float(fired)))
            elif touched := touches(fact.pattern, found_terms):
                near.append(Found(fact.key, float(touched)))
        if self._lexical is not None:
            asked.extend(Found(m.key, m.score) for m in self._lexical.match(text))
        return self._ranked(asked), self._ranked(near)

    def _ranked(self, found: list[Found]) -> list[Found]:
        return sorted(found, key=lambda f: (-f.strength, self._order[f.key]))
