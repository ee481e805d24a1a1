"""Do the customer's answers state the rules the evaluator enforces? (cases/README.md, issue 24)

Two ways a package could be admitted with an answer that teaches the player nothing, or the
wrong thing:

- an answer that states no rule at all ("it depends, we're flexible"). Every fact behind a
  target must therefore list its ``values`` - the figures and terms its answer exists to give -
  and ``script_checks`` refuses an answer that does not state them;
- an answer whose figure contradicts the evaluator (the answer says 5-95 %, the evaluator
  enforces 10-90 %). Text alone cannot show this, so a package declares **value probes** in
  ``hidden/value_probes.json``: deliverables made from the reference by the case's own script,
  one sitting exactly at a stated limit (it must stay valid) and one just beyond it (it must
  break the rule). Admission runs them through the evaluator, and each probe's figure must be
  one of its fact's ``values`` and appear in the answer. An answer edited to another figure
  then no longer agrees with the probes, and an evaluator edited to another limit no longer
  gives the probes their verdicts.

The probe script should write each probe's ``value`` from the same constant the evaluator
reads (``truth/site_rules.json``, say), so regenerating the probes after a rule change keeps
the label honest; admission cannot check the label against the file itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluators.fuzz import error_line
from evaluators.package_checks import (
    TARGET_KEY,
    Findings,
    check_hidden_path,
    is_text,
    read_json,
)
from evaluators.script_checks import CUSTOMER, Target

if TYPE_CHECKING:  # the sandboxed runtime is only needed by admission, not by package loading
    from evaluators.runtime import Result

VALUE_PROBES = "hidden/value_probes.json"
#: Verdicts a probe may expect besides a rule key: any valid result, or any refusal.
VALID, INVALID = "valid", "invalid"
_PROBE_KEYS = {"fact", "value", "file", "expect", "note"}


@dataclass(frozen=True)
class ValueProbe:
    """One deliverable that pins one figure of one fact to the evaluator's behaviour."""

    fact: str
    value: str
    file: str  # relative to hidden/
    expect: str  # "valid", "invalid" or the rule key that must break
    note: str = ""


# --- values on the facts behind targets ----------------------------------------------------


def target_values_problems(customer: dict[str, Any] | None, targets: list[Target]) -> list[str]:
    """Every fact a target names must say which figures and terms its answer gives."""
    if not customer or not isinstance(customer.get("facts"), list):
        return []
    facts = {f.get("key"): f for f in customer["facts"] if isinstance(f, dict)}
    problems = []
    for target in targets:
        for key in target.facts:
            fact = facts.get(key)
            if fact is None or "values" in fact:  # unknown facts and bad lists: reported elsewhere
                continue
            problems.append(
                f"{CUSTOMER}: fact `{key}` answers target `{target.key}` but has no `values`: "
                "list the figures and terms its answer exists to give, as the answer writes "
                'them (numbers with their units, e.g. "10 %" or "539.8 kW", and the decisive '
                'terms, e.g. "UTC"), so that an answer stating no rule is refused'
            )
    return problems


# --- value probes: the manifest ------------------------------------------------------------


def check_value_probes(
    root: Path, customer: dict[str, Any] | None, findings: Findings
) -> list[ValueProbe]:
    """Read ``hidden/value_probes.json`` and check it against the answers (no evaluator run)."""
    if not (root / VALUE_PROBES).is_file():
        findings.warnings.append(
            f"{VALUE_PROBES}: missing, so no figure an answer states is checked against the "
            "evaluator; add a probe at and just beyond each numeric limit (cases/README.md)"
        )
        return []
    document = read_json(root, VALUE_PROBES, findings)
    entries = document.get("probes") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not entries:
        findings.problems.append(
            f"{VALUE_PROBES}: must be an object with a non-empty `probes` list"
        )
        return []
    facts: dict[str, Any] = {
        str(f["key"]): f
        for f in (customer or {}).get("facts", [])
        if isinstance(f, dict) and is_text(f.get("key"))
    }
    probes = []
    for index, entry in enumerate(entries):
        probe = _probe(root, entry, index, facts, findings)
        if probe is not None:
            probes.append(probe)
    findings.problems += _unpaired(entries)
    return probes


