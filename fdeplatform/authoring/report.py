"""Shape an admission report (``AdmissionReport.to_dict``) for the version page.

The report is the evaluators' own dict; this turns it into rows a reviewer reads: format
problems with file and field, every anchor with its score, its threshold and the rules it
broke, every target with its answer, its counterfactual's score and rules, the customer's
probe-set halves, then the remaining problems and the warnings.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from customer_sim.placeholders import read_rendered
from evaluators.admission import LITERAL_MAX, REFERENCE_MIN_UPLIFT, SHORTCUT_MAX

_FILE = re.compile(r"^(?P<file>[\w.\-/]+(?:\.\w+|/)): (?P<rest>.*)$", re.S)
_FIELD = re.compile(r"`([^`]+)`|(\[[\w.]+\](?: [\w.]+)?)")


@dataclass
class FormatProblem:
    file: str
    field: str
    message: str


@dataclass
class AnchorLine:
    label: str
    score: float | None
    threshold: str
    ok: bool
    broke: list[str]
    detail: str
    problems: list[str] = field(default_factory=list)


@dataclass
class TargetLine:
    key: str
    requirement: str
    answer: str
    counterfactual: float | str | None
    broke: list[str]
    answerable: bool | None
    problems: list[str]


@dataclass
class ReportView:
    ok: bool
    format_problems: list[FormatProblem] = field(default_factory=list)
    anchors: list[AnchorLine] = field(default_factory=list)
    targets: list[TargetLine] = field(default_factory=list)
    probe_halves: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    duration_s: float | None = None
    answerability_check: str = ""
    isolation: str | None = None  # how the evaluator was confined (evaluators/isolation.py)
    variants: VariantTable | None = None


@dataclass
class VariantRow:
    id: str
    title: str
    summary: str
    reference_value: Any
    cells: list[float | str | None]
    ok: bool


@dataclass
class VariantTable:
    """The table variant x anchor (docs/variants.md) and each variant's reference scored on
    the others; shown only for a case with more than its base variant."""

    columns: list[str]
    rows: list[VariantRow]
    cross: list[dict[str, Any]]


def variant_table(report: dict[str, Any]) -> VariantTable | None:
    rows = [row for row in report.get("variants") or [] if isinstance(row, dict)]
    if len(rows) < 2:
        return None
    anchors = ["reference", "baseline", "literal"]
    shortcuts = max(len(row.get("anchors", {}).get("shortcuts") or []) for row in rows)
    targets = list(dict.fromkeys(k for row in rows for k in row.get("counterfactuals") or {}))
    columns = [*anchors, *(f"shortcut {i + 1}" for i in range(shortcuts)), *targets]
    table = VariantTable(columns=columns, rows=[], cross=list(report.get("cross_variant") or []))
    for row in rows:
        scores, counterfactuals = row.get("anchors") or {}, row.get("counterfactuals") or {}
        short = list(scores.get("shortcuts") or [])
        cells = [scores.get(a) for a in anchors]
        cells += [short[i] if i < len(short) else None for i in range(shortcuts)]
        cells += [counterfactuals.get(key) for key in targets]
        table.rows.append(VariantRow(
            id=str(row.get("id")), title=str(row.get("title") or ""),
            summary=str(row.get("summary") or ""),
            reference_value=(row.get("scoring") or {}).get("reference_value"),
            cells=cells, ok=bool(row.get("ok")),
        ))  # fmt: skip
    return table


def format_problem(text: str) -> FormatProblem | None:
    """``hidden/gt.json: target `x`: ...`` → file, field, message; None when no file leads."""
    match = _FILE.match(text)
    if match is None:
        return None
    rest = match["rest"]
    named = _FIELD.search(rest)
    return FormatProblem(match["file"], (named[1] or named[2]) if named else "", rest)


def problems_view(problems: list[str]) -> ReportView:
    """A report of format problems only (a package that could not even be read)."""
    view = ReportView(ok=not problems)
    for text in problems:
        parsed = format_problem(text)
        (view.format_problems.append(parsed) if parsed else view.problems.append(text))
    return view


def report_view(report: dict[str, Any], *, package_dir: Path, uplift: bool) -> ReportView:
    """Rows for the page; ``uplift`` says the anchors are on FDE-Gym's uplift scale."""
    problems = [str(p) for p in report.get("problems", [])]
    view = ReportView(ok=bool(report.get("ok")) and not problems)
    rest = []
    for text in problems:
        parsed = format_problem(text)
        (view.format_problems.append(parsed) if parsed else rest.append(text))
    view.anchors = _anchors(report, rest, uplift)
    view.targets = _targets(report, rest, package_dir)
    claimed = {p for line in view.targets for p in line.problems}
    claimed |= {p for p in rest if any(p.startswith(a.label + ":") for a in view.anchors)}
    view.problems = [p for p in rest if p not in claimed]
    view.warnings = [str(w) for w in report.get("warnings", [])]
    view.probe_halves = sorted(((report.get("customer") or {}).get("probes") or {}).items())
    view.duration_s = report.get("duration_s")
    view.answerability_check = str(report.get("answerability_check", ""))
    view.isolation = report.get("isolation")
    view.variants = variant_table(report)
    return view


