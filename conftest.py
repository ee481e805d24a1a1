"""Fixtures shared by every test: the cast of users and the live processes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.support import processes, services

pytest_plugins = ["tests.support.browser"]

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run in
# a thread with a running loop unless told this is intended (it is: tests are synchronous).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def alice(db: None) -> User:
    """A player who owns runs in most tests."""
    from django.contrib.auth.models import User

    return User.objects.create_user("alice", "alice@example.org", "alice-password-1")


@pytest.fixture
def bob(db: None) -> User:
    """Another player, who must not see Alice's runs."""
    from django.contrib.auth.models import User

    return User.objects.create_user("bob", "bob@example.org", "bob-password-1")


@pytest.fixture
def charlie(db: None) -> User:
    """A staff reviewer."""
    from django.contrib.auth.models import User

    return User.objects.create_user(
        "charlie", "charlie@example.org", "charlie-password-1", is_staff=True
    )


#: Where the live server writes its mails (file backend), one folder per test process.
LIVE_MAIL_DIR = processes.ROOT / "var" / f"test-mail-{os.getpid()}"


@pytest.fixture(scope="session")
def live_url(django_db_setup: None, django_db_blocker: object) -> Iterator[str]:
    """A daphne serving the test database in the default, broker-less mode."""
    mail = {"EMAIL_BACKEND": "file", "EMAIL_FILE_PATH": str(LIVE_MAIL_DIR)}
    with processes.daphne(REDIS_URL="", CELERY_BROKER_URL="", **mail) as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> str:
    return services.require_redis()


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None, redis_url: str) -> Iterator[None]:
    """A real Celery worker on Redis, writing to the test database."""
    processes.purge_queues(redis_url)
    with processes.celery_worker(REDIS_URL=redis_url):
        yield


FIXTURE_CASES = processes.ROOT / "tests" / "fixtures" / "cases"


@pytest.fixture
def knapsack(db: None) -> object:
    """The tiny-knapsack fixture package, imported and published (anchors not re-run)."""
    from fdeplatform.cases.services import case_import

    return case_import(source=FIXTURE_CASES / "tiny-knapsack", check_anchors=False).version.case


@pytest.fixture(scope="session")
def live_url_redis(django_db_setup: None, redis_url: str) -> Iterator[str]:
    """A daphne on the Redis channel layer, so Celery workers can push to its websockets."""
    with processes.daphne(REDIS_URL=redis_url) as url:
        yield url


@pytest.fixture
def bundled_cases(db: None) -> list[Any]:
    """Every case package bundled under cases/, imported (anchors are CI's validate_cases job)."""
    from fdeplatform.cases.services import bundled_packages, case_import

    return [
        case_import(source=path, check_anchors=False).version.case for path in bundled_packages()
    ]


@pytest.fixture(scope="session", autouse=True)
def _celery_configured_from_the_environment() -> None:
    """Read Celery's configuration once, before any test overrides Django settings.

    Celery reads Django settings lazily on first use; a test that blanks CELERY_BROKER_URL (to
    use the in-process pool) must not leave Celery pointing at the default AMQP broker.
    """
    from django.conf import settings

    if not settings.configured:  # a run without pytest-django (plain-package tests)
        return
    from fdeplatform.celery import app

    _ = app.conf.broker_url


@pytest.fixture(scope="session", autouse=True)
def _flush_survives_a_live_servers_late_write() -> Iterator[None]:
    """Retry a test database flush that lost a deadlock to a live server (``tests.support.quiet``)."""
    from tests.support.quiet import retry_flush_on_deadlock

    undo = retry_flush_on_deadlock()
    yield
    undo()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Before a test that used a live server flushes its database, let the server's
    background writes finish (``tests.support.quiet``)."""
    fixtures = getattr(item, "fixturenames", ())
    marker = item.get_closest_marker("django_db")
    transactional = "transactional_db" in fixtures or bool(
        marker and (marker.kwargs.get("transaction") or (marker.args and marker.args[0]))
    )
    if transactional and any(name.startswith("live_url") for name in fixtures):
        from tests.support.quiet import wait_for_quiet_database

        if not wait_for_quiet_database():
            print(f"\n{item.nodeid}: a live server's database work was still running at teardown")
    yield


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say which real services this run used, so a CI log shows it."""
    from django.conf import settings

    if not settings.configured:
        return
    from django.db import connection

    terminalreporter.section("services used by this run")
    terminalreporter.write_line(
        f"database: {connection.vendor} ({connection.settings_dict['NAME']})"
    )
    terminalreporter.write_line(
        f"channel layer / broker: {os.environ.get('REDIS_URL') or 'none (in-memory, in-process)'}"
    )
    for line in processes.STARTED:
        terminalreporter.write_line(line)
