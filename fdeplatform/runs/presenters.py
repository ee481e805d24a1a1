"""What a player may see of runs, exchanges and submissions: the one place that decides.

Ranked runs show nothing from the evaluator while open (only the format check), so the
evaluator cannot be used as an oracle. Reference and baseline values and the evaluator's
internal log are never shown to players.
"""

from __future__ import annotations

from typing import Any

from evaluators.runtime import Result
from fdeplatform.runs.models import Exchange, Mode, Run, RunStatus, Submission

_FINISHED = {RunStatus.CLOSED, RunStatus.EXPIRED}


def reveals_scores(run: Run) -> bool:
    return run.mode == Mode.PRACTICE or run.status in _FINISHED


def exchange_view(exchange: Exchange) -> dict[str, Any]:
    return {
        "turn": exchange.turn,
        "question": exchange.question,
        "text": exchange.answer,
        "stakeholder": exchange.stakeholder,
        "client_id": exchange.client_id,
        "at": exchange.created_at.isoformat(),
    }


def submission_view(submission: Submission, run: Run) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": submission.pk,
        "number": submission.number,
        "name": submission.original_name,
        "size": submission.size,
        "sha256": submission.sha256,
        "uploaded_at": submission.created_at.isoformat(),
        "status": submission.status,
        "status_label": submission.get_status_display(),
        "format": {"ok": submission.format_ok, "errors": submission.format_errors},
    }
    if reveals_scores(run) and submission.result is not None:
        view["result"] = Result.from_dict(submission.result).to_player_dict()
        view["score"] = submission.score
    return view


def run_view(run: Run) -> dict[str, Any]:
    return {
        "id": str(run.id),
        "case": run.case_version.case.slug,
        "version": run.case_version.version,
        "condition": run.condition,
        "mode": run.mode,
        "label": run.label,
        "status": run.status,
        "rounds_used": run.rounds_used,
        "rounds_limit": run.rounds_limit,
        "started_at": run.started_at.isoformat(),
        "deadline": run.deadline.isoformat(),
        "seconds_left": run.seconds_left() if run.status == RunStatus.OPEN else 0,
        "ws_url": f"/ws/runs/{run.id}/",
    }
