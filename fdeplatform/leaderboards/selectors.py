"""Reads for the leaderboards, aggregated in the database.

The leaderboard never loads runs into Python: one grouped query returns a row per configuration
x case (``case_cells``), with the clarification metrics brought in by a join on the one-to-one
coverage row. At 10,000 runs that is a few thousand cells at most, which is all the metrics and
the case bootstrap need.

Contact cost is read from ``Run.contact_cost``, which ``scoring.services.run_record_score`` writes
(the sum over the run's exchanges) when an ended run gets its score, i.e. for every run counted
here. A correlated subquery over the exchanges gives the same number but made PostgreSQL's
planner estimate the query expensive enough to JIT-compile it: about one second of compilation
for a 100 ms query at 10,000 runs (see ``bench/leaderboard_bench.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import (
    Case,
    CharField,
    Count,
    F,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.aggregates import Aggregate
from django.db.models.functions import Coalesce, Concat, Greatest, Least

from fdeplatform.leaderboards.cells import CLARIFICATION_METRICS, CaseCell, asks_customer
from fdeplatform.leaderboards.configs import ConfigId, key_expression, kind_expression
from fdeplatform.leaderboards.filters import Filters, filtered_runs
from fdeplatform.scoring.models import RunCoverage
from metrics.delivery import (
    INCIDENT_PENALTY,
    SCORE_TOLERANCE,
    UPLIFT_FLOOR,
)

#: Coverage rows being (re)judged keep their old numbers; only finished judgments count.
JUDGED = Q(coverage__status=RunCoverage.DONE)


def annotated_runs(filters: Filters, narrow: Mapping[str, object] | None = None) -> QuerySet[Any]:
    """Filtered runs with their configuration, case, score (None as 0) and contact cost.

    ``s`` is the run's FDE-Bench Quality score (None as 0). ``u`` is its FDE-Gym uplift (None,
    for a run that delivered nothing or broke a rule, as 0: the unchanged system);
    ``adjusted`` applies an incident (``Run.incident``: flagged by the evaluator, or a broken
    hard rule) exactly as ``metrics.delivery.incident_adjusted_uplift`` does; ``cost`` is the
    run's contact cost.
    """
    together = filters.humans_together
    return (
        filtered_runs(filters)
        .filter(**(narrow or {}))
        .annotate(
            cfg_kind=kind_expression(humans_together=together),
            cfg_key=key_expression(humans_together=together),
            # With every case version on the board, each version is a case of its own: runs
            # scored by two versions of an evaluator never share a mean.
            case_slug=(
                Concat(
                    F("case_version__case__slug"),
                    Value("@"),
                    F("case_version__version"),
                    output_field=CharField(),
                )
                if filters.all_versions
                else F("case_version__case__slug")
            ),
            s=Coalesce("score", Value(0.0)),
            u=Coalesce("uplift", Value(0.0)),
            cost=F("contact_cost"),
        )
        .annotate(
            adjusted=Case(
                When(incident=True, then=Least("u", Value(0.0)) - Value(INCIDENT_PENALTY)),
                default=F("u"),
            )
        )
    )


def _aggregates() -> dict[str, Any]:
    clarification: dict[str, Aggregate] = {}
    for name in CLARIFICATION_METRICS:
        clarification[f"agg_{name}_sum"] = Sum(f"coverage__{name}", filter=JUDGED)
        clarification[f"agg_{name}_n"] = Count(f"coverage__{name}", filter=JUDGED)
    return {
        "agg_runs": Count("pk"),
        "agg_score_sum": Sum("s"),
        "agg_reached": Count("pk", filter=Q(s__gte=1.0 - SCORE_TOLERANCE)),
        "agg_valid": Count("pk", filter=Q(valid=True)),
        "agg_floored_sum": Sum(Greatest("adjusted", Value(UPLIFT_FLOOR))),
        "agg_cost_sum": Sum("cost"),
        "agg_incidents": Count("pk", filter=Q(incident=True)),
        "agg_judged": Count("coverage", filter=JUDGED),
        **clarification,
    }


def case_cells(filters: Filters, narrow: Mapping[str, object] | None = None) -> list[CaseCell]:
    """One CaseCell per configuration x case under ``filters`` (and ``narrow``), stably ordered."""
    grouped = (
        annotated_runs(filters, narrow)
        .order_by()
        .values("cfg_kind", "cfg_key", "condition", "case_slug")
        .annotate(**_aggregates())
        .order_by("cfg_kind", "cfg_key", "condition", "case_slug")
    )
    return [_cell(values) for values in grouped]


def _cell(values: dict[str, Any]) -> CaseCell:
    applies = asks_customer(values["condition"])
    return CaseCell(
        config=ConfigId(values["cfg_kind"], values["cfg_key"], values["condition"]),
        case=values["case_slug"],
        runs=values["agg_runs"],
        score_sum=float(values["agg_score_sum"] or 0.0),
        reached=values["agg_reached"],
        valid=values["agg_valid"],
        floored_sum=float(values["agg_floored_sum"] or 0.0),
        cost_sum=float(values["agg_cost_sum"] or 0.0),
        incidents=values["agg_incidents"],
        judged=values["agg_judged"],
        # No customer, no clarification: the metrics stay out of every mean (``asks_customer``).
        clarification={
            name: (
                (float(values[f"agg_{name}_sum"] or 0.0), int(values[f"agg_{name}_n"]))
                if applies
                else (0.0, 0)
            )
            for name in CLARIFICATION_METRICS
        },
    )
