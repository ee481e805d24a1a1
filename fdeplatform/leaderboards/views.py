"""Leaderboard pages: the board, a case's board, a configuration, comparisons, run reports.

Views parse the query string, call selectors, and hand plain objects to templates; every number
is computed in ``rows`` / ``comparisons`` so the API and the exports show the same values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from fdeplatform.cases.editorial import has_editorial
from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.leaderboards import charts
from fdeplatform.leaderboards.board import leaderboard
from fdeplatform.leaderboards.cache import cached, results_stamp
from fdeplatform.leaderboards.case_stats import (
    score_histogram,
    target_coverage,
    zero_reasons,
)
from fdeplatform.leaderboards.comparisons import METRICS, compare_many
from fdeplatform.leaderboards.configs import KINDS, parse_config_id, run_filter_for
from fdeplatform.leaderboards.filters import FilterForm, Filters, filters_from
from fdeplatform.leaderboards.pages import analyses_data, board_page, conditions_data
from fdeplatform.leaderboards.privacy import (
    own_unended_run,
    record_seen,
    report_run,
    set_published,
    target_access,
)
from fdeplatform.leaderboards.report import build_report
from fdeplatform.leaderboards.selectors import annotated_runs
from fdeplatform.leaderboards.variant_stats import variant_solve_rates
from fdeplatform.runs.models import Exposure, Run

#: The columns of the board: sort key, header, what the header's tooltip explains.
COLUMNS = [
    ("quality", "Quality", "Mean over cases of the mean score of the case's runs"),
    ("dsr", "DSR", "Share of runs that reach the reference (s ≥ 1)"),
    ("pass_at_k", "pass@k", "Share of cases with a valid run among k"),
    ("pass_hat_k", "pass^k", "Share of cases whose k runs are all valid"),
    ("recall", "Recall", "Share of clarification targets covered"),
    ("precision", "Precision", "Share of question units that cover a target"),
    ("ask_f1", "Ask-F1", "Mean run-level F1 of Precision and Recall"),
    ("kqc1", "KQC1", "Share of targets covered in the first turn"),
    ("atc", "ATC", "Mean turn in which a covered target was first covered"),
    ("redundant", "Redund.", "Question units that covered no target"),
    ("gym", "Gym", "FDE-Gym mean score: uplift minus contact cost"),
    ("resolved", "Resolved", "Tasks whose mean Gym score is at least 0.8, no incident"),
    ("runs", "Runs", "Ranked runs that ended"),
    ("cases", "Cases", "Cases played"),
]
MAX_CONFIG_RUNS = 500


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    title: str
    url: str
    direction: str


def _columns(filters: Filters) -> list[Column]:
    """Header links: a click sorts by the column, a second click reverses it."""
    columns = []
    for key, label, title in [("name", "Configuration", "Agent label or player"), *COLUMNS]:
        current = filters.sort.lstrip("-") == key
        descending = filters.sort.startswith("-")
        target = key if current and descending else f"-{key}"
        if key in {"name", "atc", "redundant"} and not current:
            target = key  # lower is better (or alphabetical): ascending first
        direction = ("desc" if descending else "asc") if current else ""
        columns.append(Column(key, label, title, f"?{filters.query(sort=target)}", direction))
    return columns


def _filter_context(filters: Filters) -> dict[str, Any]:
    cases = Case.objects.filter(published=True).order_by("title")
    rows = list(cases.values_list("slug", "title", "current_version__state"))
    retired = {slug for slug, _, state in rows if state == CaseVersion.State.RETIRED}
    return {
        "filters": filters,
        "form": FilterForm.base_fields,
        "case_options": [
            (slug, f"{title} (retired)" if slug in retired else title) for slug, title, _ in rows
        ],
        "retired_cases": retired,
        "sector_options": sorted({s for s in cases.values_list("sector", flat=True) if s}),
        "conditions": FilterForm.base_fields["condition"].choices,  # type: ignore[attr-defined]
        "query": filters.query(),
    }


@require_GET
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    filters = filters_from(request.GET)
    computed = cached("page", filters.query(), results_stamp(), lambda: board_page(filters))
    context = {**_filter_context(filters), "columns": _columns(filters), **computed}
    return render(request, "leaderboards/leaderboard.html", context)


@require_GET
def conditions_page(request: HttpRequest) -> HttpResponse:
    """FDE-Bench Table 2: Quality per information condition and the paired deltas.

    A page of its own because every delta runs a paired bootstrap and a Wilcoxon test; on the
    board they would double the time of the first request after results change.
    """
    filters = replace(filters_from(request.GET), condition="")
    computed = cached(
        "conditions", filters.query(), results_stamp(), lambda: conditions_data(filters)
    )
    context = {**_filter_context(filters), **computed, "across_conditions": True}
    return render(request, "leaderboards/conditions.html", context)


@require_GET
def analyses_page(request: HttpRequest) -> HttpResponse:
    """The papers' research questions over the board's configurations (``analyses``).

    Its own page, like Table 2: correlations, per-group coverage, question counts, the gap
    recovered and key facts obtained add queries and bootstraps the board does not need.
    """
    filters = filters_from(request.GET)
    computed = cached("analyses", filters.query(), results_stamp(), lambda: analyses_data(filters))
    context = {**_filter_context(filters), **computed}
    return render(request, "leaderboards/analyses.html", context)


@require_GET
def case_page(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(
        Case.objects.select_related("current_version"), slug=slug, published=True
    )
    filters = replace(filters_from(request.GET), case=case.slug, family="", sector="")
    computed = cached("case", filters.query(), results_stamp(), lambda: _case_page(filters))
    names_visible = target_access(request.user).allows(case.slug)
    if names_visible:
        record_seen(request.user, case, Exposure.TARGETS)
    context = {
        **_filter_context(filters),
        **computed,
        "case": case,
        "columns": _columns(filters),
        "names_visible": names_visible,
        "editorial": names_visible and has_editorial(case.current_version),
    }
    return render(request, "leaderboards/case.html", context)


def _case_page(filters: Filters) -> dict[str, Any]:
    """The case page's numbers, charts and target statistics (cached; names are hidden later)."""
    targets = target_coverage(filters)
    return {
        "board": leaderboard(filters, min_cases=1),
        "zero_reasons": zero_reasons(filters),
        "targets": targets,
        "most_covered": targets[:3],
        "least_covered": list(reversed(targets[3:][-3:])),
        "least_rate": targets[-1].rate if targets else None,
        "histogram": charts.figure_json(charts.score_distribution(score_histogram(filters))),
        "variant_rates": variant_solve_rates(filters),
    }


