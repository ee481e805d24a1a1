"""Celery tasks: take ids, call a service, retry on transient trouble.

Scoring and judging use separate queues so a slow evaluator cannot starve coverage judging.
Both tasks are idempotent, which is what makes ``acks_late`` (redelivery after a lost worker)
safe.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from fdeplatform.scoring.services import submission_score


@shared_task(
    bind=True,
    name="scoring.score_submission",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=5,
    soft_time_limit=settings.EVALUATOR_TIMEOUT_S + 60,
    time_limit=settings.EVALUATOR_TIMEOUT_S + 120,
)
def score_submission(self: Any, submission_id: int) -> None:
    try:
        submission_score(submission_id)
    except DatabaseError as exc:  # a database blip: try again shortly
        raise self.retry(exc=exc, countdown=5) from exc


@shared_task(
    bind=True,
    name="scoring.judge_run",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=5,
    time_limit=600,
)
def judge_run(self: Any, run_id: str) -> None:
    from fdeplatform.scoring.coverage_service import coverage_failed, coverage_judge

    try:
        coverage_judge(run_id)
    except DatabaseError as exc:
        raise self.retry(exc=exc, countdown=5) from exc
    except Exception as exc:  # a broken judge must end as "failed", never stay "pending"
        coverage_failed(run_id, exc)
        raise


@shared_task(bind=True, name="scoring.rescore_submission", acks_late=True, max_retries=5)
def rescore_submission(self: Any, rescore_id: int) -> None:
    from fdeplatform.scoring.rescoring import rescore_run

    try:
        rescore_run(rescore_id)
    except DatabaseError as exc:
        raise self.retry(exc=exc, countdown=5) from exc


@shared_task(name="scoring.requeue_stale", ignore_result=True)
def requeue_stale_task() -> int:
    """Periodic: re-send submissions stuck queued or half-scored (a worker that died) and the
    coverage judging of closed runs still pending."""
    from datetime import timedelta

    from fdeplatform.scoring.coverage_service import requeue_stale_coverage
    from fdeplatform.scoring.services import requeue_stale

    older_than = timedelta(seconds=settings.STALE_SCORING_S)
    return requeue_stale(older_than=older_than) + requeue_stale_coverage(older_than=older_than)
