"""The test harness survives a flush that loses a deadlock to another session's late write.

A browser test's last page view can queue background work in the live daphne (a run's coverage
judged on first view) that starts just after the quiet wait and locks rows while the flush's
TRUNCATE takes its table locks: PostgreSQL aborts the TRUNCATE as the deadlock victim and the
next test finds the previous one's rows (seen in CI). Here a second session plays that write:
it reads the last table the TRUNCATE locks, then reads the first once the TRUNCATE holds it and
waits for the last, a real deadlock; the flush must retry and leave the tables empty.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest

from tests.support import services

pytestmark = pytest.mark.django_db(transaction=True)


_TRUNCATE_WAITING = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid()
      AND wait_event_type = 'Lock' AND query LIKE 'TRUNCATE%%'
"""


def _until_the_truncate_waits(cursor: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # inside a transaction the activity view is a snapshot until cleared
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(_TRUNCATE_WAITING)
        if cursor.fetchone()[0]:
            return
        time.sleep(0.02)
    raise AssertionError("the flush's TRUNCATE never waited for this session's lock")


def _late_writer(
    dsn: str, first: str, last: str, started: threading.Event, done: threading.Event
) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=False) as conn, conn.cursor() as cursor:
        # this session never detects the deadlock itself: the TRUNCATE is its victim
        cursor.execute("SET deadlock_timeout = '10s'")
        cursor.execute(f'SELECT count(*) FROM "{last}"')
        started.set()
        _until_the_truncate_waits(cursor)  # it holds the first table and waits for the last
        cursor.execute(f'SELECT count(*) FROM "{first}"')
        conn.commit()
    done.set()


def _truncated_in_order() -> list[str]:
    """The tables the flush's TRUNCATE locks, in its order (Django lists them from a set, so the
    order differs between processes but not within one)."""
    from django.core.management.color import no_style
    from django.core.management.sql import sql_flush
    from django.db import connection

    (statement,) = sql_flush(no_style(), connection)
    return re.findall(r'"([^"]+)"', statement)


def test_a_flush_that_loses_a_deadlock_is_retried(
    django_user_model: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    services.require_postgres()
    from django.db import connection
    from django.test import TransactionTestCase

    django_user_model.objects.create_user("late", "late@example.org", "late-password-1")
    params = connection.get_connection_params()
    dsn = " ".join(
        f"{key}={params[key]}"
        for key in ("host", "port", "user", "password", "dbname")
        if params.get(key)
    )
    tables = _truncated_in_order()
    started, done = threading.Event(), threading.Event()
    writer = threading.Thread(
        target=_late_writer, args=(dsn, tables[0], tables[-1], started, done), daemon=True
    )
    writer.start()
    assert started.wait(10)

    TransactionTestCase(methodName="run")._fixture_teardown()  # type: ignore[attr-defined]

    writer.join(15)
    assert done.is_set()
    assert "lost a deadlock" in capsys.readouterr().out  # the retry path ran
    assert not django_user_model.objects.exists()
