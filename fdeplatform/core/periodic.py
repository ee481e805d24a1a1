"""Periodic upkeep: expire overdue runs, re-send stuck scoring work.

With a broker these are Celery beat entries (``CELERY_BEAT_SCHEDULE`` in settings; run a beat
process: ``celery -A fdeplatform beat``, which ``script/server`` and ``compose.yaml`` start).
Without one, the web process runs the same task functions on a daemon thread
(``start_in_process``), so the single-machine default needs nothing else.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)
_started = threading.Event()


def jobs() -> list[tuple[str, Callable[[], int], float]]:
    """(name, function, interval in seconds) of every periodic job."""
    from fdeplatform.runs.tasks import expire_due_runs_task
    from fdeplatform.scoring.tasks import requeue_stale_task

    return [
        ("expire overdue runs", expire_due_runs_task, settings.EXPIRE_SWEEP_S),
        ("re-send stale scoring", requeue_stale_task, settings.STALE_SWEEP_S),
    ]


def run_due_jobs(last_run: dict[str, float], now: float) -> None:
    """Run each job whose interval has passed since it last ran (errors are logged, not fatal)."""
    for name, function, interval in jobs():
        if now - last_run.get(name, float("-inf")) < interval:
            continue
        last_run[name] = now
        close_old_connections()
        try:
            done = function()
            if done:
                log.info("%s: %s", name, done)
        except Exception:  # one failed sweep must not stop the next ones
            log.exception("periodic job %r failed", name)
        finally:
            close_old_connections()


def start_in_process() -> None:
    """Start the upkeep thread once per process (broker-less deployments only)."""
    if _started.is_set():
        return
    _started.set()
    thread = threading.Thread(target=_loop, name="periodic-upkeep", daemon=True)
    thread.start()


def _loop() -> None:
    import time

    last_run: dict[str, float] = {}
    while True:
        run_due_jobs(last_run, time.monotonic())
        time.sleep(settings.PERIODIC_TICK_S)
