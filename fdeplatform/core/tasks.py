"""Tasks of the platform itself."""

from __future__ import annotations

import os
import socket

from celery import shared_task
from django.utils import timezone

from fdeplatform.core.models import WorkerProbe


@shared_task(name="core.answer_probe", acks_late=True)
def answer_probe(nonce: str) -> None:
    """Mark a probe as processed by this worker (idempotent: a redelivery rewrites the same row)."""
    where = f"{socket.gethostname()} pid {os.getpid()}"
    WorkerProbe.objects.filter(nonce=nonce).update(processed_at=timezone.now(), processed_by=where)
