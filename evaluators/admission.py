"""Admission of a case package: do its anchors score the way FDE-Gym §3.4 requires?

A package can be well formed and still be a bad case: a reference that does not reach 1.0, a
do-nothing deliverable that scores, a word-for-word reading of the request that already does
well (so questions do not matter), a target whose answer changes nothing (FDE-Bench A.2 (ii)),
or a target the customer can never be made to answer. ``admit`` scores every anchor through
the same ``score_file`` players go through, so what is admitted is exactly what is played.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.fuzz import fuzz_reference
from evaluators.isolation import NAMES
from evaluators.package import CasePackage, Target
from evaluators.package_checks import Findings
from evaluators.runtime import Result, score_file
from evaluators.value_checks import check_value_probes, run_value_probes
from evaluators.variant_admission import Settings as VariantSettings
from evaluators.variant_admission import add_variants, variant_row
from evaluators.variants import BASE

#: ``(package, target) -> True`` when answerable; False or a reason (str) when not.
Answerability = Callable[[CasePackage, Target], bool | str]

REFERENCE_MIN_UPLIFT = 0.95
LITERAL_MAX = 0.2
SHORTCUT_MAX = 0.8
MATERIAL_MARGIN = 0.05
VALUE_REL_TOL = 1e-6
ZERO_TOL = 1e-9


@dataclass
class AdmissionReport:
    """What ``validate_cases --json`` prints for one case (cases/README.md, product.md)."""

    slug: str
    version: str
    family: str
    targets: int
    anchors: dict[str, Any] = field(default_factory=dict)
    counterfactuals: dict[str, float | str] = field(default_factory=dict)
    answerable: dict[str, bool] = field(default_factory=dict)
    answerability_check: str = ""
    customer: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    anchor_results: dict[str, dict[str, Any]] = field(default_factory=dict)
    value_probes: list[dict[str, Any]] = field(default_factory=list)
    fuzz: list[dict[str, Any]] = field(default_factory=list)
    # One row per variant (base first) and each variant's reference scored on the others
    # (``variant_admission``); a case without variants has the one row of its base.
    variants: list[dict[str, Any]] = field(default_factory=list)
    cross_variant: list[dict[str, Any]] = field(default_factory=list)
    duration_s: float = 0.0
    # How the evaluator was confined while the anchors were scored (the weakest seen, see
    # ``isolation.NAMES``): an admission under plain ``process`` proved nothing about safety.
    isolation: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "version": self.version,
            "family": self.family,
            "targets": self.targets,
            "anchors": self.anchors,
            "counterfactuals": self.counterfactuals,
            "answerable": self.answerable,
            "answerability_check": self.answerability_check,
            "customer": self.customer,
            "problems": self.problems,
            "warnings": self.warnings,
            "anchor_results": self.anchor_results,
            "value_probes": self.value_probes,
            "fuzz": self.fuzz,
            "variants": self.variants,
            "cross_variant": self.cross_variant,
            "duration_s": self.duration_s,
            "isolation": self.isolation,
            "ok": self.ok,
        }


def admit(
    package: CasePackage,
    *,
    answerability: Answerability | None = None,
    timeout_s: float = 60,
    memory_mb: int = 2048,
) -> AdmissionReport:
    """Score the package's anchors and counterfactuals and check every admission rule."""
    started = time.monotonic()
    report = AdmissionReport(
        slug=package.slug,
        version=package.version,
        family=package.family,
        targets=len(package.targets),
        warnings=list(package.warnings),
    )

    def score(label: str, path: Path) -> Result:
        result = score_file(package.root, path, timeout_s=timeout_s, memory_mb=memory_mb)
        report.anchor_results[label] = _summary(result)
        report.isolation = weakest(report.isolation, result.isolation)
        if result.error_kind == "execution":
            report.problems.append(f"{label}: the evaluator failed: {_last_lines(result)}")
        elif not label.startswith("counterfactual"):
            # Anchors are scored a second time: an evaluator that gives one file two scores
            # would make every ranking on the case a lottery.
            again = score_file(package.root, path, timeout_s=timeout_s, memory_mb=memory_mb)
            if _outcome(again) != _outcome(result):
                report.problems.append(
                    f"{label}: not deterministic - the same file scored {_describe(result)}, "
                    f"then {_describe(again)}"
                )
        return result

    reference = score("reference", package.anchor_path("reference"))
    report.anchors["reference"] = anchor_score(package, reference)
    report.problems += _reference_problems(package, reference)
    _check_behaviour(package, report, reference, timeout_s, memory_mb)
    _check_anchors(package, report, score)
    _check_counterfactuals(package, report, score, anchor_score(package, reference))
    _check_answerable(package, report, answerability)
    if answerability is None:  # a custom check replaces the scripted customer's checks too
        _check_customer(package, report)
    if package.variants:
        add_variants(package, report, VariantSettings(answerability, timeout_s, memory_mb))
    elif package.variant == BASE:
        report.variants = [variant_row(package, report)]
    report.duration_s = round(time.monotonic() - started, 3)
    return report


