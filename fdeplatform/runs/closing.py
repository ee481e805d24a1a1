"""Ending a run: by the player (close) or by the clock (expiry).

The last submission counts. In a ranked run it is scored only now, and earlier uploads are
never scored at all, so the evaluator's verdict on them cannot leak. Coverage judging is queued
at the same time.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from evaluators.runtime import Result
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.models import Mode, Run, RunStatus, SubmissionStatus
from fdeplatform.runs.services import Player, RunId, lock_own_run


@transaction.atomic
def run_close(*, run_id: RunId, player: Player) -> Run:
    run = lock_own_run(run_id, player)
    if run.status == RunStatus.OPEN and timezone.now() >= run.deadline:
        run_finish(run=run, status=RunStatus.EXPIRED)
    elif run.status == RunStatus.OPEN:
        run_finish(run=run, status=RunStatus.CLOSED)
    elif run.status not in {RunStatus.CLOSED, RunStatus.SCORING, RunStatus.EXPIRED}:
        raise RunError("run_closed", "This run cannot be closed.", 409)
    return run


def run_finish(*, run: Run, status: str) -> None:
    """Close ``run`` (already locked by the caller) and queue what closing triggers."""
    from fdeplatform.scoring.coverage_service import coverage_queue
    from fdeplatform.scoring.services import run_record_score, submission_queue

    run.closed_at = timezone.now()
    run.ended_by = "deadline" if status == RunStatus.EXPIRED else "player"
    # The last upload that passed the format check counts: a later malformed one never replaces
    # a valid deliverable, and a run whose uploads all failed the check delivered nothing.
    final = run.submissions.filter(format_ok=True).order_by("-number").first()
    run.final_submission = final
    if final is None:
        run.status = status
        run.save(update_fields=["closed_at", "ended_by", "final_submission", "status"])
        run_record_score(run=run, result=None)
    else:
        run.status = RunStatus.SCORING
        run.save(update_fields=["closed_at", "ended_by", "final_submission", "status"])
        if run.mode == Mode.RANKED:
            run.submissions.exclude(pk=final.pk).filter(status=SubmissionStatus.RECEIVED).update(
                status=SubmissionStatus.SUPERSEDED
            )
        if final.status in {SubmissionStatus.RECEIVED, SubmissionStatus.REJECTED}:
            submission_queue(final)
        elif final.status == SubmissionStatus.SCORED:
            stored = final.result or {"valid": False, "score": 0.0}
            run_record_score(run=run, result=Result.from_dict(stored))
    coverage_queue(run)
