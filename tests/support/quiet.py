"""Wait for the live servers' database work to finish before a test's database is flushed.

A transactional test that used a live daphne ends with Django's flush (one TRUNCATE of every
table). The daphne is a separate process whose in-process pool may still be writing (a run's
coverage judged after it closed, a page view's cache warm-up); PostgreSQL then detects a
deadlock between the TRUNCATE and that write and fails the teardown (seen once in CI on a loaded
machine). Waiting until no other session of the test database is inside a statement or a
transaction removes the race without touching the code under test.
"""

from __future__ import annotations

import time

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
