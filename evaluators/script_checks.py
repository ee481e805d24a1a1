"""Format checks of the hidden scripts: ``customer.json``, ``gt.json`` and ``matching.json``.

These three files refer to each other (targets name facts, matching questions expect facts,
misconceptions name facts or data files), so the cross-references are checked here too: a
dangling key would otherwise only show up as a customer who can never answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluators.package_checks import (
    DOMAINS,
    ISSUE_TYPES,
    MIN_FACT_TRIGGERS,
    MIN_MATCHING_QUESTIONS,
    MIN_TARGETS,
    TARGET_KEY,
    Findings,
    check_hidden_path,
    is_number,
    is_text,
    is_text_list,
    read_json,
    safe_relative,
)

CUSTOMER = "hidden/customer.json"
GT = "hidden/gt.json"
MATCHING = "hidden/matching.json"
_STAKEHOLDER_KEYS = {
    "id",
    "name",
    "role",
    "aliases",
    "default",
    "patience",
    "contact_cost",
    "non_answer",
    "impatient",
    "areas",
}
_FACT_KEYS = {
    "key",
    "stakeholder",
    "answer",
    "triggers",
    "requires_any",
    "misconception",
    "match",
    "topic",
    "reviewed_overlaps",
    "known_by",
    "values",
    "why",
    "plain",
}
#: FDE-Gym charges contact costs in uplift units per message (score = uplift - the sum of
#: costs). Above this, a handful of questions would erase a perfect delivery: surely a unit slip.
MAX_CONTACT_COST = 0.1
_TARGET_KEYS = {
    "key",
    "requirement",
    "issue_type",
    "domain",
    "facts",
    "triggers",
    "counterfactual",
    "match",
    "near_misses",
    "judge_ignores",
}


@dataclass(frozen=True)
class Target:
    """One clarification target of ``gt.json`` (FDE-Bench's G)."""

    key: str
    requirement: str
    issue_type: str
    domain: str
    facts: tuple[str, ...]
    triggers: tuple[str, ...]
    counterfactual: str | None


# --- customer.json -------------------------------------------------------------------------


def load_customer(root: Path, findings: Findings) -> dict[str, Any] | None:
    document = read_json(root, CUSTOMER, findings)
    if document is None:
        return None
    if not isinstance(document, dict):
        findings.problems.append(f"{CUSTOMER}: must be a JSON object")
        return None
    ids = _check_stakeholders(document.get("stakeholders"), findings)
    _check_facts(root, document.get("facts"), ids, findings)
    findings.warnings += _costly_without_facts(document)
    return document


def _costly_without_facts(document: dict[str, Any]) -> list[str]:
    """Stakeholders who can answer nothing yet cost every message sent to them: a player who
    asks them pays for a non-answer, which is a trap rather than a test of asking well."""
    facts = [fact for fact in document.get("facts") or [] if isinstance(fact, dict)]
    answering = {fact.get("stakeholder") for fact in facts}
    for fact in facts:
        known_by = fact.get("known_by")
        answering |= set(known_by) if is_text_list(known_by) else set()
    warnings = []
    for person in document.get("stakeholders") or []:
        cost = person.get("contact_cost") if isinstance(person, dict) else None
        if is_number(cost) and cost > 0 and person.get("id") not in answering:
            warnings.append(
                f"{CUSTOMER}: stakeholder `{person.get('id')}` owns no fact but costs "
                f"{cost:g} per message; give them facts, or a contact_cost of 0"
            )
    return warnings


def fact_keys(customer: dict[str, Any] | None) -> set[str] | None:
    """Keys of the customer's facts, or None when the script could not be read."""
    if customer is None or not isinstance(customer.get("facts"), list):
        return None
    return {fact["key"] for fact in customer["facts"] if isinstance(fact, dict) and "key" in fact}


def _check_stakeholders(stakeholders: Any, findings: Findings) -> set[str]:
    if not isinstance(stakeholders, list) or not stakeholders:
        findings.problems.append(f"{CUSTOMER}: `stakeholders` must be a non-empty list")
        return set()
    ids: set[str] = set()
    defaults = 0
    for index, person in enumerate(stakeholders):
        if not isinstance(person, dict):
            findings.problems.append(f"{CUSTOMER}: stakeholder #{index + 1} must be an object")
            continue
        where = f"{CUSTOMER}: stakeholder `{person.get('id', index + 1)}`"
        _check_stakeholder(person, where, findings)
        if is_text(person.get("id")):
            if person["id"] in ids:
                findings.problems.append(f"{where}: the id is used twice")
            ids.add(person["id"])
        defaults += person.get("default") is True
    if defaults != 1:
        findings.problems.append(
            f"{CUSTOMER}: exactly one stakeholder must have `default: true` (found {defaults})"
        )
    return ids


def _check_stakeholder(person: dict[str, Any], where: str, findings: Findings) -> None:
    for key in ("id", "name", "role", "impatient"):
        if not is_text(person.get(key)):
            findings.problems.append(f"{where}: `{key}` must be a non-empty string")
    if not (is_text(person.get("non_answer")) or is_text_list(person.get("non_answer"))):
        findings.problems.append(
            f"{where}: `non_answer` must be a non-empty string or a list of variants"
        )
    if "areas" in person and not is_text_list(person["areas"], allow_empty=True):
        findings.problems.append(f"{where}: `areas` must be a list of short phrases")
    if "aliases" in person and not is_text_list(person["aliases"], allow_empty=True):
        findings.problems.append(f"{where}: `aliases` must be a list of strings")
    patience = person.get("patience")
    if not isinstance(patience, int) or isinstance(patience, bool) or patience < 1:
        findings.problems.append(f"{where}: `patience` must be a positive integer")
    cost = person.get("contact_cost")
    if not is_number(cost) or cost < 0:
        findings.problems.append(f"{where}: `contact_cost` must be a number >= 0")
    elif cost > MAX_CONTACT_COST:
        findings.problems.append(
            f"{where}: `contact_cost` {cost:g} is too large: it is in uplift units per message "
            f"(the FDE-Gym score is uplift minus the summed costs; 1.0 is a whole perfect "
            f"delivery), so it must be at most {MAX_CONTACT_COST:g} (typically 0.001-0.02)"
        )
    if "default" in person and not isinstance(person["default"], bool):
        findings.problems.append(f"{where}: `default` must be true or false")
    for key in person:
        if key not in _STAKEHOLDER_KEYS:
            findings.warnings.append(f"{where}: unknown key `{key}`")


def _check_facts(root: Path, facts: Any, ids: set[str], findings: Findings) -> None:
    if not isinstance(facts, list) or not facts:
        findings.problems.append(f"{CUSTOMER}: `facts` must be a non-empty list")
        return
    keys = {fact.get("key") for fact in facts if isinstance(fact, dict)}
    seen: set[str] = set()
    for index, fact in enumerate(facts):
        if not isinstance(fact, dict):
            findings.problems.append(f"{CUSTOMER}: fact #{index + 1} must be an object")
            continue
        where = f"{CUSTOMER}: fact `{fact.get('key', index + 1)}`"
        _check_fact(root, fact, where, ids, keys, findings)
        if fact.get("key") in seen:
            findings.problems.append(f"{where}: the key is used twice")
        seen.add(fact.get("key", ""))


def _check_fact(
    root: Path, fact: dict[str, Any], where: str, ids: set[str], keys: set[Any], findings: Findings
) -> None:
    for key in ("key", "answer"):
        if not is_text(fact.get(key)):
            findings.problems.append(f"{where}: `{key}` must be a non-empty string")
    if ids and fact.get("stakeholder") not in ids:
        findings.problems.append(f"{where}: unknown stakeholder {fact.get('stakeholder')!r}")
    triggers = fact.get("triggers")
    if not is_text_list(triggers):
        findings.problems.append(f"{where}: `triggers` must be a non-empty list of questions")
    elif len(triggers) < MIN_FACT_TRIGGERS:
        findings.warnings.append(f"{where}: {len(triggers)} triggers; write at least five")
    if "requires_any" in fact and not is_text_list(fact["requires_any"], allow_empty=True):
        findings.problems.append(f"{where}: `requires_any` must be a list of word stems")
    _check_misconception(root, fact.get("misconception"), where, keys, findings)
    _check_values(fact, where, findings)
    for key in fact:
        if key not in _FACT_KEYS:
            findings.warnings.append(f"{where}: unknown key `{key}`")


def _check_values(fact: dict[str, Any], where: str, findings: Findings) -> None:
    """``values``: the figures and terms the answer must state (it is the rule, not a hint).

    An answer that leaves out the number it exists to give ("the cap is lower in the chillers")
    is disclosed as a fact yet tells the player nothing they can build on.
    """
    values = fact.get("values")
    if values is None:
        return
    if not is_text_list(values):
        findings.problems.append(f"{where}: `values` must be a non-empty list of strings")
        return
    answer = str(fact.get("answer", "")).lower()
    missing = [value for value in values if value.lower() not in answer]
    if missing:
        findings.problems.append(
            f"{where}: the answer does not state {', '.join(repr(v) for v in missing)} "
            "(listed in `values`); a disclosed fact must give the player its key values"
        )


def _check_misconception(
    root: Path, misconception: Any, where: str, keys: set[Any], findings: Findings
) -> None:
    if misconception is None:
        return
    sources = misconception.get("contradicted_by") if isinstance(misconception, dict) else None
    if not is_text_list(sources) or not is_text(misconception.get("note")):
        findings.problems.append(
            f"{where}: `misconception` must be null or {{contradicted_by: [...], note: ...}}"
        )
        return
    for source in sources:
        is_file = source.startswith("data/") and safe_relative(source)
        if not (source in keys or (is_file and (root / source).is_file())):
            findings.problems.append(
                f"{where}: misconception cites {source!r}, which is neither a fact nor a data file"
            )


# --- gt.json -------------------------------------------------------------------------------


def load_targets(root: Path, facts: set[str] | None, findings: Findings) -> list[Target]:
    document = read_json(root, GT, findings)
    if document is None:
        return []
    raw = document.get("targets") if isinstance(document, dict) else None
    if not isinstance(raw, list):
        findings.problems.append(f"{GT}: must be an object with a `targets` list")
        return []
    targets = [
        target
        for index, entry in enumerate(raw)
        if (target := _target(root, entry, index, facts, findings)) is not None
    ]
    _check_target_set(raw, targets, findings)
    return targets


def _target(
    root: Path, entry: Any, index: int, facts: set[str] | None, findings: Findings
) -> Target | None:
    if not isinstance(entry, dict):
        findings.problems.append(f"{GT}: target #{index + 1} must be an object")
        return None
    where = f"{GT}: target `{entry.get('key', index + 1)}`"
    before = len(findings.problems)
    _check_target_fields(entry, where, findings)
    if facts is not None and is_text_list(entry.get("facts")):
        for fact in entry["facts"]:
            if fact not in facts:
                findings.problems.append(f"{where}: fact `{fact}` is not in {CUSTOMER}")
    check_hidden_path(root, entry.get("counterfactual"), f"{where}: counterfactual", findings)
    if len(findings.problems) > before:
        return None
    return Target(
        key=entry["key"],
        requirement=entry["requirement"],
        issue_type=entry["issue_type"],
        domain=entry["domain"],
        facts=tuple(entry["facts"]),
        triggers=tuple(entry["triggers"]),
        counterfactual=entry["counterfactual"],
    )


def _check_target_fields(entry: dict[str, Any], where: str, findings: Findings) -> None:
    key = entry.get("key")
    if not is_text(key) or not TARGET_KEY.match(key):
        findings.problems.append(f"{where}: `key` must match [a-z0-9_-]+")
    if not is_text(entry.get("requirement")):
        findings.problems.append(f"{where}: `requirement` must be a non-empty string")
    if entry.get("issue_type") not in ISSUE_TYPES:
        findings.problems.append(
            f"{where}: unknown issue_type {entry.get('issue_type')!r} "
            f"(use {', '.join(ISSUE_TYPES)})"
        )
    if entry.get("domain") not in DOMAINS:
        findings.problems.append(
            f"{where}: unknown domain {entry.get('domain')!r} (use {', '.join(DOMAINS)})"
        )
    for key in ("facts", "triggers"):
        if not is_text_list(entry.get(key)):
            findings.problems.append(f"{where}: `{key}` must be a non-empty list of strings")
    for key in entry:
        if key not in _TARGET_KEYS:
            findings.warnings.append(f"{where}: unknown key `{key}`")


def _check_target_set(raw: list[Any], targets: list[Target], findings: Findings) -> None:
    keys = [entry.get("key") for entry in raw if isinstance(entry, dict)]
    for key in sorted({key for key in keys if keys.count(key) > 1}, key=str):
        findings.problems.append(f"{GT}: target key `{key}` is used more than once")
    if len(raw) < MIN_TARGETS:
        findings.problems.append(f"{GT}: {len(raw)} targets; a case needs at least {MIN_TARGETS}")
    missing = [domain for domain in DOMAINS if domain not in {t.domain for t in targets}]
    if targets and missing:
        findings.warnings.append(f"{GT}: no target in domain(s) {', '.join(missing)}")


# --- matching.json -------------------------------------------------------------------------


def check_matching(root: Path, facts: set[str] | None, findings: Findings) -> None:
    document = read_json(root, MATCHING, findings)
    if document is None:
        return
    questions = document.get("questions") if isinstance(document, dict) else None
    if not isinstance(questions, list):
        findings.problems.append(f"{MATCHING}: must be an object with a `questions` list")
        return
    if len(questions) < MIN_MATCHING_QUESTIONS:
        findings.problems.append(
            f"{MATCHING}: {len(questions)} questions; at least {MIN_MATCHING_QUESTIONS} needed"
        )
    for index, question in enumerate(questions):
        where = f"{MATCHING}: question #{index + 1}"
        if not isinstance(question, dict) or not is_text(question.get("text")):
            findings.problems.append(f"{where}: must be an object with a non-empty `text`")
            continue
        for problem in _expect_problems(question.get("expect"), facts):
            findings.problems.append(f"{where}: {problem}")


def _expect_problems(expect: Any, facts: set[str] | None) -> list[str]:
    """``expect`` is null, a fact key, or a non-empty list of fact keys (a message asking
    several things at once)."""
    if expect is None:
        return []
    keys = [expect] if isinstance(expect, str) else expect
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
        return ["`expect` must be null, a fact key or a non-empty list of fact keys"]
    if facts is None:
        return []
    return [f"expects unknown fact {key!r}" for key in keys if key not in facts]
