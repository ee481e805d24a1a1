"""When a Celery worker starts, re-send work that a dead worker left behind."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery.signals import worker_ready
from django.conf import settings

log = logging.getLogger(__name__)


@worker_ready.connect
def requeue_on_worker_start(**_: Any) -> None:
    from fdeplatform.scoring.services import requeue_stale

    count = requeue_stale(older_than=timedelta(seconds=settings.STALE_SCORING_S))
    if count:
        log.warning("re-queued %d submission(s) left unscored by a previous worker", count)