def weakest(seen: str | None, used: str) -> str | None:
    """The weaker of two isolation names (``isolation.NAMES`` is strongest first)."""
    if used not in NAMES:
        return seen
    if seen not in NAMES:
        return used
    return max(seen, used, key=NAMES.index)


def has_baseline(package: CasePackage) -> bool:
    return package.scoring.get("baseline_value") is not None


def anchor_score(package: CasePackage, result: Result) -> float:
    """An anchor's score on the admission scale: FDE-Gym's uplift (§3.4 states the anchors on
    it) when the case has a baseline, else FDE-Bench's ratio. An invalid anchor scores 0."""
    if not result.valid:
        return 0.0
    if has_baseline(package) and result.uplift is not None:
        return result.uplift
    return result.score


def _summary(result: Result) -> dict[str, Any]:
    return {
        "valid": result.valid,
        "score": result.score,
        "uplift": result.uplift,
        "raw_value": result.raw_value,
        "error_kind": result.error_kind,
        "error_message": result.error_message,
        "broke": sorted({str(item.get("rule", "")) for item in result.violations}),
        "duration_s": result.duration_s,
    }


def _outcome(result: Result) -> tuple[Any, ...]:
    """What must not change between two scorings of one file."""
    rules = sorted(str(item.get("rule", "")) for item in result.violations)
    return (result.valid, result.error_kind, result.raw_value, result.score, rules)


def _describe(result: Result) -> str:
    if result.error_kind:
        return f"{result.error_kind} ({result.error_message})"
    broken = sorted({str(item.get("rule", "")) for item in result.violations})
    return f"value {result.raw_value!r}, score {result.score:.6f}" + (
        f", broke {', '.join(broken)}" if broken else ""
    )


def _last_lines(result: Result, count: int = 3) -> str:
    lines = [line for line in result.internal_log.splitlines() if line.strip()]
    return " | ".join(lines[-count:]) or str(result.error_message)


def _matches(value: float | None, expected: Any) -> bool:
    if value is None or expected is None:
        return False
    return math.isclose(value, float(expected), rel_tol=VALUE_REL_TOL, abs_tol=ZERO_TOL)


def _reference_problems(package: CasePackage, result: Result) -> list[str]:
    scoring = package.scoring
    expected = scoring["reference_value"]
    uplift = has_baseline(package)
    problems = []
    if not result.valid:
        problems.append(f"reference: invalid ({result.error_kind}: {result.error_message})")
        return problems
    if not _matches(result.raw_value, expected):
        problems.append(
            f"reference: raw value {result.raw_value!r} differs from case.toml "
            f"reference_value {expected!r}"
        )
    floor = REFERENCE_MIN_UPLIFT if uplift else 1.0
    value = anchor_score(package, result)
    if value < floor - ZERO_TOL:
        problems.append(f"reference: scores {value:.4f}; it must score at least {floor}")
    return problems


