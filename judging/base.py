"""The coverage judge's contract: what it is given, what it returns, and how a run is judged.

FDE-Bench (§4.1 "Requirement coverage", A.3) judges clarification after a run closes: the run's
questions are split into numbered units, and for every clarification target a judge decides
whether answering at least one unit would reveal the target's requirement. That is question
coverage, not disclosure: what the customer actually said does not matter, and a question that
merely touches the requirement's topic does not cover it. Judges see the requirement, its
trigger examples (as hints) and the numbered units, never the customer's answers.

Everything here is plain data so the Django side can store and display judgments without
knowing which judge produced them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from customer_sim.patterns import AskPattern, PatternError, parse_pattern, read_concepts
from metrics.clarification import split_units as split_units  # the one definition of a unit


@dataclass(frozen=True)
class Unit:
    """One question unit: ``index`` counts units from 1 over the whole run, ``turn`` from 1."""

    index: int
    turn: int
    text: str


@dataclass(frozen=True)
class Target:
    """A clarification target from ``hidden/gt.json``, reduced to what a judge may see.

    ``domain`` and ``issue_type`` are carried for reports; the judges do not use them (the
    paper withholds requirement-category metadata from its judges). ``pattern`` is the target's
    ask pattern (``match`` in ``gt.json``), the one the scripted customer discloses by: the
    offline judge decides with it when it is there, so coverage and disclosure agree. The one
    difference: the ``unless`` groups the target lists in ``judge_ignores`` are left out here.
    They route a question to another answer the customer must give instead (a stakeholder's
    designed misconception: "how high do your drivers stack in the chillers?"), yet the
    question still asks for the rule, and answering it truthfully would reveal it.
    """

    key: str
    requirement: str
    triggers: tuple[str, ...]
    domain: str = ""
    issue_type: str = ""
    pattern: AskPattern | None = None


@dataclass
class Vote:
    """One judge's opinion on one target; ``covered is None`` means the judge failed."""

    judge: str
    covered: bool | None
    units: list[int]
    error: str | None = None


@dataclass
class Judgment:
    """The decision for one target.

    ``matched_units`` are the unit indices cited as covering it (empty when not covered), and
    ``first_turn`` the earliest turn among them. ``failed`` is set when no judge could give an
    opinion, so the run's clarification metrics must be reported as unavailable, not zero.
    """

    target: str
    covered: bool
    matched_units: list[int]
    first_turn: int | None
    votes: list[Vote]
    failed: bool = False


class Judge(Protocol):
    """Anything that decides coverage of one target by a run's question units."""

    name: str

    def judge(self, target: Target, units: Sequence[Unit]) -> Judgment: ...


def targets_from_gt(gt: Mapping[str, Any]) -> list[Target]:
    """Read the targets of a parsed ``gt.json`` in file order.

    Raises ``ValueError`` on a target without a key or requirement, on a repeated key (a
    judgment keyed by an ambiguous target could not be shown to a player), or on an unreadable
    ``match`` pattern.
    """
    targets: list[Target] = []
    seen: set[str] = set()
    concepts = read_concepts(gt, "gt.json")
    for position, raw in enumerate(gt.get("targets", [])):
        key = str(raw.get("key", "")).strip()
        requirement = str(raw.get("requirement", "")).strip()
        if not key or not requirement:
            raise ValueError(f"target #{position + 1} needs a key and a requirement")
        if key in seen:
            raise ValueError(f"target key {key!r} is repeated")
        seen.add(key)
        targets.append(
            Target(
                key=key,
                requirement=requirement,
                triggers=tuple(str(t) for t in raw.get("triggers", []) if str(t).strip()),
                domain=str(raw.get("domain", "")),
                issue_type=str(raw.get("issue_type", "")),
                pattern=_pattern(raw, concepts, key),
            )
        )
    return targets


def _pattern(raw: Mapping[str, Any], concepts: dict[str, str], key: str) -> AskPattern | None:
    """The target's ``match`` pattern without the vetoes it lists in ``judge_ignores``."""
    match = raw.get("match")
    ignored = raw.get("judge_ignores", [])
    if match is None:
        if ignored:
            raise ValueError(f"target {key!r}: judge_ignores needs a match pattern")
        return None
    if not isinstance(ignored, list) or not all(isinstance(g, str) for g in ignored):
        raise ValueError(f"target {key!r}: judge_ignores must be a list of `unless` groups")
    unless = match.get("unless", []) if isinstance(match, Mapping) else []
    unknown = [group for group in ignored if group not in unless]
    if unknown:
        raise ValueError(
            f"target {key!r}: judge_ignores names groups not in match.unless: {unknown}"
        )
    if ignored:
        match = {**match, "unless": [group for group in unless if group not in ignored]}
    try:
        return parse_pattern(match, concepts, where=f"target {key!r}: match")
    except PatternError as exc:
        raise ValueError(str(exc)) from exc


def units_from_messages(messages: Sequence[tuple[int, str]]) -> list[Unit]:
    """Number the units of a run's player messages, given in order as ``(turn, message)``."""
    units: list[Unit] = []
    for turn, message in messages:
        for text in split_units(message):
            units.append(Unit(index=len(units) + 1, turn=turn, text=text))
    return units


def first_turn(units: Sequence[Unit], indices: Sequence[int]) -> int | None:
    """The earliest turn among the units with the given indices (None when there are none)."""
    wanted = set(indices)
    turns = [unit.turn for unit in units if unit.index in wanted]
    return min(turns) if turns else None


def judge_all(judge: Judge, targets: Sequence[Target], units: Sequence[Unit]) -> list[Judgment]:
    """Judge every target of a run, in target order.

    A judge with a ``prepare(targets)`` method is told the whole target set first: the offline
    judge weighs a target's words against the case's other targets.
    """
    prepare = getattr(judge, "prepare", None)
    if callable(prepare):
        prepare(targets)
    return [judge.judge(target, units) for target in targets]


def make_judge(kind: str = "offline", **settings: Any) -> Judge:
    """Build a judge by name: ``"offline"`` (deterministic, the default) or ``"llm"`` (panel).

    ``settings`` go to the judge's constructor (see ``OfflineJudge`` and ``LLMPanelJudge``).
    The imports are local so the offline judge never loads the ``openai`` client.
    """
    if kind == "offline":
        from judging.offline import OfflineJudge

        return OfflineJudge(**settings)
    if kind == "llm":
        from judging.llm_panel import LLMPanelJudge

        return LLMPanelJudge(**settings)
    raise ValueError(f"unknown judge kind {kind!r}; expected 'offline' or 'llm'")