def _probe(
    root: Path, entry: Any, index: int, facts: dict[str, Any], findings: Findings
) -> ValueProbe | None:
    where = f"{VALUE_PROBES}: probe #{index + 1}"
    if not isinstance(entry, dict):
        findings.problems.append(f"{where}: must be an object")
        return None
    before = len(findings.problems)
    for key in ("fact", "value", "file", "expect"):
        if not is_text(entry.get(key)):
            findings.problems.append(f"{where}: `{key}` must be a non-empty string")
    for key in entry:
        if key not in _PROBE_KEYS:
            findings.warnings.append(f"{where}: unknown key `{key}`")
    if len(findings.problems) > before:
        return None
    where = f"{VALUE_PROBES}: probe {entry['file']!r}"
    check_hidden_path(root, entry["file"], where, findings)
    if entry["expect"] not in (VALID, INVALID) and not TARGET_KEY.match(entry["expect"]):
        findings.problems.append(
            f"{where}: `expect` must be 'valid', 'invalid' or the key of the rule that breaks"
        )
    findings.problems += _agreement_problems(entry, facts.get(entry["fact"]), where)
    if len(findings.problems) > before:
        return None
    return ValueProbe(
        fact=entry["fact"],
        value=entry["value"],
        file=entry["file"],
        expect=entry["expect"],
        note=str(entry.get("note", "")),
    )


def _agreement_problems(
    entry: dict[str, Any], fact: dict[str, Any] | None, where: str
) -> list[str]:
    """The probe's figure must be one the fact lists and its answer states."""
    key, value = entry["fact"], entry["value"]
    if fact is None:
        return [f"{where}: fact `{key}` is not in {CUSTOMER}"]
    listed = [str(item) for item in fact.get("values") or [] if isinstance(item, str)]
    problems = []
    if value.lower() not in {item.lower() for item in listed}:
        shown = ", ".join(repr(item) for item in listed) or "nothing"
        problems.append(
            f"fact `{key}`: the evaluator's figure {value!r} (value probe {entry['file']!r}) is "
            f"not among the fact's `values` ({shown}): the answer and the evaluator disagree on "
            "this rule; correct the answer and its `values`, or the evaluator and its probes"
        )
    if value.lower() not in str(fact.get("answer", "")).lower():
        problems.append(
            f"fact `{key}`: the answer does not state {value!r}, the figure the evaluator "
            f"enforces (value probe {entry['file']!r})"
        )
    return problems


def _unpaired(entries: list[Any]) -> list[str]:
    """A figure is pinned only from both sides: valid at the limit, refused just beyond it.

    Counted over every entry that names a fact, a figure and a verdict, so a probe refused for
    another reason (a missing file, say) is not reported a second time as a missing side."""
    sides: dict[tuple[str, str], set[bool]] = {}
    for entry in entries:
        if isinstance(entry, dict) and all(
            is_text(entry.get(k)) for k in ("fact", "value", "expect")
        ):
            sides.setdefault((entry["fact"], entry["value"]), set()).add(entry["expect"] == VALID)
    problems = []
    for (fact, value), seen in sorted(sides.items()):
        if seen != {True, False}:
            missing = "one just beyond it that is refused" if True in seen else "one at it"
            problems.append(
                f"{VALUE_PROBES}: fact `{fact}`, {value!r}: a figure needs a probe at the limit "
                f"that stays valid and one just beyond it that is refused; add {missing}"
            )
    return problems


# --- value probes: running them ------------------------------------------------------------


def run_value_probes(
    root: Path, probes: list[ValueProbe], score: Callable[[Path], Result]
) -> tuple[list[str], list[dict[str, Any]]]:
    """Score every probe; a probe whose verdict differs shows the figure is not the rule."""
    problems, summary = [], []
    for probe in probes:
        result = score(root / "hidden" / probe.file)
        got = verdict(result)
        ok = _agrees(probe.expect, result)
        summary.append({**probe.__dict__, "got": got, "ok": ok})
        if ok:
            continue
        if result.error_kind == "execution":
            cause = f"the evaluator failed: {error_line(result)}"
        else:
            cause = f"got {got}"
        wanted = probe.expect if probe.expect in (VALID, INVALID) else f"breaks `{probe.expect}`"
        problems.append(
            f"fact `{probe.fact}`: value probe {probe.file!r} for {probe.value!r} "
            f"({probe.note or 'no note'}) should be {wanted}, but {cause}: the evaluator does "
            "not enforce the figure the answer states"
        )
    return problems, summary


def verdict(result: Result) -> str:
    """A short verdict for the report: valid, the rules broken, or why it was refused."""
    if result.valid:
        return VALID
    if result.error_kind == "constraint":
        rules = sorted({str(item.get("rule", "")) for item in result.violations})
        return "breaks " + ", ".join(rules)
    return f"{result.error_kind}: {result.error_message}"


def _agrees(expect: str, result: Result) -> bool:
    if expect == VALID:
        return result.valid
    if expect == INVALID:
        return not result.valid and result.error_kind in ("constraint", "fatal")
    broken = {str(item.get("rule", "")) for item in result.violations}
    return result.error_kind == "constraint" and expect in broken
