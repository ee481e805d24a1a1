"""Loading and checking a case's stakeholder script (``hidden/customer.json``).

The format is documented in ``cases/README.md``. Loading fails loudly with a ``ScriptError``
that names the offending entry, because a case author fixing a typo in a fact should learn
about it from ``validate_cases``, not from a player who never gets an answer.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from customer_sim.patterns import AskPattern, PatternError, parse_pattern, read_concepts
from customer_sim.placeholders import PlaceholderError, read_rendered

DEFAULT_NON_ANSWER = "I'm not sure what you're after there - could you ask it another way?"
DEFAULT_IMPATIENT = "I've answered a lot of questions already, so I'll keep this short."


class ScriptError(ValueError):
    """``customer.json`` is not a usable stakeholder script."""


@dataclass(frozen=True)
class Stakeholder:
    id: str
    name: str
    role: str
    aliases: tuple[str, ...]
    default: bool
    patience: int
    contact_cost: float
    non_answer: str
    impatient: str
    areas: tuple[str, ...] = ()
    non_answers: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """ "Name (Role)", as colleagues and multi-speaker replies refer to this person; a role
        with brackets of its own ("Energy Buyer (Finance)") reads "Energy Buyer - Finance", so
        a label never nests brackets."""
        if not self.role:
            return self.name
        role = re.sub(r"\s*\(([^()]*)\)", r" - \1", self.role).strip()
        return f"{self.name} ({role})"


@dataclass(frozen=True)
class Misconception:
    """Why a fact's answer is wrong on purpose: what contradicts it and a note for authors."""

    contradicted_by: tuple[str, ...]
    note: str


@dataclass(frozen=True)
class Fact:
    key: str
    stakeholder: str
    answer: str
    triggers: tuple[str, ...]
    requires_any: tuple[str, ...]
    misconception: Misconception | None
    pattern: AskPattern | None = None
    topic: str = ""
    target: str | None = None
    reviewed_overlaps: tuple[str, ...] = ()
    known_by: tuple[str, ...] = ()
    #: The reason behind the rule, said when the player asks "why?" right after it.
    why: str = ""
    #: The same point in everyday words, said for "what do you mean?" / "say it more simply".
    plain: str = ""


@dataclass(frozen=True)
class Definition:
    """What a word of the case means ("demand charge", "KS"), in everyday terms and stating no
    hidden rule: the reply to "what is a demand charge?" (``customer_sim.glossary``)."""

    terms: tuple[str, ...]
    says: str
    stakeholder: str = ""


@dataclass(frozen=True)
class Script:
    stakeholders: tuple[Stakeholder, ...]
    facts: tuple[Fact, ...]
    glossary: tuple[Definition, ...] = ()

    @property
    def default_stakeholder(self) -> Stakeholder:
        return next((s for s in self.stakeholders if s.default), self.stakeholders[0])

    def stakeholder(self, stakeholder_id: str) -> Stakeholder:
        return next(s for s in self.stakeholders if s.id == stakeholder_id)

    def fact(self, key: str) -> Fact:
        return next(f for f in self.facts if f.key == key)


