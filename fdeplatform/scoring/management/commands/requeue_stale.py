"""``manage.py requeue_stale``: send again submissions left queued or half-scored.

script/server runs it before starting the site: in the broker-less default, work queued in a
web process that stopped is otherwise lost with that process. With a broker, Celery workers do
the same sweep when they start.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fdeplatform.core.background import drain, uses_broker
from fdeplatform.scoring.services import requeue_stale


class Command(BaseCommand):
    help = (
        "Re-queue submissions stuck in 'queued' or 'scoring' for longer than --older-than seconds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        count = requeue_stale(older_than=timedelta(seconds=options["older_than"]))
        if count and not uses_broker():
            drain(timeout=600)  # score them here before the command exits
        self.stdout.write(f"re-queued {count} submission(s)")
