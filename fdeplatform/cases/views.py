"""Case pages. They read only the visible part of a stored package (see cases.visible)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

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
