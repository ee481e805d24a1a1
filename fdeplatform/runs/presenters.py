"""What a player may see of runs, exchanges and submissions: the one place that decides.

Ranked runs show nothing from the evaluator while open (only the format check), so the
evaluator cannot be used as an oracle. Reference and baseline values and the evaluator's
internal log are never shown to players.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from evaluators.runtime import Result
from fdeplatform.runs.models import Exchange, Mode, Run, RunStatus, Submission

if TYPE_CHECKING:
    from fdeplatform.runs.question_sql import ExchangeRow

_FINISHED = {RunStatus.CLOSED, RunStatus.EXPIRED}


def reveals_scores(run: Run) -> bool:
    return run.mode == Mode.PRACTICE or run.status in _FINISHED


def exchange_view(exchange: Exchange | ExchangeRow) -> dict[str, Any]:
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
        result = Result.from_dict(submission.result).to_player_dict()
        if run.mode == Mode.PRACTICE:
            result = practice_result(result, run_open=run.status not in _FINISHED)
        view["result"] = result
        view["score"] = result.get("score")
    return view


def shown_run_score(run: Run) -> float | None:
    """The run's score as its player may see it: exact for an ended ranked run; for practice
    runs never exact (``practice_result`` explains why), and nothing while a run is open."""
    if run.status not in _FINISHED or run.mode == Mode.PRACTICE:
        return None
    return run.score


#: Width of the score band a practice result shows instead of the exact score.
PRACTICE_BAND = 0.1


def practice_result(result: dict[str, Any], *, run_open: bool = True) -> dict[str, Any]:
    """A practice verdict that teaches without handing out the hidden side.

    The score is shown as a band of width 0.1 and the uplift not at all: the exact score and
    uplift would give away the reference and baseline values. While the run is open the raw
    business value (a bill in EUR, penalty points) is withheld too: beside the band, a few
    uploads would bound the reference value R, which is part of the hidden evaluator side.
    Once the run has ended the value is shown (the band can no longer be probed in that run).
    Violations keep the customer's words and examples, never the rule keys.
    """
    hidden = {"score", "uplift", "details"} | ({"raw_value"} if run_open else set())
    shown = {k: v for k, v in result.items() if k not in hidden}
    score = float(result.get("score") or 0.0)
    low = math.floor(score / PRACTICE_BAND) * PRACTICE_BAND
    shown["score"] = None
    shown["score_band"] = (
        [round(low, 1), round(low + PRACTICE_BAND, 1)] if result.get("valid") else [0.0, 0.0]
    )
    shown["violations"] = [
        {k: v for k, v in violation.items() if k != "rule"}
        for violation in result.get("violations") or []
    ]
    return shown


def run_view(run: Run) -> dict[str, Any]:
    return {
        "id": str(run.id),
        "case": run.case_version.case.slug,
        "version": run.case_version.version,
        "condition": run.condition,
        "mode": run.mode,
        "standing": run.standing,
        "label": run.label,
        "status": run.status,
        "rounds_used": run.rounds_used,
        "rounds_limit": run.rounds_limit,
        "started_at": run.started_at.isoformat(),
        "deadline": run.deadline.isoformat(),
        "seconds_left": run.seconds_left() if run.status == RunStatus.OPEN else 0,
        "ws_url": f"/ws/runs/{run.id}/",
        "variant": revealed_variant(run),
    }


def revealed_variant(run: Run) -> str | None:
    """The run's variant id once the run has ended, else None: while it is open the id
    would tell the player which facts changed (docs/variants.md)."""
    return None if run.status == RunStatus.OPEN else run.variant
