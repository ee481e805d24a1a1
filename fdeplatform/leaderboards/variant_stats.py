"""Solve rates per variant of a case (docs/variants.md, "Scores are normalised per variant").

Boards aggregate a case over the variants its runs played (each run normalised by its own
variant's R and B), so a variant much harder than its siblings would only show as noise in
the case's mean. This table is for the case's author: per variant, how many of the board's
runs played it, their mean Quality and the share that solved it (s >= 1, FDE-Bench's DSR).
Only cases whose runs played more than one variant are listed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Q

from fdeplatform.leaderboards.filters import Filters
from fdeplatform.leaderboards.selectors import annotated_runs
from metrics.delivery import SCORE_TOLERANCE


@dataclass(frozen=True)
class VariantStat:
    case: str
    variant: str
    runs: int
    solved: int
    valid: int
    mean_score: float

    @property
    def solve_rate(self) -> float:
        return self.solved / self.runs if self.runs else 0.0

    @property
    def valid_rate(self) -> float:
        return self.valid / self.runs if self.runs else 0.0


def variant_solve_rates(filters: Filters) -> list[VariantStat]:
    """One row per (case, variant) the board's runs played, in one grouped query."""
    grouped = (
        annotated_runs(filters)
        .order_by()
        .values("case_slug", "variant")
        .annotate(
            runs=Count("pk"),
            solved=Count("pk", filter=Q(s__gte=1.0 - SCORE_TOLERANCE)),
            valid_runs=Count("pk", filter=Q(valid=True)),
            mean=Avg("s"),
        )
        .order_by("case_slug", "variant")
    )
    stats = [
        VariantStat(
            case=row["case_slug"],
            variant=row["variant"],
            runs=row["runs"],
            solved=row["solved"],
            valid=row["valid_runs"],
            mean_score=float(row["mean"] or 0.0),
        )
        for row in grouped
    ]
    played: dict[str, int] = {}
    for stat in stats:
        played[stat.case] = played.get(stat.case, 0) + 1
    return [stat for stat in stats if played[stat.case] > 1]
