"""Score one deliverable of one case: the single entry point the site and the tools use.

``score_file`` runs the same steps for every case - size limit, schema parse, the hidden
evaluator in a sandboxed child, hard constraints, normalisation - so scores are comparable
across cases and no case can skip a check. It never raises for anything a player uploads;
everything ends up in a ``Result`` whose ``error_kind`` says which step stopped it.
"""

from __future__ import annotations

import hashlib
import math
import time
import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from evaluators import isolation, sandbox
from evaluators.schema import (
    SchemaDefinitionError,
    SubmissionFormatError,
    load_schema,
    parse_submission,
    read_upload,
)

DEFAULT_MAX_UPLOAD_MB = 5
NORMALISATIONS = ("ratio", "uplift")
DIRECTIONS = ("max", "min")

_EXECUTION_MESSAGES = {
    "timeout": "The evaluation did not finish within the {timeout:g} s limit, so this file has "
    "no score. Your file passed the format check.",
    "memory": "The evaluation ran out of memory (limit {memory} MB), so this file has no score. "
    "Your file passed the format check.",
    "crash": "The evaluation failed with an internal error, so this file has no score. Your file "
    "passed the format check; the organisers can see what went wrong.",
    "config": "This case cannot be scored right now because its package is misconfigured. "
    "The organisers can see what went wrong.",
}
_EXECUTION_MESSAGES["bad_output"] = _EXECUTION_MESSAGES["crash"]


class CaseConfigError(Exception):
    """The case's own files are broken: an authoring problem, never the player's."""


