"""Statistics of runs beyond the leaderboard rows: score spread, zero scores, target coverage,
question counts.

All grouped in the database. Target keys come back from these queries; whether a viewer may see
them is decided by the caller with ``privacy.target_access`` (counts are always shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Func, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce, Floor

from fdeplatform.leaderboards.configs import ConfigId, key_expression, kind_expression
from fdeplatform.leaderboards.filters import Filters, filtered_runs
from fdeplatform.leaderboards.selectors import JUDGED, annotated_runs
from fdeplatform.runs.models import CUSTOMER_CONDITIONS
from fdeplatform.scoring.models import RunCoverage, TargetCoverage
from metrics.delivery import SCORE_TOLERANCE
from metrics.stats import ratio_bootstrap_cis

#: Width of a score histogram bin (scores 0.95 and 0.99 share a bin, 1.0 starts the next).
BIN_WIDTH = 0.1
#: Why a run scored zero, by the final submission's error kind (see evaluators.runtime.Result).
ZERO_REASONS = {
    "none": "No submission before the run ended",
    "schema": "Deliverable failed the format check",
    "fatal": "Deliverable could not be assessed",
    "constraint": "Hard constraint violated",
    "execution": "Evaluation failed",
    "": "Valid, but no gain over the baseline",
}


@dataclass(frozen=True)
class HistogramBin:
    low: float
    kind: str
    runs: int


def score_histogram(filters: Filters) -> list[HistogramBin]:
    """Run counts per score bin and player kind (a run without a score counts as 0)."""
    grouped = (
        annotated_runs(filters)
        .annotate(bin=Floor(F("s") / BIN_WIDTH + SCORE_TOLERANCE))
        .order_by()
        .values("bin", "is_agent")
        .annotate(n=Count("pk"))
        .order_by("bin", "is_agent")
    )
    return [
        HistogramBin(
            low=round(row["bin"] * BIN_WIDTH, 6),
            kind="agent" if row["is_agent"] else "human",
            runs=row["n"],
        )
        for row in grouped
    ]


def zero_reasons(filters: Filters) -> list[tuple[str, str, int]]:
    """(error kind, reason, runs) for runs that scored exactly zero, most frequent first."""
    grouped = (
        annotated_runs(filters)
        .filter(s__gte=-SCORE_TOLERANCE, s__lte=SCORE_TOLERANCE)
        .annotate(kind=Coalesce("final_submission__error_kind", Value("none")))
        .order_by()
        .values("kind")
        .annotate(n=Count("pk"))
    )
    reasons = [
        (row["kind"], ZERO_REASONS.get(row["kind"], row["kind"]), row["n"]) for row in grouped
    ]
    return sorted(reasons, key=lambda reason: (-reason[2], reason[0]))


@dataclass(frozen=True)
class TargetStat:
    """How often the judged runs covered one target."""

    target: str
    domain: str
    issue_type: str
    covered: int
    judged: int

    @property
    def rate(self) -> float:
        return self.covered / self.judged if self.judged else 0.0


def _judged_items(filters: Filters) -> object:
    """Judged targets of the filtered runs that had a customer to ask (``cells.asks_customer``:
    under Hidden or Full a target could not be covered, and would read as a miss)."""
    return TargetCoverage.objects.filter(
        coverage__run__in=filtered_runs(filters).values("pk"),
        coverage__run__condition__in=CUSTOMER_CONDITIONS,
        coverage__status=RunCoverage.DONE,
        failed=False,
    )


def target_coverage(filters: Filters) -> list[TargetStat]:
    """Coverage per target over the filtered runs, most covered first."""
    grouped = (
        _judged_items(filters)  # type: ignore[attr-defined]
        .order_by()
        .values("target", "domain", "issue_type")
        .annotate(covered=Count("pk", filter=Q(covered=True)), judged=Count("pk"))
    )
    stats = [TargetStat(**row) for row in grouped]
    return sorted(stats, key=lambda s: (-s.rate, s.target))


@dataclass(frozen=True)
class CoverageStat:
    """Covered share of the judged targets of one configuration in one group (a content domain
    or an issue type), pooled over the configuration's judged runs."""

    config: ConfigId
    group: str
    covered: int
    judged: int

    @property
    def rate(self) -> float:
        return self.covered / self.judged if self.judged else 0.0

    @property
    def domain(self) -> str:
        return self.group


#: The domain heatmap's name for a per-domain CoverageStat.
DomainStat = CoverageStat
COVERAGE_GROUPS = ("domain", "issue_type")


def domain_coverage(filters: Filters) -> list[CoverageStat]:
    """Covered share of targets per configuration and content domain (FDE-Bench §5.3)."""
    return coverage_by(filters, "domain")


