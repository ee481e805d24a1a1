"""Wait for the live servers' database work to finish before a test's database is flushed.

A transactional test that used a live daphne ends with Django's flush (one TRUNCATE of every
table). The daphne is a separate process whose in-process pool may still be writing (a run's
coverage judged after it closed, a page view's cache warm-up); PostgreSQL then detects a
deadlock between the TRUNCATE and that write and fails the teardown (seen in CI on a loaded
machine). Waiting until no other session of the test database is inside a statement or a
transaction narrows the race without touching the code under test; it cannot close it (a page
the test viewed last may queue background work that starts just after the wait), so a flush
that PostgreSQL aborted as a deadlock victim is retried after another wait
(``retry_flush_on_deadlock``). The aborted TRUNCATE rolled back whole, so retrying is safe.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

_BUSY = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid()
      AND backend_type = 'client backend'
      AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')
"""


def wait_for_quiet_database(timeout: float = 15.0, settle: float = 0.2) -> bool:
    """Until no other session of the test database is busy (True), or ``timeout`` (False).

    A no-op off PostgreSQL (SQLite has no other sessions to race with)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return True
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(_BUSY)
            (busy,) = cursor.fetchone()
        if not busy:
            return True
        time.sleep(settle)
    return False


FLUSH_ATTEMPTS = 4


def _is_deadlock(error: BaseException) -> bool:
    """Was this (or the error it wraps: flush raises CommandError from it) a deadlock?"""
    while error is not None:
        if "deadlock detected" in str(error):
            return True
        error = error.__cause__  # type: ignore[assignment]
    return False


def retry_flush_on_deadlock() -> Callable[[], None]:
    """Wrap ``TransactionTestCase._fixture_teardown`` (the flush) so a deadlock with a live
    server's late background write is retried after the database is quiet again; any other
    error, or a deadlock on the last attempt, is raised. Returns the undo."""
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown  # type: ignore[attr-defined]

    @functools.wraps(original)
    def teardown(self: Any) -> None:
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                original(self)
                return
            except Exception as error:
                if attempt == FLUSH_ATTEMPTS or not _is_deadlock(error):
                    raise
                print(f"\nflush lost a deadlock to a live server's write; retry {attempt}")
                wait_for_quiet_database()

    TransactionTestCase._fixture_teardown = teardown  # type: ignore[attr-defined]

    def undo() -> None:
        TransactionTestCase._fixture_teardown = original  # type: ignore[attr-defined]

    return undo
