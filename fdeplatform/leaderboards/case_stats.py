"""Statistics of runs beyond the leaderboard rows: score spread, zero scores, target coverage.

All grouped in the database. Target keys come back from these queries; whether a viewer may see
them is decided by the caller with ``privacy.target_access`` (counts are always shown).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q, Value
from django.db.models.functions import Coalesce, Floor

from fdeplatform.leaderboards.configs import ConfigId, key_expression, kind_expression
from fdeplatform.leaderboards.filters import Filters, filtered_runs
from fdeplatform.leaderboards.selectors import annotated_runs
from fdeplatform.scoring.models import RunCoverage, TargetCoverage
from metrics.delivery import SCORE_TOLERANCE

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
    return TargetCoverage.objects.filter(
        coverage__run__in=filtered_runs(filters).values("pk"),
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
class DomainStat:
    config: ConfigId
    domain: str
    covered: int
    judged: int

    @property
    def rate(self) -> float:
        return self.covered / self.judged if self.judged else 0.0


def domain_coverage(filters: Filters) -> list[DomainStat]:
    """Covered share of targets per configuration and content domain (FDE-Bench §5.3)."""
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
        .values("cfg_kind", "cfg_key", "cfg_condition", "domain")
        .annotate(covered=Count("pk", filter=Q(covered=True)), judged=Count("pk"))
        .order_by("cfg_kind", "cfg_key", "cfg_condition", "domain")
    )
    return [
        DomainStat(
            config=ConfigId(row["cfg_kind"], row["cfg_key"], row["cfg_condition"]),
            domain=row["domain"] or "unspecified",
            covered=row["covered"],
            judged=row["judged"],
        )
        for row in grouped
    ]
