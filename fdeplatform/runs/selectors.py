"""Reads of runs for pages, the API and the websocket."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from fdeplatform.runs.models import Exchange, Run, Submission
from fdeplatform.runs.presenters import exchange_view, run_view, shown_run_score, submission_view
from fdeplatform.runs.question_sql import ExchangeRow
from fdeplatform.runs.services import Player, RunId


def runs_of(player: Player) -> QuerySet[Run]:
    return (
        Run.objects.filter(player_id=player.pk)
        .select_related("case_version__case")
        .order_by("-started_at")
    )


def run_snapshot(*, run_id: RunId, player: Player) -> dict[str, Any]:
    """The run as its player sees it now: budget, exchanges, submissions (per mode rules).

    Read the way the question path reads (prepared statements, the process's copy of the
    history): every socket gets one at connect and on each ``status`` frame it asks for.
    """
    from fdeplatform.runs import histories, question_sql
    from fdeplatform.runs.asking import readable_run

    run = readable_run(run_id, player)
    key = question_sql.run_key(run.pk)
    return snapshot_of(
        run,
        exchanges=histories.history_of(key, run.rounds_used),
        submissions=question_sql.submissions_of(key),
    )


def snapshot_of(
    run: Run,
    *,
    exchanges: Iterable[Exchange | ExchangeRow] | None = None,
    submissions: Iterable[Submission] | None = None,
) -> dict[str, Any]:
    """The snapshot of ``run`` (the caller has checked who may see it).

    ``exchanges`` (in turn order) and ``submissions`` (in number order), when the caller
    already holds them, save their queries.
    """
    from fdeplatform.scoring.services import queue_position

    views = []
    for sub in run.submissions.order_by("number") if submissions is None else submissions:
        view = submission_view(sub, run)
        view["queue_position"] = queue_position(sub)
        views.append(view)
    return {
        "run": run_view(run),
        "exchanges": [
            exchange_view(e)
            for e in (run.exchanges.order_by("turn") if exchanges is None else exchanges)
        ],
        "submissions": views,
        "score": shown_run_score(run),
    }