def coverage_by(filters: Filters, group: str) -> list[CoverageStat]:
    """Covered share of targets per configuration and ``group`` ("domain" or "issue_type"):
    FDE-Bench's Recall by content domain (§5.3, A.5) and by issue type (A.5, Table 8)."""
    if group not in COVERAGE_GROUPS:
        raise ValueError(f"cannot group coverage by {group!r}")
    run = "coverage__run__"
    together = filters.humans_together
    grouped = (
        _judged_items(filters)  # type: ignore[attr-defined]
        .annotate(
            cfg_kind=kind_expression(humans_together=together, run=run),
            cfg_key=key_expression(humans_together=together, run=run),
            cfg_condition=F(f"{run}condition"),
        )
        .order_by()
        .values("cfg_kind", "cfg_key", "cfg_condition", group)
        .annotate(covered=Count("pk", filter=Q(covered=True)), judged=Count("pk"))
        .order_by("cfg_kind", "cfg_key", "cfg_condition", group)
    )
    return [
        CoverageStat(
            config=ConfigId(row["cfg_kind"], row["cfg_key"], row["cfg_condition"]),
            group=row[group] or "unspecified",
            covered=row["covered"],
            judged=row["judged"],
        )
        for row in grouped
    ]


class JsonArrayLength(Func):
    """The length of a JSON array column, on each database the site runs on."""

    function = "JSON_ARRAY_LENGTH"  # SQLite
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)

    def as_mysql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSON_LENGTH", **extra)


@dataclass(frozen=True)
class QuestionStat:
    """Question units per judged run of one configuration (FDE-Bench A.3 units), how many of
    them matched no covered target (Redund.), and their 95% case-bootstrap intervals."""

    config: ConfigId
    judged: int
    asked: int
    questions: int
    unmatched: float
    unmatched_runs: int
    #: Question units of the runs where Redund. is defined (the unmatched share's denominator).
    unmatched_of: int
    questions_ci: tuple[float, float] | None
    unmatched_ci: tuple[float, float] | None

    @property
    def per_run(self) -> float | None:
        return self.questions / self.judged if self.judged else None

    @property
    def unmatched_per_run(self) -> float | None:
        return self.unmatched / self.unmatched_runs if self.unmatched_runs else None

    @property
    def asked_share(self) -> float | None:
        return self.asked / self.judged if self.judged else None

    @property
    def unmatched_share(self) -> float | None:
        return self.unmatched / self.unmatched_of if self.unmatched_of else None


def question_stats(filters: Filters) -> dict[ConfigId, QuestionStat]:
    """Question units and Redund. per judged run, per configuration (one grouped query).

    Units are the judged run's recorded question units (``RunCoverage.units``), the units its
    Precision and Redund. were computed on; a run without questions has none. Redund. is averaged
    over the runs where it is defined, as on the board.
    """
    grouped = (
        annotated_runs(filters)
        .filter(JUDGED)
        .annotate(units_n=JsonArrayLength("coverage__units"))
        .order_by()
        .values("cfg_kind", "cfg_key", "condition", "case_slug")
        .annotate(
            judged=Count("pk"),
            asked=Count("pk", filter=Q(units_n__gt=0)),
            questions=Sum("units_n"),
            unmatched=Sum("coverage__redundant"),
            unmatched_runs=Count("coverage__redundant"),
            unmatched_of=Sum("units_n", filter=Q(coverage__redundant__isnull=False)),
        )
        .order_by("cfg_kind", "cfg_key", "condition", "case_slug")
    )
    by_config: dict[ConfigId, list[dict[str, Any]]] = {}
    for row in grouped:
        config = ConfigId(row["cfg_kind"], row["cfg_key"], row["condition"])
        by_config.setdefault(config, []).append(row)
    return {config: _question_stat(config, cases) for config, cases in by_config.items()}


def _question_stat(config: ConfigId, cases: list[dict[str, Any]]) -> QuestionStat:
    questions = [float(c["questions"] or 0) for c in cases]
    unmatched = [float(c["unmatched"] or 0) for c in cases]
    questions_ci, unmatched_ci = ratio_bootstrap_cis(
        [questions, unmatched], [[c["judged"] for c in cases], [c["unmatched_runs"] for c in cases]]
    )
    return QuestionStat(
        config=config,
        judged=sum(c["judged"] for c in cases),
        asked=sum(c["asked"] for c in cases),
        questions=int(sum(questions)),
        unmatched=sum(unmatched),
        unmatched_runs=sum(c["unmatched_runs"] for c in cases),
        unmatched_of=sum(int(c["unmatched_of"] or 0) for c in cases),
        questions_ci=questions_ci,
        unmatched_ci=unmatched_ci,
    )