@require_GET
def config_page(request: HttpRequest, kind: str, key: str) -> HttpResponse:
    if kind not in KINDS:
        raise Http404("No such configuration.")
    try:
        participant = run_filter_for(kind, key)
    except ValueError as exc:
        raise Http404("No such configuration.") from exc
    filters = replace(filters_from(request.GET), humans_together=kind == "humans")
    runs = _participant_runs(filters, participant)
    if not runs:
        raise Http404("No ranked runs for this configuration.")
    context = {
        **_filter_context(filters),
        "kind": kind,
        "key": key,
        "display": "Humans (all)" if kind == "humans" else key,
        "runs": runs,
        "truncated": len(runs) == MAX_CONFIG_RUNS,
        "board": leaderboard(filters, narrow=participant),
        "columns": _columns(filters),
        "viewer_id": request.user.pk,
        "staff": bool(getattr(request.user, "is_staff", False)),
    }
    return render(request, "leaderboards/config.html", context)


def _participant_runs(filters: Filters, participant: dict[str, object]) -> list[Run]:
    runs: QuerySet[Run] = (
        annotated_runs(filters, participant)
        .select_related("case_version__case", "player", "coverage", "final_submission")
        .order_by("case_version__case__slug", "condition", "started_at")
    )
    return list(runs[:MAX_CONFIG_RUNS])


@require_GET
def compare_page(request: HttpRequest) -> HttpResponse:
    filters = filters_from(request.GET).without_condition()
    board = cached("compare", filters.cache_key(), results_stamp(), lambda: leaderboard(filters))
    options = sorted({cell.config for cell in board.all_cells})
    a = parse_config_id(request.GET.get("a", ""))
    others = [b for text in request.GET.getlist("b") if (b := parse_config_id(text)) and b != a]
    metric = request.GET.get("metric", "quality")
    metric = metric if metric in METRICS else "quality"
    comparisons = compare_many(board.all_cells, a, others, metric) if a and others else []
    context = {
        **_filter_context(filters),
        "options": [str(o) for o in options],
        "a": str(a) if a else "",
        "bs": [str(b) for b in others],
        "metric": metric,
        "metrics": list(METRICS),
        "comparisons": comparisons,
        "invalid": bool(request.GET.get("a")) and a is None,
        "filters_hidden": parse_qsl(filters.query()),
    }
    return render(request, "leaderboards/compare.html", context)


@require_http_methods(["GET", "POST"])
def run_report_page(request: HttpRequest, run_id: str) -> HttpResponse:
    """The report; only a POST (CSRF-checked by the middleware) may reveal the hidden side.

    A reveal records an exposure that takes the player's later ranked runs on the case off the
    board, so a GET link clicked anywhere (``?reveal=targets``) must not be able to cause it."""
    try:
        run = report_run(request.user, run_id)
    except Http404:
        pending = own_unended_run(request.user, run_id)
        if pending is None:
            raise
        response = render(request, "leaderboards/report_pending.html", {"run": pending})
        response["Cache-Control"] = "private, no-store"
        return response
    reveal = request.method == "POST" and request.POST.get("reveal") == "targets"
    report = build_report(run, request.user, reveal=reveal)
    response = render(request, "leaderboards/report.html", {"report": report, "run": run})
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@login_required
def run_publish(request: HttpRequest, run_id: str) -> HttpResponse:
    """A human player publishes (or withdraws) their ended ranked run's page."""
    run = report_run(request.user, run_id)
    if run.player_id != request.user.pk:
        raise Http404("No such report.")
    try:
        set_published(run, request.POST.get("publish") == "1")
    except ValueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            "This run's page is now public."
            if run.published
            else "This run's page is private again.",
        )
    return redirect("run-report", run_id=run.pk)