@dataclass
class Result:
    """The outcome of scoring one file. ``internal_log`` is for admins only."""

    valid: bool
    score: float
    raw_value: float | None = None
    # FDE-Bench Quality (the ratio to the reference; 0 when a hard rule is broken) is ``score``;
    # FDE-Gym's normalised uplift (x - B)/(R - B) is ``uplift``, None without a baseline or a
    # value (the papers' two scales, each used by its own metrics).
    uplift: float | None = None
    reference_value: float | None = None
    baseline_value: float | None = None
    normalisation: str = ""
    direction: str = ""
    violations: list[dict[str, Any]] = field(default_factory=list)
    error_kind: str | None = None  # None, "schema", "fatal", "constraint" or "execution"
    error_message: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    evaluator_version: str = ""
    duration_s: float = 0.0
    format_errors: list[str] = field(default_factory=list)
    format_error_count: int = 0
    internal_log: str = ""
    # How the evaluator was confined (``isolation.Confinement.name``); "" when none ran. Kept
    # with every result so a score obtained under a weaker sandbox can be found again.
    isolation: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_player_dict(self) -> dict[str, Any]:
        """What a player may see: no admin log, no reference or baseline values."""
        hidden = {"internal_log", "reference_value", "baseline_value", "isolation"}
        # The score and the uplift together with the raw value would give away R and B.
        return {key: value for key, value in self.to_dict().items() if key not in hidden}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        known = {item.name for item in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


@dataclass(frozen=True)
class CaseScoring:
    """The part of ``case.toml`` the runtime needs."""

    normalisation: str
    direction: str
    reference_value: float
    baseline_value: float | None
    max_upload_bytes: int


def normalise(
    value: float,
    *,
    normalisation: str,
    direction: str,
    reference: float,
    baseline: float | None = None,
) -> float:
    """Turn a raw business value into a score (1.0 = the customer-accepted reference).

    ``ratio`` (FDE-Bench): x/R when higher is better, R/x when lower is better; it needs a
    positive reference (and, for minimisation, a positive x). ``uplift`` (FDE-Gym):
    (x - B)/(R - B), so doing nothing scores 0 and worse than nothing is negative; the
    direction is already in the signs.
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be 'max' or 'min', not {direction!r}")
    if normalisation == "ratio":
        if reference <= 0:
            raise ValueError("ratio normalisation needs a positive reference value")
        if direction == "max":
            return value / reference
        if value <= 0:
            raise ValueError(f"ratio normalisation of a minimised value needs x > 0, got {value}")
        return reference / value
    if normalisation == "uplift":
        if baseline is None or reference == baseline:
            raise ValueError("uplift normalisation needs a baseline different from the reference")
        # "+ 0.0" turns the -0.0 of a do-nothing deliverable under minimisation into 0.0.
        return (value - baseline) / (reference - baseline) + 0.0
    raise ValueError(f"normalisation must be 'ratio' or 'uplift', not {normalisation!r}")


def read_scoring(case_dir: Path, max_bytes: int | None = None) -> CaseScoring:
    """Read ``[scoring]`` and ``[limits]`` from case.toml, failing loudly on a broken file."""
    try:
        config = tomllib.loads((case_dir / "case.toml").read_text(encoding="utf-8"))
        scoring = config["scoring"]
        limit_mb = config.get("limits", {}).get("max_upload_mb", DEFAULT_MAX_UPLOAD_MB)
        baseline = scoring.get("baseline_value")
        return CaseScoring(
            normalisation=str(scoring["normalisation"]),
            direction=str(scoring["direction"]),
            reference_value=float(scoring["reference_value"]),
            baseline_value=float(baseline) if baseline is not None else None,
            max_upload_bytes=max_bytes if max_bytes is not None else int(limit_mb * 1_048_576),
        )
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise CaseConfigError(f"case.toml: {type(exc).__name__}: {exc}") from None


def evaluator_version(evaluator: Path) -> str:
    """First 12 hex digits of the evaluator's sha256: which evaluator produced a score."""
    try:
        return hashlib.sha256(evaluator.read_bytes()).hexdigest()[:12]
    except OSError:
        return ""


def score_file(
    case_dir: Path,
    file_path: Path,
    *,
    timeout_s: float = 60,
    memory_mb: int = 2048,
    max_bytes: int | None = None,
) -> Result:
    """Score ``file_path`` as a deliverable of the case in ``case_dir``."""
    started = time.monotonic()
    evaluator = case_dir / "hidden" / "evaluator.py"
    result = _score(case_dir, evaluator, file_path, timeout_s, memory_mb, max_bytes)
    result.evaluator_version = evaluator_version(evaluator)
    result.duration_s = round(time.monotonic() - started, 4)
    return result


def _score(
    case_dir: Path,
    evaluator: Path,
    file_path: Path,
    timeout_s: float,
    memory_mb: int,
    max_bytes: int | None,
) -> Result:
    try:
        scoring = read_scoring(case_dir, max_bytes)
        schema = load_schema(case_dir / "submission_schema.json")
        if not evaluator.is_file():
            raise CaseConfigError("hidden/evaluator.py is missing")
    except (CaseConfigError, SchemaDefinitionError) as exc:
        return _execution_failure("config", str(exc), None, timeout_s, memory_mb)
    base = _base_result(scoring)
    try:
        submission = parse_submission(schema, read_upload(file_path, scoring.max_upload_bytes))
    except SubmissionFormatError as exc:
        return _schema_failure(base, exc)
    try:
        outcome = sandbox.run_evaluator(
            evaluator,
            submission,
            case_dir / "data",
            case_dir / "hidden",
            timeout_s=timeout_s,
            memory_mb=memory_mb,
        )
    except isolation.IsolationUnavailable as exc:
        return _execution_failure(
            "config", f"evaluator sandbox: {exc}", scoring, timeout_s, memory_mb
        )
    if outcome.kind != "ok" or outcome.assessment is None:
        result = _execution_failure(outcome.kind, outcome.log, scoring, timeout_s, memory_mb)
    else:
        result = _judge(base, scoring, outcome.assessment, outcome.log)
    result.isolation = outcome.isolation
    return result


def _base_result(scoring: CaseScoring) -> Result:
    return Result(
        valid=False,
        score=0.0,
        reference_value=scoring.reference_value,
        baseline_value=scoring.baseline_value,
        normalisation="ratio",  # the scale of ``score``; ``uplift`` is FDE-Gym's
        direction=scoring.direction,
    )


def _schema_failure(result: Result, error: SubmissionFormatError) -> Result:
    count = "1 problem" if error.total == 1 else f"{error.total} problems"
    result.error_kind = "schema"
    result.error_message = f"The file does not match the submission format ({count}): " + (
        error.errors[0] if error.errors else ""
    )
    result.format_errors = error.errors
    result.format_error_count = error.total
    return result


def _execution_failure(
    kind: str, log: str, scoring: CaseScoring | None, timeout_s: float, memory_mb: int
) -> Result:
    result = _base_result(scoring) if scoring else Result(valid=False, score=0.0)
    result.error_kind = "execution"
    result.error_message = _EXECUTION_MESSAGES[kind].format(timeout=timeout_s, memory=memory_mb)
    result.internal_log = f"[{kind}] {log}".strip()
    return result


def _judge(result: Result, scoring: CaseScoring, assessment: dict[str, Any], log: str) -> Result:
    """Apply the Assessment: fatal, then hard constraints, then the normalised value."""
    result.details = assessment.get("details") or {}
    result.internal_log = log
    if assessment.get("fatal"):
        result.error_kind = "fatal"
        result.error_message = str(assessment["fatal"])
        return result
    if assessment.get("violations"):
        result.violations = assessment["violations"]
        result.error_kind = "constraint"
        result.error_message = _violation_summary(result.violations)
        return result
    value = assessment.get("value")
    if value is None:
        return _execution_failure("bad_output", "no value, no violation, no fatal", scoring, 0, 0)
    return _normalised(result, scoring, float(value))


def _violation_summary(violations: list[dict[str, Any]]) -> str:
    rules = "1 hard rule is" if len(violations) == 1 else f"{len(violations)} hard rules are"
    return f"{rules} broken, so the score is 0."


def _normalised(result: Result, scoring: CaseScoring, value: float) -> Result:
    """Both scales of a valid deliverable: FDE-Bench Quality (ratio) and FDE-Gym uplift."""
    result.raw_value = value
    try:
        score = normalise(
            value,
            normalisation="ratio",
            direction=scoring.direction,
            reference=scoring.reference_value,
        )
        uplift = (
            normalise(
                value,
                normalisation="uplift",
                direction=scoring.direction,
                reference=scoring.reference_value,
                baseline=scoring.baseline_value,
            )
            if scoring.baseline_value is not None
            else None
        )
    except ValueError as exc:
        failed = _execution_failure("crash", f"normalisation: {exc}", scoring, 0, 0)
        failed.raw_value = value
        return failed
    if not math.isfinite(score) or (uplift is not None and not math.isfinite(uplift)):
        return _execution_failure("crash", f"normalisation gave {score}, {uplift}", scoring, 0, 0)
    result.valid = True
    result.score = score
    result.uplift = uplift
    return result
