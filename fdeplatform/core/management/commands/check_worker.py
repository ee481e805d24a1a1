"""``manage.py check_worker``: prove that background work runs and reaches the database."""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from fdeplatform.core.background import drain, enqueue, uses_broker
from fdeplatform.core.models import WorkerProbe
from fdeplatform.core.tasks import answer_probe


class Command(BaseCommand):
    help = "Send a probe task to the background workers and wait until one answers it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--timeout", type=float, default=30.0)

    def handle(self, *args: Any, **options: Any) -> None:
        nonce = uuid.uuid4().hex
        with transaction.atomic():
            WorkerProbe.objects.create(nonce=nonce)
            enqueue(answer_probe, nonce)
        if not uses_broker():
            drain(options["timeout"])
        deadline = time.monotonic() + options["timeout"]
        while time.monotonic() < deadline:
            probe = WorkerProbe.objects.get(nonce=nonce)
            if probe.processed_at is not None:
                where = "Celery worker" if uses_broker() else "in-process pool"
                self.stdout.write(f"ok: {where} {probe.processed_by} answered probe {nonce}")
                return
            time.sleep(0.2)
        raise CommandError(
            f"no worker answered within {options['timeout']:.0f} s: is `celery -A fdeplatform "
            "worker` running against the same broker and database?"
        )