def load_script(path: Path) -> Script:
    """Read and check a ``customer.json`` file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ScriptError(f"{path}: cannot read the script ({exc})") from exc
    return parse_script(raw, source=str(path))


def load_hidden_script(hidden_dir: Path) -> Script:
    """Read a case's ``customer.json`` together with its ``gt.json`` (when there is one).

    A fact that belongs to a clarification target and has no ``match`` of its own takes the
    target's: the customer and the coverage judge then decide "does this question ask for the
    rule" with one pattern, so what the customer disclosed and what the coverage page credits
    agree.
    """
    customer = hidden_dir / "customer.json"
    try:
        # Rendered from values.json when there is one (a variant's figures; placeholders.py).
        raw = json.loads(read_rendered(hidden_dir, "customer.json"))
        gt_path = hidden_dir / "gt.json"
        gt = json.loads(read_rendered(hidden_dir, "gt.json")) if gt_path.exists() else {}
    except (OSError, json.JSONDecodeError, PlaceholderError) as exc:
        raise ScriptError(f"{hidden_dir}: cannot read the script ({exc})") from exc
    try:
        gt_concepts = read_concepts(gt, "gt.json")
    except PatternError as exc:
        raise ScriptError(str(exc)) from exc
    script = parse_script(raw, source=str(customer), extra_concepts=gt_concepts)
    return _with_targets(script, gt if isinstance(gt, dict) else {}, gt_concepts)


def _with_targets(script: Script, gt: dict[str, Any], concepts: dict[str, str]) -> Script:
    facts = {fact.key: fact for fact in script.facts}
    for index, target in enumerate(gt.get("targets", [])):
        if not isinstance(target, dict):
            continue
        where = f"gt.json: targets[{index}].match"
        try:
            pattern = (
                parse_pattern(target["match"], concepts, where=where)
                if target.get("match") is not None
                else None
            )
        except PatternError as exc:
            raise ScriptError(str(exc)) from exc
        for key in target.get("facts", []):
            fact = facts.get(key)
            if fact is not None:
                facts[key] = replace(
                    fact, target=str(target.get("key")), pattern=fact.pattern or pattern
                )
    return replace(script, facts=tuple(facts[f.key] for f in script.facts))


def parse_script(
    raw: Any, *, source: str = "customer.json", extra_concepts: dict[str, str] | None = None
) -> Script:
    """Build a ``Script`` from parsed JSON, checking the cross-references between entries.

    ``extra_concepts`` are the named synonym sets of ``gt.json``, which the script's own
    ``match`` patterns may use as well.
    """
    if not isinstance(raw, dict):
        raise ScriptError(f"{source}: the top level must be an object")
    stakeholders = tuple(
        _stakeholder(entry, f"{source}: stakeholders[{i}]")
        for i, entry in enumerate(_list(raw, "stakeholders", source))
    )
    try:
        concepts = {**read_concepts(raw, source), **dict(extra_concepts or {})}
    except PatternError as exc:
        raise ScriptError(str(exc)) from exc
    facts = tuple(
        _fact(entry, f"{source}: facts[{i}]", concepts)
        for i, entry in enumerate(_list(raw, "facts", source))
    )
    _check_references(stakeholders, facts, source)
    glossary = tuple(
        _definition(entry, f"{source}: glossary[{i}]", {s.id for s in stakeholders})
        for i, entry in enumerate(_list(raw, "glossary", source))
    )
    return Script(stakeholders=stakeholders, facts=facts, glossary=glossary)


def _check_references(
    stakeholders: tuple[Stakeholder, ...], facts: tuple[Fact, ...], source: str
) -> None:
    if not stakeholders:
        raise ScriptError(f"{source}: at least one stakeholder is needed")
    ids = [s.id for s in stakeholders]
    if len(set(ids)) != len(ids):
        raise ScriptError(f"{source}: stakeholder ids must be unique")
    defaults = [s.id for s in stakeholders if s.default]
    if len(defaults) > 1:
        raise ScriptError(f"{source}: only one stakeholder can be the default, got {defaults}")
    # A single-stakeholder script need not say the obvious.
    if not defaults and len(stakeholders) > 1:
        raise ScriptError(f"{source}: mark one stakeholder as the default")
    keys = [f.key for f in facts]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise ScriptError(f"{source}: duplicate fact keys {duplicates}")
    for fact in facts:
        if fact.stakeholder not in ids or not set(fact.known_by) <= set(ids):
            raise ScriptError(f"{source}: fact {fact.key!r} names unknown stakeholder")
        if not fact.triggers and fact.pattern is None:
            raise ScriptError(f"{source}: fact {fact.key!r} has neither triggers nor a pattern")


def _stakeholder(entry: Any, where: str) -> Stakeholder:
    entry = _object(entry, where)
    patience = entry.get("patience", 25)
    cost = entry.get("contact_cost", 0.0)
    if not isinstance(patience, int) or isinstance(patience, bool) or patience < 0:
        raise ScriptError(f"{where}: patience must be a non-negative integer")
    if not isinstance(cost, int | float) or isinstance(cost, bool) or cost < 0:
        raise ScriptError(f"{where}: contact_cost must be a non-negative number")
    non_answer = entry.get("non_answer")
    variants = _texts(entry, "non_answer", where) if isinstance(non_answer, list) else ()
    return Stakeholder(
        id=_text(entry, "id", where),
        name=_text(entry, "name", where),
        role=_text(entry, "role", where, required=False),
        aliases=_texts(entry, "aliases", where),
        default=bool(entry.get("default", False)),
        patience=patience,
        contact_cost=float(cost),
        non_answer=(variants[0] if variants else _text(entry, "non_answer", where, required=False))
        or DEFAULT_NON_ANSWER,
        impatient=_text(entry, "impatient", where, required=False) or DEFAULT_IMPATIENT,
        areas=_texts(entry, "areas", where),
        non_answers=variants,
    )


def _fact(entry: Any, where: str, concepts: dict[str, str]) -> Fact:
    entry = _object(entry, where)
    pattern = None
    if entry.get("match") is not None:
        try:
            pattern = parse_pattern(entry["match"], concepts, where=f"{where}.match")
        except PatternError as exc:
            raise ScriptError(str(exc)) from exc
    return Fact(
        key=_text(entry, "key", where),
        stakeholder=_text(entry, "stakeholder", where),
        answer=_text(entry, "answer", where),
        triggers=_texts(entry, "triggers", where),
        requires_any=_texts(entry, "requires_any", where),
        misconception=_misconception(entry.get("misconception"), f"{where}.misconception"),
        pattern=pattern,
        topic=_text(entry, "topic", where, required=False),
        reviewed_overlaps=_texts(entry, "reviewed_overlaps", where),
        known_by=_texts(entry, "known_by", where),
        why=_text(entry, "why", where, required=False),
        plain=_text(entry, "plain", where, required=False),
    )


def _definition(entry: Any, where: str, people: set[str]) -> Definition:
    entry = _object(entry, where)
    terms = _texts(entry, "terms", where)
    if not terms:
        raise ScriptError(f"{where}: terms must list at least one word or phrase")
    speaker = _text(entry, "stakeholder", where, required=False)
    if speaker and speaker not in people:
        raise ScriptError(f"{where}: stakeholder {speaker!r} is not in the script")
    return Definition(terms=terms, says=_text(entry, "says", where), stakeholder=speaker)


def _misconception(entry: Any, where: str) -> Misconception | None:
    if entry is None:
        return None
    entry = _object(entry, where)
    return Misconception(
        contradicted_by=_texts(entry, "contradicted_by", where),
        note=_text(entry, "note", where, required=False),
    )


def _object(entry: Any, where: str) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise ScriptError(f"{where}: must be an object")
    return entry


def _list(raw: dict[str, Any], name: str, where: str) -> list[Any]:
    value = raw.get(name, [])
    if not isinstance(value, list):
        raise ScriptError(f"{where}: {name} must be a list")
    return value


def _text(entry: dict[str, Any], name: str, where: str, *, required: bool = True) -> str:
    value = entry.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise ScriptError(f"{where}: {name} must be a non-empty string")
    return value.strip()


def _texts(entry: dict[str, Any], name: str, where: str) -> tuple[str, ...]:
    value = entry.get(name) or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ScriptError(f"{where}: {name} must be a list of non-empty strings")
    return tuple(v.strip() for v in value)


def public_summary(package_dir: Path) -> str:
    """The case's one-line ``summary`` from ``case.toml``: public (the case list shows it), so
    the customer may say it when asked for the goal. "" when there is none."""
    try:
        metadata = tomllib.loads((package_dir / "case.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return ""
    summary = metadata.get("summary")
    return summary.strip() if isinstance(summary, str) else ""