def _check_behaviour(
    package: CasePackage,
    report: AdmissionReport,
    reference: Result,
    timeout_s: float,
    memory_mb: int,
) -> None:
    """Value probes (do the answers' figures match what the evaluator enforces?) and the fuzz
    step (does the evaluator give a verdict on every form of the reference the format accepts?)."""

    def run(path: Path) -> Result:
        return score_file(package.root, path, timeout_s=timeout_s, memory_mb=memory_mb)

    probes = check_value_probes(package.root, package.customer, Findings())  # checked at load
    problems, report.value_probes = run_value_probes(package.root, probes, run)
    report.problems += problems
    if reference.error_kind in ("execution", "schema"):
        return  # every variation would fail the same way; the reference's problem says why
    problems, warnings, report.fuzz = fuzz_reference(
        package.schema_path, package.anchor_path("reference"), reference, run
    )
    report.problems += problems
    report.warnings += warnings


def _check_anchors(
    package: CasePackage, report: AdmissionReport, score: Callable[[str, Path], Result]
) -> None:
    baseline = score("baseline", package.anchor_path("baseline"))
    report.anchors["baseline"] = anchor_score(package, baseline)
    report.problems += _baseline_problems(package, baseline)
    literal = anchor_score(package, score("literal", package.anchor_path("literal")))
    report.anchors["literal"] = literal
    justification = package.metadata.get("anchors", {}).get("literal_is_correct")
    if justification:
        # FDE-Gym §3.4's declared exception: the request read literally is correct and complete.
        report.anchors["literal_exception"] = str(justification).strip()
        report.warnings.append(
            f"literal: scores {literal:.4f}; the 'at most {LITERAL_MAX}' rule is waived as "
            f"declared: {str(justification).strip()}"
        )
    elif literal > LITERAL_MAX:
        report.problems.append(f"literal: scores {literal:.4f}; at most {LITERAL_MAX}")
    report.anchors["shortcuts"] = []
    for index, path in enumerate(package.shortcut_paths()):
        shortcut = anchor_score(package, score(f"shortcut {path.name}", path))
        report.anchors["shortcuts"].append(shortcut)
        if shortcut > SHORTCUT_MAX:
            report.problems.append(
                f"shortcuts[{index}] ({path.name}): scores {shortcut:.4f}; at most {SHORTCUT_MAX}"
            )


def _baseline_problems(package: CasePackage, result: Result) -> list[str]:
    scoring = package.scoring
    if not has_baseline(package):
        if result.valid and abs(result.score) >= ZERO_TOL:
            return [f"baseline: scores {result.score:.4f}; it must be invalid or score 0"]
        return []
    if not result.valid:
        return [f"baseline: invalid ({result.error_kind}); under uplift it must score 0"]
    problems = []
    if abs(anchor_score(package, result)) >= ZERO_TOL:
        problems.append(f"baseline: scores {anchor_score(package, result):.6f}; it must score 0")
    if not _matches(result.raw_value, scoring.get("baseline_value")):
        problems.append(
            f"baseline: raw value {result.raw_value!r} differs from case.toml "
            f"baseline_value {scoring.get('baseline_value')!r}"
        )
    return problems


def _check_counterfactuals(
    package: CasePackage,
    report: AdmissionReport,
    score: Callable[[str, Path], Result],
    reference_score: float,
) -> None:
    for target in package.targets:
        path = package.counterfactual_path(target)
        if path is None:
            continue
        result = score(f"counterfactual {target.key}", path)
        value = anchor_score(package, result)
        report.counterfactuals[target.key] = value if result.valid else "invalid"
        if result.error_kind == "execution":
            continue
        report.problems += _unattributed(package, target.key, result)
        if result.valid and value > reference_score - MATERIAL_MARGIN + ZERO_TOL:
            report.problems.append(
                f"target `{target.key}`: not material - its counterfactual scores "
                f"{value:.4f}, less than {MATERIAL_MARGIN} below the reference"
            )


