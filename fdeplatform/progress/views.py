"""Player profiles and the activity feed (public results; see ``selectors``)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from fdeplatform.leaderboards import charts
from fdeplatform.leaderboards.charts import ProgressPoint
from fdeplatform.progress.practice import practice_lines
from fdeplatform.progress.selectors import (
    PROFILE_RUNS,
    Result,
    domain_shares,
    player_results,
    recent_results,
)


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    results = player_results(player, request.user)
    shares = domain_shares(player)
    own = request.user.pk == player.pk
    context = {
        "player": player,
        "own": own,
        # Practice is the player's own business: only they see it, apart from the results.
        "practice": practice_lines(player) if own else [],
        "results": results,
        "truncated": len(results) == PROFILE_RUNS,
        "cases": len({r.run.case_version.case_id for r in results}),
        "solved": len({r.run.case_version.case_id for r in results if r.score >= 1.0 - 1e-9}),
        "best": max((r.score for r in results), default=None),
        "progress": charts.figure_json(charts.score_progress(_points(results))) if results else "",
        "domains": (
            charts.figure_json(
                charts.domain_shares([(s.domain, s.covered, s.judged) for s in shares])
            )
            if shares
            else ""
        ),
    }
    return render(request, "progress/profile.html", context)


def _points(results: list[Result]) -> list[ProgressPoint]:
    return [
        ProgressPoint(
            series=r.run.case_version.case.title,
            at=r.ended_at.strftime("%Y-%m-%d %H:%M"),
            score=r.score,
            label=f"{r.run.case_version.case.title} · {r.run.condition}",
        )
        for r in reversed(results)
    ]


@require_GET
def activity(request: HttpRequest) -> HttpResponse:
    return render(request, "progress/activity.html", {"results": recent_results(request.user)})
