"""Exports of the leaderboard and of its runs, as JSON and CSV.

The promise to researchers: every number on the leaderboard page can be rebuilt from the runs
export taken with the same query string (``tests/.../test_exports.py`` does exactly that), and
the leaderboard export carries the per-case cells the intervals were bootstrapped from.

What a viewer gets of a case's hidden side follows ``privacy``: exchange texts and per-target
coverage only for cases whose targets the viewer may see, requirement texts only for staff.
Run-level numbers (scores, contact cost, Recall, ...) are always included; they are what the
public leaderboard is made of and name no target.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery

from fdeplatform.leaderboards.board import Leaderboard
from fdeplatform.leaderboards.cells import (
    CLARIFICATION_METRICS,
    NOT_APPLICABLE,
    CaseCell,
    asks_customer,
)
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.leaderboards.filters import Filters
from fdeplatform.leaderboards.intervals import INTERVAL_METRICS
from fdeplatform.leaderboards.privacy import TargetAccess, is_public, record_seen
from fdeplatform.leaderboards.report import requirements_of
from fdeplatform.leaderboards.rows import Row
from fdeplatform.leaderboards.selectors import annotated_runs
from fdeplatform.runs.models import Exchange, Exposure, Run
from fdeplatform.runs.presenters import revealed_variant
from fdeplatform.scoring.models import RunCoverage, TargetCoverage
from metrics.delivery import gym_outcome, resolved

DEFINITIONS = {
    "quality": "mean over cases of the mean delivery score of the row's runs on that case",
    "dsr": "share of runs with score >= 1 (run-level)",
    "pass_at_k": "mean over cases with >= k runs of 1 - C(n-c,k)/C(n,k) (c valid of n runs)",
    "pass_hat_k": "mean over cases with >= k runs of C(c,k)/C(n,k)",
    "clarification": "Recall..Redund.: mean over judged runs where the metric is defined; "
    "null in JSON and n/a in CSV under a condition without a customer (hidden, full, oracle_*), "
    "where clarification_applies is false",
    "gym": "FDE-Gym mean: uplift = run score, incident as flagged by the case evaluator; per run "
    "max(incident-adjusted uplift, -1) - contact cost (sum over the run's exchanges), averaged "
    "within each case, then over cases",
    "resolved": "tasks (cases) whose mean gym score over the configuration's runs is >= 0.8 "
    "with no incident in any run (FDE-Gym counts resolved tasks)",
    "intervals": "<metric>_ci: 95% case bootstrap, 2000 resamples, seed 12345, cases in slug "
    "order; each resample draws the row's cases with replacement and recomputes the metric on "
    "them (pooled metrics over the drawn cases' runs); resamples where the metric is undefined "
    "are dropped, null when none is defined",
    "score": "a run without a score counts as 0",
    "exchanges": "a run's transcript: only for cases whose hidden side the viewer has earned "
    "(or staff), and of a person's run only when they published it (agent runs are public)",
}


def _interval(ci: tuple[float, float] | None) -> list[float] | None:
    return list(ci) if ci else None


def cell_dict(cell: CaseCell) -> dict[str, Any]:
    return {
        "case": cell.case,
        "runs": cell.runs,
        "mean": cell.mean,
        "score_sum": cell.score_sum,
        "reached": cell.reached,
        "valid": cell.valid,
        "floored_sum": cell.floored_sum,
        "contact_cost_sum": cell.cost_sum,
        "incidents": cell.incidents,
        "resolved": cell.resolved,
        "clarification": {m: list(cell.clarification[m]) for m in CLARIFICATION_METRICS},
    }


def row_dict(row: Row) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "config": str(row.config),
        "kind": row.config.kind,
        "key": row.config.key,
        "condition": row.config.condition,
        "runs": row.runs,
        "cases": row.cases,
        "quality": row.quality,
        "dsr": row.dsr,
        "pass_at_k": row.pass_at_k.value,
        "pass_hat_k": row.pass_hat_k.value,
        "pass_cases": row.pass_at_k.cases,
        **row.clarification,
        "clarification_applies": row.asks_customer,
        "judged_runs": row.judged,
        "gym": row.gym,
        "resolved": row.resolved,
        "contact_cost_mean": row.contact_cost,
        "provisional": row.provisional,
        "provisional_reasons": list(row.provisional_reasons),
        **{f"{m}_ci": _interval(row.intervals[m]) for m in INTERVAL_METRICS},
        "per_case": [cell_dict(cell) for cell in row.cells],
    }


def leaderboard_json(board: Leaderboard) -> dict[str, Any]:
    filters = board.filters
    return {
        "filters": filters.query(),
        "k": filters.k,
        "sort": filters.sort,
        "definitions": DEFINITIONS,
        "rows": [row_dict(row) for row in board.rows],
    }


CSV_ROW_FIELDS = [
    "rank", "config", "kind", "key", "condition", "runs", "cases", "quality", "quality_low",
    "quality_high", "dsr", "pass_at_k", "pass_hat_k", "pass_cases", *CLARIFICATION_METRICS,
    "judged_runs", "gym", "resolved", "contact_cost_mean", "provisional",
    # The other intervals after the original columns, so scripts reading by position still work.
    *(f"{m}_{end}" for m in INTERVAL_METRICS if m != "quality" for end in ("low", "high")),
    "clarification_applies",
]  # fmt: skip


#: A cell starting with one of these is a formula to a spreadsheet (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(row: dict[str, Any]) -> dict[str, Any]:
    """Text cells that a spreadsheet would run as formulas, made inert with a leading quote.

    Labels and usernames are free text from players; numbers (negative uplift) stay numbers.
    """
    return {
        key: f"'{value}" if isinstance(value, str) and value.startswith(_FORMULA_STARTS) else value
        for key, value in row.items()
    }


def leaderboard_csv(board: Leaderboard) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_ROW_FIELDS, extrasaction="ignore")
    writer.writeheader()
    for row in board.rows:
        bounds = {}
        for metric in INTERVAL_METRICS:
            low, high = row.intervals[metric] or (None, None)
            bounds.update({f"{metric}_low": low, f"{metric}_high": high})
        writer.writerow(spreadsheet_safe(_not_applicable({**row_dict(row), **bounds})))
    return out.getvalue()


def _not_applicable(flat: dict[str, Any]) -> dict[str, Any]:
    """A CSV line's clarification columns say "n/a" when the condition had no customer (an
    empty cell would read as "undefined", which is another thing)."""
    if flat.get("clarification_applies", True):
        return flat
    columns = [*CLARIFICATION_METRICS]
    columns += [f"{m}_{end}" for m in CLARIFICATION_METRICS for end in ("low", "high")]
    return {**flat, **{name: NOT_APPLICABLE for name in columns if name in flat}}


def export_runs(filters: Filters) -> QuerySet[Any]:
    """The runs behind a leaderboard, with what the export writes out, in a stable order."""
    exchange_count = (
        Exchange.objects.filter(run=OuterRef("pk"))
        .order_by()
        .values("run")
        .annotate(n=Count("pk"))
        .values("n")
    )
    runs: QuerySet[Any] = (
        annotated_runs(filters)
        .annotate(exchange_count=Subquery(exchange_count))
        .select_related("case_version__case", "player", "final_submission", "coverage")
        .prefetch_related(
            Prefetch("exchanges", queryset=Exchange.objects.order_by("turn")),
            Prefetch("coverage__items", queryset=TargetCoverage.objects.order_by("target")),
        )
        .order_by("case_version__case__slug", "started_at", "pk")
    )
    return runs


class RunExporter:
    """Turns runs into export dicts for one viewer (hidden parts per ``TargetAccess``)."""

    def __init__(self, access: TargetAccess, *, staff: bool, viewer: Any = None) -> None:
        self.access = access
        self.staff = staff
        self.viewer = viewer
        self._requirements: dict[tuple[int, str], dict[str, dict[str, Any]]] = {}

    def run_dict(self, run: Run) -> dict[str, Any]:
        case = run.case_version.case
        config = ConfigId(run.cfg_kind, run.cfg_key, run.condition)  # type: ignore[attr-defined]
        score_used: float = run.s  # type: ignore[attr-defined]
        cost: float = run.cost  # type: ignore[attr-defined]
        gym = gym_outcome(
            valid=bool(run.valid), uplift=run.uplift, incident=run.incident, contact_cost=cost
        )
        allowed = self.access.allows(case.slug)
        own = self.viewer is not None and run.player_id == self.viewer.pk
        # A person's transcript travels only if they published the run (agents' always do).
        transcript = allowed and (self.staff or own or is_public(run))
        if transcript and not own and self.viewer is not None:
            record_seen(self.viewer, case, Exposure.TRANSCRIPT)
        final = run.final_submission
        return {
            "id": str(run.pk),
            "config": str(config),
            "kind": config.kind,
            "key": config.key,
            "player": run.player.get_username(),
            "label": run.label,
            "is_agent": run.is_agent,
            "condition": run.condition,
            "case": case.slug,
            "case_version": run.case_version.version,
            "variant": revealed_variant(run),
            "family": case.family,
            "sector": case.sector,
            "status": run.status,
            "ended_by": run.ended_by,
            "started_at": run.started_at.isoformat(),
            "closed_at": run.closed_at.isoformat() if run.closed_at else None,
            "rounds_used": run.rounds_used,
            "score": run.score,
            "score_used": score_used,
            "uplift": run.uplift,
            "valid": bool(run.valid),
            "error_kind": final.error_kind if final is not None else None,
            "contact_cost": cost,
            "incident": run.incident,
            "gym_score": gym,
            "resolved": gym is not None and resolved(gym, run.incident),
            "exchange_count": run.exchange_count or 0,  # type: ignore[attr-defined]
            "clarification_applies": asks_customer(run.condition),
            "coverage": self._coverage(run, allowed),
            "public": is_public(run),
            "exchanges": self._exchanges(run) if transcript else None,
        }

    def _exchanges(self, run: Run) -> list[dict[str, Any]]:
        return [
            {
                "turn": e.turn,
                "question": e.question,
                "answer": e.answer,
                "stakeholder": e.stakeholder,
                "contact_cost": e.contact_cost,
                "at": e.created_at.isoformat(),
            }
            for e in run.exchanges.all()
        ]

    def _coverage(self, run: Run, allowed: bool) -> dict[str, Any] | None:
        try:
            coverage = run.coverage
        except RunCoverage.DoesNotExist:
            return None
        applies = asks_customer(run.condition)
        body: dict[str, Any] = {
            "status": coverage.status,
            "judge": coverage.judge,
            "targets": coverage.targets,
            "covered": coverage.covered,
            **{m: getattr(coverage, m) if applies else None for m in CLARIFICATION_METRICS},
            "items": None,
        }
        if allowed:
            body["items"] = [self._item(run, item) for item in coverage.items.all()]
        return body

    def _item(self, run: Run, item: TargetCoverage) -> dict[str, Any]:
        body = {
            "target": item.target,
            "domain": item.domain,
            "issue_type": item.issue_type,
            "covered": item.covered,
            "matched_units": item.matched_units,
            "first_turn": item.first_turn,
            "failed": item.failed,
        }
        if self.staff:
            spec = self._requirements_for(run).get(item.target, {})
            body["requirement"] = spec.get("requirement", "")
        return body

    def _requirements_for(self, run: Run) -> dict[str, dict[str, Any]]:
        version = (run.case_version_id, run.variant)  # each variant states its own figures
        if version not in self._requirements:
            self._requirements[version] = requirements_of(run)
        return self._requirements[version]


def runs_json_stream(runs: Iterable[Run], exporter: RunExporter) -> Iterator[str]:
    """A JSON array written run by run, so a 10k-run export never sits in memory whole."""
    yield "["
    for index, run in enumerate(runs):
        yield ("," if index else "") + json.dumps(exporter.run_dict(run))
    yield "]"


RUN_CSV_FIELDS = [
    "id", "config", "kind", "key", "player", "label", "is_agent", "condition", "case",
    "case_version", "variant", "family", "sector", "status", "ended_by", "started_at", "closed_at",
    "rounds_used", "score", "score_used", "uplift", "valid", "error_kind", "contact_cost", "incident",
    "gym_score", "resolved", "public", "exchange_count", "coverage_status", "judge", "targets", "covered",
    *CLARIFICATION_METRICS, "exchanges_json", "targets_json", "clarification_applies",
]  # fmt: skip


def runs_csv_stream(runs: Iterable[Run], exporter: RunExporter) -> Iterator[str]:
    """One CSV line per run; exchanges and per-target coverage as JSON text columns."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=RUN_CSV_FIELDS, extrasaction="ignore")
    writer.writeheader()
    for run in runs:
        writer.writerow(spreadsheet_safe(_not_applicable(_flat(exporter.run_dict(run)))))
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


def _flat(run: dict[str, Any]) -> dict[str, Any]:
    coverage = run.pop("coverage") or {}
    exchanges = run.pop("exchanges")
    flat = {**run, **{m: coverage.get(m) for m in CLARIFICATION_METRICS}}
    flat.update(
        coverage_status=coverage.get("status", ""),
        judge=coverage.get("judge", ""),
        targets=coverage.get("targets"),
        covered=coverage.get("covered"),
        exchanges_json=json.dumps(exchanges) if exchanges is not None else "",
        targets_json=json.dumps(coverage["items"]) if coverage.get("items") is not None else "",
    )
    return flat