def _anchors(report: dict[str, Any], problems: list[str], uplift: bool) -> list[AnchorLine]:
    scores = report.get("anchors") or {}
    shortcuts = iter(scores.get("shortcuts") or [])
    floor = REFERENCE_MIN_UPLIFT if uplift else 1.0
    lines = []
    for label, result in (report.get("anchor_results") or {}).items():
        if label.startswith("counterfactual"):
            continue
        if label.startswith("shortcut"):
            value, threshold = next(shortcuts, None), f"≤ {SHORTCUT_MAX}"
        elif label == "reference":
            value, threshold = scores.get("reference"), f"≥ {floor}"
        elif label == "baseline":
            value, threshold = scores.get("baseline"), "= 0 (or invalid)"
        else:
            value, threshold = scores.get(label), f"≤ {LITERAL_MAX}"
            if label == "literal" and scores.get("literal_exception"):
                threshold = "waived (declared correct)"
        own = [p for p in problems if p.startswith(label + ":") or _is_shortcut_problem(p, label)]
        broke = list(result.get("broke") or [])
        lines.append(AnchorLine(label, value, threshold, not own, broke, _detail(result), own))
    return lines


def _is_shortcut_problem(problem: str, label: str) -> bool:
    name = label.removeprefix("shortcut ").strip()
    return (
        label.startswith("shortcut") and problem.startswith("shortcuts[") and f"({name})" in problem
    )


def _detail(result: dict[str, Any]) -> str:
    if result.get("error_kind"):
        return f"{result['error_kind']}: {result.get('error_message') or ''}".strip()
    raw = result.get("raw_value")
    return "" if raw is None else f"value {raw:g}" if isinstance(raw, int | float) else str(raw)


def _targets(report: dict[str, Any], problems: list[str], package_dir: Path) -> list[TargetLine]:
    hidden = _read_hidden(package_dir)
    counterfactuals = report.get("counterfactuals") or {}
    answerable = report.get("answerable") or {}
    results = report.get("anchor_results") or {}
    keys = list(hidden["targets"]) or list(answerable)
    lines = []
    for key in keys:
        target = hidden["targets"].get(key, {})
        answer = " ".join(hidden["answers"].get(f, "") for f in target.get("facts", []))
        lines.append(TargetLine(
            key=key,
            requirement=str(target.get("requirement", "")),
            answer=answer.strip(),
            counterfactual=counterfactuals.get(key),
            broke=list((results.get(f"counterfactual {key}") or {}).get("broke") or []),
            answerable=answerable.get(key),
            problems=[p for p in problems if f"`{key}`" in p],
        ))  # fmt: skip
    return lines


def _read_hidden(package_dir: Path) -> dict[str, dict[str, Any]]:
    """Targets (gt.json) and fact answers (customer.json); empty when the files are broken."""
    found: dict[str, dict[str, Any]] = {"targets": {}, "answers": {}}
    try:
        # The base variant's texts, placeholders filled (docs/variants.md).
        gt = json.loads(read_rendered(package_dir / "hidden", "gt.json"))
        script = json.loads(read_rendered(package_dir / "hidden", "customer.json"))
        found["targets"] = {str(t["key"]): t for t in gt.get("targets", []) if "key" in t}
        found["answers"] = {str(f["key"]): str(f.get("answer", "")) for f in script["facts"]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):  # PlaceholderError too
        pass
    return found
