"""The scripted customer: offline, deterministic answers from a case's stakeholder script.

``ScriptedCustomer.reply`` passes a message through the stages of ``customer_sim.stages``, one
after another (dialogue acts, asks, readings in context, candidate facts, the decision, the
wording); ``walk`` returns every stage's result for diagnostics. The same question with the
same history always gets the same reply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from customer_sim.base import Exchange, Reply
from customer_sim.deliverable import Form, load_form
from customer_sim.finder import FactFinder, Found
from customer_sim.script import Script, load_hidden_script, public_summary
from customer_sim.segments import segments
from customer_sim.shorthand import spelled_out
from customer_sim.stages import asks, candidates, decision, dialogue, readings, wording
from customer_sim.stages.case import Case
from customer_sim.vocabulary import data_vocabulary

_CACHE_SIZE = 32
_fitted: dict[tuple[str, ...], tuple[Script, FactFinder]] = {}


def load_fitted(hidden_dir: Path) -> tuple[Script, FactFinder]:
    """Read a case's script and build its fact finder once per file version.

    Kept per (folder, modification times, sizes of customer.json and gt.json): editing either
    file rebuilds it, and a run's 30 questions share one.
    """
    resolved = Path(hidden_dir).resolve()
    stamp: list[str] = [str(resolved)]
    for name in ("customer.json", "gt.json"):
        path = resolved / name
        if path.exists():
            stat = path.stat()
            stamp.append(f"{name}:{stat.st_mtime_ns}:{stat.st_size}")
    key = tuple(stamp)
    if key not in _fitted:
        script = load_hidden_script(resolved)
        if len(_fitted) >= _CACHE_SIZE:
            _fitted.pop(next(iter(_fitted)))
        _fitted[key] = (script, FactFinder(script.facts))
    return _fitted[key]


@dataclass(frozen=True)
class Walk:
    """One message's way through the stages: each field is a stage's result, in stage order
    (``customer_sim.stages.STAGES``), and each result holds the one it was made from."""

    dialogue: dialogue.Heard
    asks: asks.Asks
    readings: readings.Readings
    candidates: candidates.Candidates
    decision: decision.Decision
    wording: Reply


class ScriptedCustomer:
    """Answers from ``customer.json`` (and ``gt.json``) through ``customer_sim.stages``."""

    def __init__(
        self,
        script: Script,
        finder: FactFinder,
        *,
        summary: str = "",
        data_words: frozenset[str] = frozenset(),
        form: Form | None = None,
    ) -> None:
        self.script = script
        self.finder = finder
        self.case = Case(script, finder, summary, data_words, form)

    @classmethod
    def from_hidden_dir(cls, hidden_dir: Path | str) -> ScriptedCustomer:
        script, finder = load_fitted(Path(hidden_dir))
        package = Path(hidden_dir).parent
        return cls(
            script,
            finder,
            summary=public_summary(package),
            data_words=data_vocabulary(package),
            form=load_form(package),
        )

    def reply(self, question: str, history: Sequence[Exchange] = ()) -> Reply:
        return self.walk(question, history).wording

    def walk(self, question: str, history: Sequence[Exchange] = ()) -> Walk:
        """Every stage's result for one message, top to bottom (chat shorthand spelled out and
        typing slips put right first: ``customer_sim.shorthand``, ``customer_sim.typos``)."""
        question = self.case.typos.fixed(spelled_out(question))
        heard = dialogue.hear(self.case, question, history)
        found = asks.find(heard)
        read = readings.read(self.case, found, history)
        facts = candidates.gather(self.case, read, question)
        decided = decision.decide(self.case, facts, history)
        return Walk(heard, found, read, facts, decided, wording.word(self.case, decided, history))

    def matched_facts(self, question: str) -> list[Found]:
        """Facts the question asks for, in the order its asks ask them (for diagnostics): the
        readings of stage 3 over every piece, courtesies included."""
        found: dict[str, Found] = {}
        parts = segments(self.case.typos.fixed(spelled_out(question)), self.case.addresses)
        asking = asks.asking(parts)
        eligible = asks.eligible(parts, asking)
        for index in sorted(eligible):
            for fact in readings.asked(self.case, parts, index, eligible):
                found.setdefault(fact.key, Found(fact.key, 1.0))
        return list(found.values())
