"""Send a Celery task to wherever background work runs in this deployment.

With a broker the task goes to a Celery worker. Without one (the single-machine default) it runs
on a small thread pool inside the web process. Either way the caller returns at once: work is
never executed inside an HTTP or websocket handler, and it is sent only after the surrounding
transaction commits, so a worker never looks for a row that does not exist yet.

Threads rather than a second process: the in-memory channel layer only reaches consumers in the
same process, so in-process work can push results to open websockets without Redis.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

from celery import Task
from django.conf import settings
from django.db import close_old_connections, transaction

from fdeplatform.env import envint

log = logging.getLogger(__name__)
_executor: ThreadPoolExecutor | None = None
_pending: set[Future[None]] = set()


def uses_broker() -> bool:
    return bool(settings.CELERY_BROKER_URL)


#: Publishing to an unreachable broker gives up after about a second, not Celery's default.
PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0.2, "interval_step": 0.4, "interval_max": 0.5}


def enqueue(
    task: Task[Any, Any], *args: Any, queue: str = "default", priority: int | None = None
) -> None:
    """Run ``task(*args)`` in the background once the current transaction commits.

    ``priority`` (0 first, 9 last) orders work on the broker; the in-process pool runs in order.
    """
    transaction.on_commit(lambda: _send(task, args, queue, priority))


def _send(task: Task[Any, Any], args: tuple[Any, ...], queue: str, priority: int | None) -> None:
    if uses_broker():
        try:
            options: dict[str, Any] = {"queue": queue, "retry": True, "retry_policy": PUBLISH_RETRY}
            if priority is not None:
                options["priority"] = priority
            task.apply_async(args=args, **options)
        except Exception as exc:
            # The work is committed and marked pending; the periodic sweep re-sends pending
            # scoring and coverage, so the request that queued it still succeeds (no 500 that
            # would make a retrying client upload or close twice).
            log.error(
                "could not queue %s%r (%s); the periodic sweep will re-send it",
                task.name,
                args,
                exc,
            )
    else:
        future = _local_executor().submit(_run_here, task, args)
        _pending.add(future)
        future.add_done_callback(_pending.discard)


def _local_executor() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=envint("BACKGROUND_THREADS", 2), thread_name_prefix="background"
        )
    return _executor


def _run_here(task: Task[Any, Any], args: tuple[Any, ...]) -> None:
    close_old_connections()
    try:
        result = task.apply(args=args)
        if result.failed():
            log.error("background task %s%r failed: %s", task.name, args, result.result)
    finally:
        close_old_connections()


def drain(timeout: float = 60.0) -> None:
    """Wait until in-process work is done, including work that work queued (tests, commands)."""
    deadline = time.monotonic() + timeout
    while _pending:
        wait(list(_pending), timeout=max(0.0, deadline - time.monotonic()))
        if time.monotonic() >= deadline:
            raise TimeoutError("background work did not finish in time")
