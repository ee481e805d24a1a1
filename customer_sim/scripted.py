"""The scripted customer: offline, deterministic answers from a case's stakeholder script.

Each question unit is matched against the facts' example questions; a fact is released only
when a unit asks for it. The reply comes from one stakeholder: the one the message addresses,
else the owner of the best-matching fact, else the default. Facts owned by someone else are not
answered but pointed to their owner, as a colleague would. Patience and contact cost follow the
script; the same question with the same history always gets the same reply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from customer_sim.addressing import AddressBook
from customer_sim.base import Exchange, Reply, split_units
from customer_sim.matching import FactExamples, Match, Matcher, build_matcher
from customer_sim.script import Fact, Script, Stakeholder, load_script

_CACHE_SIZE = 32
_fitted: dict[tuple[str, int, int, str], tuple[Script, Matcher]] = {}

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def load_fitted(path: Path, matcher: str = "lexical") -> tuple[Script, Matcher]:
    """Read a script and fit its matcher once per file version.

    Fitting takes tens of milliseconds and a run asks up to 30 questions, so the fitted matcher
    is kept per (path, modification time, size): editing ``customer.json`` refits it.
    """
    resolved = path.resolve()
    stat = resolved.stat()
    key = (str(resolved), stat.st_mtime_ns, stat.st_size, matcher)
    if key not in _fitted:
        script = load_script(resolved)
        examples = [FactExamples(f.key, f.triggers, f.requires_any) for f in script.facts]
        if len(_fitted) >= _CACHE_SIZE:
            _fitted.pop(next(iter(_fitted)))
        _fitted[key] = (script, build_matcher(examples, matcher))
    return _fitted[key]


class ScriptedCustomer:
    """Answers from ``customer.json``; see the module docstring for the rules."""

    def __init__(self, script: Script, matcher: Matcher) -> None:
        self.script = script
        self.matcher = matcher
        self._addresses = AddressBook(script.stakeholders)
        self._owner = {fact.key: fact.stakeholder for fact in script.facts}

    @classmethod
    def from_hidden_dir(cls, hidden_dir: Path, *, matcher: str = "lexical") -> ScriptedCustomer:
        script, fitted = load_fitted(Path(hidden_dir) / "customer.json", matcher)
        return cls(script, fitted)

    def reply(self, question: str, history: Sequence[Exchange] = ()) -> Reply:
        addressed = self._addresses.resolve(question)
        matches = self.matched_facts(addressed.question)
        responder = self._responder(addressed.stakeholder_id, matches)
        own = [self.script.fact(m.key) for m in matches if self._owner[m.key] == responder.id]
        elsewhere = _unique(
            self._owner[m.key] for m in matches if self._owner[m.key] != responder.id
        )
        earlier = sum(1 for exchange in history if exchange.stakeholder_id == responder.id)
        exhausted = earlier >= responder.patience
        said_before = {key for exchange in history for key in exchange.disclosed}
        text = self._compose(responder, own, elsewhere, exhausted, said_before)
        return Reply(
            text=text,
            stakeholder_id=responder.id,
            stakeholder_name=responder.name,
            stakeholder_role=responder.role,
            disclosed=[fact.key for fact in own],
            units=split_units(question),
            contact_cost=responder.contact_cost,
            exhausted=exhausted,
        )

    def matched_facts(self, question: str) -> list[Match]:
        """Facts the question asks for, in the order its units ask them."""
        found: dict[str, Match] = {}
        for unit in split_units(question):
            for match in self.matcher.match(unit):
                found.setdefault(match.key, match)
        return list(found.values())

    def _responder(self, addressed: str | None, matches: list[Match]) -> Stakeholder:
        if addressed is not None:
            return self.script.stakeholder(addressed)
        if matches:
            best = max(matches, key=lambda m: m.score)
            return self.script.stakeholder(self._owner[best.key])
        return self.script.default_stakeholder

    def _compose(
        self,
        responder: Stakeholder,
        own: list[Fact],
        elsewhere: list[str],
        exhausted: bool,
        said_before: set[str],
    ) -> str:
        parts = [responder.impatient] if exhausted else []
        for fact in own:
            answer = _first_sentence(fact.answer) if exhausted else fact.answer
            parts.append(f"As I said: {answer}" if fact.key in said_before else answer)
        for stakeholder_id in elsewhere:
            other = self.script.stakeholder(stakeholder_id)
            parts.append(f"{_as_colleague(other)} would know that better - ask them.")
        if not own and not elsewhere:
            parts.append(responder.non_answer)
        return "\n\n".join(parts)


def _first_sentence(answer: str) -> str:
    return _SENTENCE_END.split(answer, maxsplit=1)[0]


def _as_colleague(person: Stakeholder) -> str:
    return f"{person.name} ({person.role})" if person.role else person.name


def _unique(items: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen
