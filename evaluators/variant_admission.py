"""Admission of a case's variants (docs/variants.md, "Rules the platform enforces").

Every variant is an ordinary package, so each gets the whole admission of ``admission.admit``
(anchors, counterfactuals, value probes, fuzz, the customer's checks and the probe sets,
which are the scenario's and so run against every variant's texts). On top, the variants
must really alter the work: each variant's reference, handed in as a submission to every other
variant, must be invalid or score at least ``MATERIAL_MARGIN`` below the reference there;
otherwise a player who learnt one variant's answer could replay it.

The report stays the base variant's at the top level (the contract's ``anchors`` and
``ok``), with ``variants`` (one row per variant: its anchors and counterfactuals, the table
variant x anchor) and ``cross_variant`` (the ordered pairs) added; a problem of a further
variant names it.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evaluators.runtime import score_file

if TYPE_CHECKING:
    from evaluators.admission import AdmissionReport, Answerability
    from evaluators.package import CasePackage

#: Variants admitted at once: the evaluator sandbox runs are separate processes.
PARALLEL = 3


@dataclass(frozen=True)
class Settings:
    answerability: Answerability | None
    timeout_s: float
    memory_mb: int


def add_variants(package: CasePackage, report: AdmissionReport, settings: Settings) -> None:
    """Admit ``package.variants`` and fold their reports and the cross check into ``report``."""
    from evaluators.admission import admit

    def one(variant: CasePackage) -> AdmissionReport:
        return admit(
            variant,
            answerability=settings.answerability,
            timeout_s=settings.timeout_s,
            memory_mb=settings.memory_mb,
        )

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        others = list(pool.map(one, package.variants))
    report.variants = [variant_row(package, report)]
    for variant, sub in zip(package.variants, others, strict=True):
        report.variants.append(variant_row(variant, sub))
        report.problems += [f"variant `{variant.variant}`: {p}" for p in sub.problems]
        report.warnings += [
            f"variant `{variant.variant}`: {w}" for w in sub.warnings if w not in report.warnings
        ]
        report.isolation = _weaker(report.isolation, sub.isolation)
    pairs, problems = cross_variant(package, settings)
    report.cross_variant = pairs
    report.problems += problems


def variant_row(package: CasePackage, report: AdmissionReport) -> dict[str, Any]:
    """One row of the table variant x anchor: what the staff report and ``--json`` show."""
    return {
        "id": package.variant,
        "title": package.variant_title,
        "summary": package.variant_summary,
        "scoring": {key: package.scoring.get(key) for key in ("reference_value", "baseline_value")},
        "anchors": dict(report.anchors),
        "counterfactuals": dict(report.counterfactuals),
        "answerable": dict(report.answerable),
        "value_probes_ok": sum(1 for probe in report.value_probes if probe.get("ok")),
        "value_probes": len(report.value_probes),
        "probes": report.customer.get("probes", {}),
        "problems": list(report.problems),
        "ok": report.ok,
    }


def cross_variant(
    package: CasePackage, settings: Settings
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each variant's reference scored on every other variant (ordered pairs)."""
    from evaluators.admission import MATERIAL_MARGIN, ZERO_TOL, anchor_score

    variants = [package, *package.variants]
    jobs = [(a, b) for a in variants for b in variants if a is not b]

    def run(pair: tuple[CasePackage, CasePackage]) -> dict[str, Any]:
        source, target = pair
        result = score_file(
            target.root,
            source.anchor_path("reference"),
            timeout_s=settings.timeout_s,
            memory_mb=settings.memory_mb,
        )
        value = anchor_score(target, result)
        return {
            "reference_of": source.variant,
            "scored_on": target.variant,
            "valid": result.valid,
            "score": round(value, 6) if result.valid else None,
            "error_kind": result.error_kind,
            "broke": sorted({str(item.get("rule", "")) for item in result.violations}),
            "ok": not result.valid or value <= 1.0 - MATERIAL_MARGIN + ZERO_TOL,
        }

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        pairs = list(pool.map(run, jobs))
    problems = []
    for pair in pairs:
        if pair["error_kind"] == "execution":
            problems.append(
                f"variant `{pair['scored_on']}`: the evaluator failed on variant "
                f"`{pair['reference_of']}`'s reference"
            )
        elif not pair["ok"]:
            problems.append(
                f"variant `{pair['scored_on']}`: variant `{pair['reference_of']}`'s reference "
                f"scores {pair['score']:.4f} on it, less than {MATERIAL_MARGIN} below 1.0: the "
                "variants do not alter the work enough to tell a replayed answer"
            )
    return pairs, problems


def _weaker(seen: str | None, used: str | None) -> str | None:
    from evaluators.admission import weakest

    return seen if used is None else weakest(seen, used)
