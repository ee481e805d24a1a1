"""A case's outside probe sets (``hidden/probes/``): reading them and scoring the customer.

The probe sets are written by someone who never saw the customer script or the patterns (see
``cases/README.md``), committed before tuning, and split once into a ``dev`` half (tune on it)
and a ``test`` half (report it, never tune on it). ``bench/matching.py``,
``bench/judge_agreement.py`` and the admission report all read them through here, so the numbers
a case author sees are the numbers the README quotes.

What is counted per half (targets are ``gt.json`` keys; a target counts as revealed when the
reply disclosed one of its facts): pair hits ((message, expected target) pairs revealed),
near-miss leaks (``near_miss`` messages revealing any target), other leaks (``background`` and
``off_topic`` ones), wrong answers (a rule message that missed an expected target but disclosed
some other fact: an answer, but not to the question; when that other fact is a stakeholder's
designed misconception, asked of the person who holds it, it counts as a misconception answer
instead) and the trigger overlap (share of a rule
message's content words found in the nearest authored example of its target).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from customer_sim.patterns import Term
from customer_sim.text import content_stems

if TYPE_CHECKING:
    from customer_sim.scripted import ScriptedCustomer

HALVES = ("dev", "test")
MIN_HIT_RATE = 0.90
MAX_NEAR_LEAK = 0.03


def load(hidden_dir: Path, name: str) -> dict[str, Any] | None:
    """``questions.json`` or ``coverage.json`` of a case, or None when the case has none.

    Later outside sets may sit beside the first as ``questions.<label>.json`` (say, a second
    writer's dev-only set): their items are appended, each keeping its own ``split``.
    """
    folder = hidden_dir / "probes"
    path = folder / name
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    stem, suffix = name.rsplit(".", 1)
    key = "questions" if "questions" in data else "items"
    data[key] = [_from_writer(item, FIRST_WRITER) for item in data[key]]
    for extra in sorted(folder.glob(f"{stem}.*.{suffix}")):
        more = json.loads(extra.read_text(encoding="utf-8"))
        label = extra.name[len(stem) + 1 : -len(suffix) - 1]
        data[key] = list(data[key]) + [_from_writer(i, label) for i in more.get(key, [])]
    return data


# The writer of the first set (``questions.json``); later sets are named by their file label.
FIRST_WRITER = "writer1"


def writers_of(hidden_dir: Path) -> list[str]:
    """The writers of a case's probe questions, in number order (writer1, writer2, ...)."""
    probes = load(hidden_dir, "questions.json")
    labels = {q.get("writer", FIRST_WRITER) for q in (probes or {}).get("questions", [])}
    return sorted(labels, key=lambda label: (len(label), label))


def _from_writer(item: Any, label: str) -> Any:
    """An item labelled with the set (writer) it comes from, as ``writer`` (unless it has one)."""
    return {**item, "writer": item.get("writer", label)} if isinstance(item, dict) else item


def gt_of(hidden_dir: Path) -> dict[str, Any]:
    """``gt.json`` as the customer reads it: placeholders filled from ``values.json``, so the
    judge and the benches see the variant's figures and names ("Café Oranjerie"), not
    ``{{moved_customer}}``."""
    from customer_sim.placeholders import read_rendered

    data: dict[str, Any] = json.loads(read_rendered(hidden_dir, "gt.json"))
    return data


def target_facts(gt: dict[str, Any]) -> dict[str, set[str]]:
    """Each target key with the script facts that state it."""
    return {t["key"]: set(t.get("facts", [])) for t in gt.get("targets", [])}


def examples_by_target(hidden_dir: Path, gt: dict[str, Any]) -> dict[str, list[str]]:
    """The authored example questions of each target (its triggers and its facts' triggers)."""
    script = json.loads((hidden_dir / "customer.json").read_text(encoding="utf-8"))
    by_fact = {f["key"]: list(f.get("triggers", [])) for f in script.get("facts", [])}
    return {
        t["key"]: list(t.get("triggers", []))
        + [q for f in t.get("facts", []) for q in by_fact.get(f, [])]
        for t in gt.get("targets", [])
    }


def overlap(question: str, examples: Iterable[str]) -> float:
    """Share of the question's content words found in its nearest example question."""
    words = set(content_stems(question))
    if not words:
        return 0.0
    return max((len(words & set(content_stems(e))) / len(words) for e in examples), default=0.0)


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def percent(part: int, whole: int) -> str:
    return f"{part / whole:.1%} ({part}/{whole})" if whole else "n/a"


@dataclass
class Half:
    """The counts of one half of a case's probe set."""

    messages: int = 0
    pairs: int = 0
    hits: int = 0
    near: int = 0
    near_leaks: int = 0
    other: int = 0
    other_leaks: int = 0
    wrong: int = 0
    misconceptions: int = 0
    # missed (message, target) pairs whose rule the customer recognised but the person asked
    # does not hold: pointed on to its owner (FDE-Gym: finding who knows is part of the job)
    pointed: int = 0
    overlaps: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def hit_rate(self) -> float:
        return self.hits / self.pairs if self.pairs else 1.0

    @property
    def near_leak_rate(self) -> float:
        return self.near_leaks / self.near if self.near else 0.0

    @property
    def passed(self) -> bool:
        return (
            self.hit_rate >= MIN_HIT_RATE
            and self.near_leak_rate <= MAX_NEAR_LEAK
            and self.wrong == 0
        )


def score(
    half: Half,
    question: dict[str, Any],
    disclosed: list[str],
    facts_of: dict[str, set[str]],
    examples: dict[str, list[str]],
    misconceived: frozenset[str] = frozenset(),
    recognised: Callable[[], frozenset[str]] = frozenset,
) -> None:
    """Count one probe message's reply into ``half`` (``misconceived``: misconception facts;
    ``recognised()``: the facts the message asks for, said or not, see ``Half.pointed``; only
    called for a message that missed a target)."""
    half.messages += 1
    text, expect = question["text"], list(question.get("expect") or [])
    revealed = sorted(key for key, facts in facts_of.items() if facts & set(disclosed))
    if not expect:
        leaked = bool(revealed)
        if question.get("kind") == "near_miss":
            half.near += 1
            half.near_leaks += leaked
        else:
            half.other += 1
            half.other_leaks += leaked
        if leaked:
            half.failures.append(f"LEAK ({question.get('kind')}) {text!r} -> {revealed}")
        return
    missed = [key for key in expect if key not in revealed]
    half.pairs += len(expect)
    half.hits += len(expect) - len(missed)
    for key in expect:
        half.overlaps.append(overlap(text, examples.get(key, [])))
    expected_facts = set().union(*(facts_of.get(key, set()) for key in expect))
    others = [key for key in disclosed if key not in expected_facts]
    if missed:
        asked_for = recognised()
        half.pointed += sum(bool(facts_of.get(key, set()) & asked_for) for key in missed)
        # A stakeholder's designed misconception (FDE-Gym §3.3) answering the question it was
        # written for is the case working as intended, not the matcher answering the wrong fact.
        designed = bool(others) and set(others) <= misconceived
        half.misconceptions += designed
        half.wrong += bool(others) and not designed
        pointed = all(facts_of.get(key, set()) & asked_for for key in missed)
        label = (
            "MISCONCEPTION"
            if designed
            else "WRONG"
            if others
            else "POINTED ON"
            if pointed
            else "MISS"
        )
        half.failures.append(f"{label} {text!r} expected {missed}, disclosed {disclosed}")


def without_vetoes(customer: ScriptedCustomer) -> ScriptedCustomer:
    """The same customer with every pattern's ``unless`` groups removed."""
    from customer_sim.finder import FactFinder
    from customer_sim.scripted import ScriptedCustomer

    facts = tuple(
        replace(fact, pattern=replace(fact.pattern, unless=())) if fact.pattern else fact
        for fact in customer.script.facts
    )
    script = replace(customer.script, facts=facts)
    return ScriptedCustomer(script, FactFinder(facts))


def measure(
    hidden_dir: Path,
    writers: Iterable[str] | None = None,
    exclude_writers: Iterable[str] = (),
    *,
    vetoes: bool = True,
) -> dict[str, Half] | None:
    """Every probe message to a fresh scripted customer; the counts per half (None: no set).

    ``writers`` keeps only the items of these sets (``writer1`` is ``questions.json``, the rest
    are named by their file label, ``writer7`` for ``questions.writer7.json``) and
    ``exclude_writers`` drops some: leave-one-writer-out measurement on the dev half.
    ``vetoes=False`` drops every pattern's ``unless`` groups: what the near misses and wrong
    answers would be without the vetoes written for known items, a proxy for the ones nobody
    has written a veto for yet (how much of a case's discipline rests on per-item vetoes)."""
    probes = load(hidden_dir, "questions.json")
    if probes is None:
        return None
    customer = _customer(hidden_dir, vetoes)
    gt = gt_of(hidden_dir)
    facts_of = target_facts(gt)
    examples = examples_by_target(hidden_dir, gt)
    halves = {half: Half() for half in HALVES}
    misconceived = _misconceived(customer)
    for question in _by_writer(probes["questions"], writers, exclude_writers):
        disclosed = customer.reply(question["text"]).disclosed
        half = halves[question.get("split", "dev")]
        recognised = partial(_recognised, customer, question["text"])
        score(half, question, disclosed, facts_of, examples, misconceived, recognised)
    return halves


def _recognised(customer: ScriptedCustomer, text: str) -> frozenset[str]:
    """The facts a message asks for, whether or not the person asked may say them."""
    return frozenset(found.key for found in customer.matched_facts(text))


def _customer(hidden_dir: Path, vetoes: bool) -> ScriptedCustomer:
    """The case's scripted customer, or the same without its vetoes (see ``measure``)."""
    from customer_sim.scripted import ScriptedCustomer

    customer = ScriptedCustomer.from_hidden_dir(hidden_dir)
    return customer if vetoes else without_vetoes(customer)


def _misconceived(customer: ScriptedCustomer) -> frozenset[str]:
    """The keys of the script's designed misconceptions (FDE-Gym §3.3)."""
    return frozenset(f.key for f in customer.script.facts if f.misconception)


def _by_writer(
    questions: Iterable[dict[str, Any]],
    writers: Iterable[str] | None,
    exclude_writers: Iterable[str],
) -> Iterator[dict[str, Any]]:
    """The probe items of the ``writers`` kept (all when None), less ``exclude_writers``."""
    keep = set(writers) if writers is not None else None
    drop = set(exclude_writers)
    for question in questions:
        writer = question.get("writer", FIRST_WRITER)
        if (keep is None or writer in keep) and writer not in drop:
            yield question


# A term no question can contain: an alternative holding it never completes.
_NEVER: tuple[Term, ...] = (Term(("#never#",), False),)


def unable_to_answer(customer: ScriptedCustomer, keys: set[str]) -> ScriptedCustomer:
    """The same customer with the facts ``keys`` unable to fire: every alternative of their
    patterns gets a group nothing matches, so their words still count as touched."""
    from customer_sim.finder import FactFinder
    from customer_sim.scripted import ScriptedCustomer

    facts = tuple(
        replace(
            fact,
            pattern=replace(fact.pattern, asks=tuple((*alt, _NEVER) for alt in fact.pattern.asks)),
        )
        if fact.key in keys and fact.pattern
        else fact
        for fact in customer.script.facts
    )
    script = replace(customer.script, facts=facts)
    return ScriptedCustomer(script, FactFinder(facts))


@dataclass
class MissProxy:
    """What the customer says to a rule question when the asked rule cannot fire (a miss)."""

    items: int = 0
    other: int = 0
    designed: int = 0
    unsure: int = 0
    failures: list[str] = field(default_factory=list)


def miss_proxy(
    hidden_dir: Path,
    writers: Iterable[str] | None = None,
    exclude_writers: Iterable[str] = (),
    *,
    vetoes: bool = True,
) -> MissProxy | None:
    """Each single-target rule question of the dev half, asked with its target's facts unable
    to fire: does another fact answer it (``other``: the wrong answer a real miss would get),
    a designed misconception (``designed``), or nothing (``unsure``: a non-answer or asking
    back)? A customer that is honestly unsure when it misses keeps ``other`` low; every miss
    on the frozen half that has another fact answering is a wrong answer there."""
    probes = load(hidden_dir, "questions.json")
    if probes is None:
        return None
    customer = _customer(hidden_dir, vetoes)
    facts_of = target_facts(gt_of(hidden_dir))
    misconceived = _misconceived(customer)
    unable = {key: unable_to_answer(customer, facts) for key, facts in facts_of.items()}
    result = MissProxy()
    for question in _by_writer(probes["questions"], writers, exclude_writers):
        expect = question.get("expect") or []
        if question.get("split", "dev") != "dev" or len(expect) != 1 or expect[0] not in unable:
            continue
        said = set(unable[expect[0]].reply(question["text"]).disclosed) - facts_of[expect[0]]
        result.items += 1
        if not said:
            result.unsure += 1
        elif said <= misconceived:
            result.designed += 1
        else:
            result.other += 1
            result.failures.append(
                f"OTHER {question['text']!r} without {expect[0]} -> {sorted(said)}"
            )
    return result
