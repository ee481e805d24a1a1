"""Periodic run upkeep as Celery tasks (scheduled by ``fdeplatform.core.periodic``)."""

from __future__ import annotations

from celery import shared_task

from fdeplatform.runs.services import expire_due_runs


@shared_task(name="runs.expire_due_runs", ignore_result=True)
def expire_due_runs_task() -> int:
    return expire_due_runs()
