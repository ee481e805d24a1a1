"""Celery tasks of the authoring workflow: take an id, call the service.

Both run on the default queue (``core.background.enqueue``): with a broker on a worker, without
one on the web process's thread pool. Both claim their row with a conditional update first, so
a second delivery does nothing; for the same reason they are not retried (the claim is spent),
and a staff member re-runs a validation from the version page instead.
"""

from __future__ import annotations

from celery import shared_task

from fdeplatform.authoring.uploads import upload_check
from fdeplatform.authoring.validation import validation_run


@shared_task(name="authoring.check_upload", time_limit=1800)
def check_upload(upload_id: int) -> None:
    upload_check(upload_id)


@shared_task(name="authoring.validate_version", time_limit=1800)
def validate_version(validation_id: int) -> None:
    validation_run(validation_id)
