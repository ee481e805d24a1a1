"""Scoring submissions in the background, exactly once per submission.

Work is claimed with a conditional update (QUEUED/SCORING -> SCORING) and the result is written
with another (SCORING -> SCORED), so a redelivered task (worker lost, visibility timeout) either
finishes the job or finds it done; it can never store a second, different result. A submission
that keeps failing ends as an ``execution`` error instead of waiting forever.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone

from evaluators.runtime import Result, score_file
from fdeplatform.core.background import enqueue
from fdeplatform.runs.events import push
from fdeplatform.runs.models import Exposure, Run, RunStatus, Submission, SubmissionStatus
from fdeplatform.runs.presenters import reveals_scores, shown_run_score, submission_view
from fdeplatform.runs.standing import record_exposure
from metrics.delivery import gym_outcome, resolved

MAX_ATTEMPTS = 3


def submission_queue(submission: Submission) -> None:
    """Mark ``submission`` queued and send it to a scoring worker after commit."""
    from fdeplatform.scoring.tasks import score_submission

    now = timezone.now()
    Submission.objects.filter(pk=submission.pk).update(
        status=SubmissionStatus.QUEUED, queued_at=now
    )
    # The caller shows the queue position from this object: it needs the time too.
    submission.status, submission.queued_at = SubmissionStatus.QUEUED, now
    priority = fair_priority(submission)
    enqueue(score_submission, submission.pk, queue=settings.SCORING_QUEUE, priority=priority)
    transaction.on_commit(lambda: _push_submission(submission.pk))


def fair_priority(submission: Submission) -> int:
    """0 for a player's first job in the queue, one step later for each job they already have
    waiting or running (at most 9): one player's burst of slow uploads cannot hold up everyone
    else's single upload (issue 14: a slow player delayed another's score by 58 s)."""
    ahead = (
        Submission.objects.filter(
            run__player_id=submission.run.player_id,
            status__in=[SubmissionStatus.QUEUED, SubmissionStatus.SCORING],
        )
        .exclude(pk=submission.pk)
        .count()
    )
    return min(9, ahead)


def queue_position(submission: Submission) -> int | None:
    if submission.status != SubmissionStatus.QUEUED or submission.queued_at is None:
        return None
    ahead = Submission.objects.filter(
        status=SubmissionStatus.QUEUED, queued_at__lt=submission.queued_at
    ).count()
    return ahead + 1


def submission_score(submission_id: int) -> None:
    """Score one submission (called by the task; safe to call twice)."""
    claimed = Submission.objects.filter(
        pk=submission_id, status__in=[SubmissionStatus.QUEUED, SubmissionStatus.SCORING]
    ).update(status=SubmissionStatus.SCORING, started_at=timezone.now(), attempts=F("attempts") + 1)
    if not claimed:
        return
    submission = Submission.objects.select_related("run__case_version").get(pk=submission_id)
    _push_submission(submission.pk)
    if submission.attempts > MAX_ATTEMPTS:
        result = _gave_up(submission)
    else:
        result = score_file(
            submission.run.package_dir,
            Path(submission.file.path),
            timeout_s=settings.EVALUATOR_TIMEOUT_S,
            memory_mb=settings.EVALUATOR_MEMORY_MB,
        )
    submission_record_result(submission_id=submission_id, result=result)


def _gave_up(submission: Submission) -> Result:
    return Result(
        valid=False,
        score=0.0,
        error_kind="execution",
        error_message=(
            f"Scoring failed {submission.attempts - 1} times (the scoring worker stopped each "
            "time); the organisers have been notified through the admin log."
        ),
    )


def submission_record_result(*, submission_id: int, result: Result) -> bool:
    """Store ``result`` unless the submission was already scored. Returns whether it stored."""
    with transaction.atomic():
        stored = Submission.objects.filter(
            pk=submission_id, status=SubmissionStatus.SCORING
        ).update(
            status=SubmissionStatus.SCORED,
            result=result.to_dict(),
            score=result.score,
            uplift=result.uplift if result.valid else None,
            valid=result.valid,
            error_kind=result.error_kind or "",
            scored_at=timezone.now(),
        )
        if not stored:
            return False
        run = Run.objects.select_for_update().get(submissions__pk=submission_id)
        if run.mode == "practice":
            # The verdict is evaluator feedback: later ranked runs on the case are informed.
            record_exposure(
                player=run.player, case=run.case_version.case, kind=Exposure.PRACTICE_SCORE
            )
        if run.final_submission_id == submission_id and run.status == RunStatus.SCORING:
            run_record_score(run=run, result=result)
        else:
            transaction.on_commit(lambda: _push_submission(submission_id, frame_type="score"))
    return True


def run_record_score(*, run: Run, result: Result | None) -> None:
    """Record the run's delivery on both scales and finish its closing.

    ``result`` is the final submission's (None when the run delivered nothing). FDE-Bench
    Quality is the result's score (0 when a hard rule is broken); FDE-Gym's uplift is the
    result's uplift, 0 for a run that delivered nothing (the unchanged system). A deliverable
    that breaks a hard rule is an incident for FDE-Gym: the harm must show (at most -1 after
    the floor), not look like doing nothing (``gym_outcome``).
    """
    run.score = result.score if result is not None and result.valid else 0.0
    run.valid = bool(result is not None and result.valid)
    run.uplift = result.uplift if result is not None and result.valid else None
    run.contact_cost = float(run.exchanges.aggregate(total=Sum("contact_cost"))["total"] or 0.0)
    run.incident = result is not None and (_incident(result) or _broke_a_rule(result))
    run.gym_score = gym_outcome(
        valid=run.valid, uplift=run.uplift, incident=run.incident, contact_cost=run.contact_cost
    )
    run.resolved = run.gym_score is not None and resolved(run.gym_score, run.incident)
    if run.status == RunStatus.SCORING:
        run.status = RunStatus.EXPIRED if run.ended_by == "deadline" else RunStatus.CLOSED
    run.save(
        update_fields=[
            "score",
            "valid",
            "uplift",
            "contact_cost",
            "incident",
            "gym_score",
            "resolved",
            "status",
        ]
    )
    transaction.on_commit(lambda: _push_run_result(run.pk))
    if run.mode == "ranked":
        from fdeplatform.leaderboards.warming import results_changed

        results_changed()


def _broke_a_rule(result: Result) -> bool:
    return result.error_kind in {"constraint", "fatal"}


def _incident(result: Result) -> bool:
    """An evaluator flags an incident with ``details["incident"]`` (cases/README.md)."""
    return bool(result.details.get("incident")) if isinstance(result.details, dict) else False


def _push_submission(submission_id: int, frame_type: str = "submission") -> None:
    submission = Submission.objects.select_related("run__case_version__case").get(pk=submission_id)
    view = submission_view(submission, submission.run)
    view["queue_position"] = queue_position(submission)
    push(submission.run_id, {"type": frame_type, "submission": view})


def _push_run_result(run_id: Any) -> None:
    run = Run.objects.select_related("case_version__case", "final_submission").get(pk=run_id)
    from fdeplatform.runs.selectors import snapshot_of

    push(run.pk, {"type": "status", **snapshot_of(run)})
    if reveals_scores(run):
        final = run.final_submission
        push(
            run.pk,
            {
                "type": "score",
                "run_score": shown_run_score(run),
                "valid": run.valid,
                "submission": submission_view(final, run) if final else None,
            },
        )


def requeue_stale(*, older_than: timedelta) -> int:
    """Send again submissions stuck in the queue or in scoring (a worker died, a restart)."""
    cutoff = timezone.now() - older_than
    stale = list(
        Submission.objects.filter(status=SubmissionStatus.QUEUED, queued_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    ) + list(
        Submission.objects.filter(
            status=SubmissionStatus.SCORING, started_at__lt=cutoff
        ).values_list("pk", flat=True)
    )
    from fdeplatform.scoring.tasks import score_submission

    for pk in stale:
        with transaction.atomic():
            enqueue(score_submission, pk, queue=settings.SCORING_QUEUE)
    return len(stale)
