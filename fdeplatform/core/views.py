"""Site-wide pages: the home page, how this works, and the health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from fdeplatform.cases.selectors import published_cases
from fdeplatform.core.health import health_report
from fdeplatform.runs.standing import counted_runs_per_case


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


@require_GET
def how_it_works(request: HttpRequest) -> HttpResponse:
    """Modes, conditions, asking, scores, metrics and which runs count, in one page."""
    return render(request, "core/how_it_works.html", {"counted_runs": counted_runs_per_case()})


def home(request: HttpRequest) -> HttpResponse:
    from fdeplatform.progress.selectors import recent_results

    context = {"cases": published_cases()[:6], "activity": recent_results(request.user, limit=5)}
    return render(request, "core/home.html", context)
