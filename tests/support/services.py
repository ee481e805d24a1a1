"""Which real services this test run has, and what to do when one is missing.

In CI (``CI=true``) a test that needs a service fails when the service is missing; on a laptop
it is skipped with a reason that pytest prints in its summary (``-ra``).
"""

from __future__ import annotations

import os
import shutil
import socket
from urllib.parse import urlparse

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 2
        ):
            return True
    except OSError:
        return False


def missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI needs this service: {reason}", pytrace=False)
    pytest.skip(reason)


def require_redis() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing("REDIS_URL is not set: no Redis broker/channel layer for this test")
    elif not _reachable(url, 6379):
        missing(f"Redis at {url} is not reachable")
    return url


def require_postgres() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        missing("DATABASE_URL is not a PostgreSQL URL")
    elif not _reachable(url, 5432):
        missing(f"PostgreSQL at {url} is not reachable")
    return url


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def require_chromium() -> str:
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        missing(f"{CHROMIUM} not found (apt-get install -y chromium)")
    return CHROMIUM


def require_bubblewrap() -> None:
    """The evaluator sandbox (bubblewrap) must work here; CI installs it in ``.ci/run``."""
    from evaluators import isolation

    problem = isolation.bwrap_problem()
    if problem is not None:
        missing(problem)