def declared_breaks(package: CasePackage) -> dict[str, set[str]]:
    """``[counterfactual_breaks]`` of case.toml: rules a target's counterfactual may break
    besides the target's own (ignoring the efficiency overdraws the battery, say)."""
    table = package.metadata.get("counterfactual_breaks") or {}
    return {str(key): {str(rule) for rule in rules} for key, rules in table.items()}


def _unattributed(package: CasePackage, key: str, result: Result) -> list[str]:
    """Why an invalid counterfactual does not show its own target mattering, if it does not.

    A counterfactual must differ from the reference by ignoring one target; when it is invalid,
    the rules it breaks must be that target's own or ones declared for it, or the admission
    would credit the target with a failure something else caused.
    """
    if result.valid:
        return []
    where = f"target `{key}`: its counterfactual"
    if result.error_kind != "constraint":
        return [
            f"{where} is invalid for a reason that is no rule ({result.error_kind}: "
            f"{result.error_message}); it must be a well-formed deliverable"
        ]
    broken = {str(item.get("rule", "")) for item in result.violations}
    unexplained = sorted(broken - {key} - declared_breaks(package).get(key, set()))
    if not unexplained:
        return []
    return [
        f"{where} breaks {', '.join(unexplained)}, which is neither `{key}` nor declared for it "
        f"in case.toml [counterfactual_breaks]"
    ]


# --- answerability -------------------------------------------------------------------------


def _check_answerable(
    package: CasePackage, report: AdmissionReport, answerability: Answerability | None
) -> None:
    if answerability is None:
        answerability, report.answerability_check = default_answerability()
    else:
        report.answerability_check = getattr(answerability, "__name__", "custom check")
    for target in package.targets:
        try:
            verdict = answerability(package, target)
        except Exception as exc:  # The check itself failing must not hide the other targets.
            verdict = f"the answerability check failed ({type(exc).__name__}: {exc})"
        report.answerable[target.key] = verdict is True
        if verdict is not True:
            reason = verdict if isinstance(verdict, str) else "the customer never answers it"
            report.problems.append(f"target `{target.key}`: not answerable - {reason}")


def _check_customer(package: CasePackage, report: AdmissionReport) -> None:
    """The scripted customer's own checks and probe-set figures (``customer_checks``)."""
    try:
        from evaluators.customer_checks import check_customer
    except ImportError:  # customer_sim not installed: answerability already fell back
        return
    problems, warnings, summary = check_customer(package.hidden_dir)
    report.problems += problems
    report.warnings += warnings
    report.customer = {"probes": summary}


def default_answerability() -> tuple[Answerability, str]:
    """The scripted customer when it is installed, else a check that the facts have answers."""
    try:
        scripted = importlib.import_module("customer_sim.scripted")
    except ImportError:
        scripted = None
    customer_class = getattr(scripted, "ScriptedCustomer", None)
    if customer_class is None or not hasattr(customer_class, "from_hidden_dir"):
        return facts_have_answers, "facts present in customer.json (scripted customer unavailable)"

    def asked_by_triggers(package: CasePackage, target: Target) -> bool | str:
        # A fresh customer per target: patience spent on one target must not hide another.
        customer = customer_class.from_hidden_dir(package.hidden_dir)
        for question in target.triggers:
            if set(customer.reply(question, history=[]).disclosed) & set(target.facts):
                return True
        return f"none of its {len(target.triggers)} trigger questions disclosed {target.facts}"

    return asked_by_triggers, "scripted customer asked each target's trigger questions"


def facts_have_answers(package: CasePackage, target: Target) -> bool | str:
    """Fallback check: every fact the target names exists and has an answer text."""
    answers = {
        fact.get("key"): fact.get("answer")
        for fact in package.customer.get("facts", [])
        if isinstance(fact, dict)
    }
    missing = [key for key in target.facts if not str(answers.get(key) or "").strip()]
    if missing:
        return f"fact(s) {', '.join(missing)} have no answer in customer.json"
    return True
