"""Case pages. They read only the visible part of a stored package (see cases.visible)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from fdeplatform.cases.editorial import editorial_html, has_editorial
from fdeplatform.cases.levels import offered_levels
from fdeplatform.cases.selectors import published_cases
from fdeplatform.cases.visible import visible_view
from fdeplatform.runs.models import Condition

#: The oracle conditions' shares of the registered answers, in percent (FDE-Bench Fig. 5).
ORACLE_SHARES = [
    int(c.removeprefix("oracle_")) for c in Condition.values if c.startswith("oracle_")
]


def case_list(request: HttpRequest) -> HttpResponse:
    from fdeplatform.progress.cases import (
        EASY,
        MEDIUM,
        MIN_RUNS_FOR_DIFFICULTY,
        CaseFilter,
        case_lines,
    )

    every = case_lines(request.user)
    chosen = CaseFilter.of(every, request.GET.dict())
    context = {
        "lines": chosen.apply(every),
        "total": len(every),
        "filter": chosen,
        "min_runs": MIN_RUNS_FOR_DIFFICULTY,
        "easy": EASY,
        "medium": MEDIUM,
    }
    return render(request, "cases/list.html", context)


def case_detail(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(published_cases(), slug=slug)
    assert case.current_version is not None
    view = visible_view(case.current_version)
    levels = offered_levels(case.current_version.package_dir / "hidden")
    context = {"case": case, "view": view, "levels": levels, "oracle_shares": ORACLE_SHARES}
    return render(request, "cases/detail.html", context)


@require_GET
def case_editorial(request: HttpRequest, slug: str) -> HttpResponse:
    """The author's write-up, under the targets rule (``cases.editorial``); otherwise a page
    that says when it opens, without a word of it. A case without one is a 404."""
    from fdeplatform.leaderboards.privacy import record_seen, target_access
    from fdeplatform.runs.models import Exposure
    from fdeplatform.runs.standing import counted_runs_per_case

    case = get_object_or_404(published_cases(), slug=slug)
    version = case.current_version
    if not has_editorial(version):
        raise Http404("This case has no editorial.")
    assert version is not None
    allowed = target_access(request.user).allows(case.slug)
    if allowed:
        record_seen(request.user, case, Exposure.TARGETS)
    context = {
        "case": case,
        "editorial": editorial_html(version) if allowed else "",
        "counted_runs": counted_runs_per_case(),
    }
    response = render(request, "cases/editorial.html", context)
    response["Cache-Control"] = "private, no-store"
    return response
