"""Start real daphne and Celery processes against the test database.

Live tests talk to these over sockets, exactly as browsers and agents do; they are the
"independent client against a live server" the conventions ask for.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse, urlunparse

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
LOG_DIR = ROOT / "var" / "test-logs"
#: What this test run started, for the summary pytest prints at the end (CI's proof).
STARTED: list[str] = []


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_database_url() -> str:
    """DATABASE_URL of the database pytest-django created for this run."""
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{name}"
    parsed = urlparse(os.environ["DATABASE_URL"])
    return urlunparse(parsed._replace(path=f"/{name}"))


def server_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=test_database_url(),
        DEBUG="false",
        HTTPS="false",
        SECRET_KEY="test-secret-key-that-is-long-enough-for-production-checks",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        STATIC_MANIFEST="false",
        WHITENOISE_USE_FINDERS="true",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def _wait_http(
    url: str,
    process: subprocess.Popen[bytes],
    log: Path,
    timeout: float = 60,
    any_status: bool = False,
) -> None:
    """Wait for a 2xx from ``url`` (or, with ``any_status``, for any HTTP answer at all)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early; log:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except urllib.error.HTTPError:
            if any_status:
                return
            time.sleep(0.3)
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(
        f"server did not answer {url} within {timeout}s; log:\n{log.read_text()[-3000:]}"
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


@contextmanager
def running(cmd: list[str], env: dict[str, str], name: str) -> Iterator[subprocess.Popen[bytes]]:
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    log = LOG_DIR / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield process
        finally:
            _stop(process)


@contextmanager
def daphne(*, unhealthy_ok: bool = False, **extra_env: str) -> Iterator[str]:
    """A daphne on a free port; ``unhealthy_ok`` for a server meant to start with a service
    missing (its /healthz answers 503)."""
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "--websocket-max-message-size",
        "1048576",
        "fdeplatform.asgi:application",
    ]
    with running(cmd, server_env(**extra_env), f"daphne-{port}") as process:
        base = f"http://127.0.0.1:{port}"
        _wait_http(
            f"{base}/healthz", process, LOG_DIR / f"daphne-{port}.log", any_status=unhealthy_ok
        )
        if unhealthy_ok:
            STARTED.append(f"daphne {base}: started with {extra_env}")
        else:
            with urllib.request.urlopen(f"{base}/healthz", timeout=5) as response:
                STARTED.append(f"daphne {base}: healthz {response.read().decode()}")
        yield base


@contextmanager
def celery_worker(
    queues: str = "default,scoring,judging", **extra_env: str
) -> Iterator[subprocess.Popen[bytes]]:
    name = f"celery-{free_port()}"
    cmd = [
        sys.executable, "-m", "celery", "-A", "fdeplatform", "worker", "-Q", queues,
        "--concurrency=1", "--without-gossip", "--without-mingle", "--loglevel=INFO",
        "-n", f"{name}@%h",
    ]  # fmt: skip
    env = server_env(**extra_env)
    with running(cmd, env, name) as process:
        _wait_log(LOG_DIR / f"{name}.log", "ready", process)
        broker = env.get("CELERY_BROKER_URL") or env.get("REDIS_URL", "")
        STARTED.append(
            f"Celery worker {name} (queues {queues}) on broker {broker}, database {env['DATABASE_URL']}"
        )
        yield process


def _wait_log(
    log: Path, needle: str, process: subprocess.Popen[bytes], timeout: float = 60
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if needle in log.read_text(errors="replace"):
            return
        if process.poll() is not None:
            raise RuntimeError(f"worker exited early; log:\n{log.read_text()[-3000:]}")
        time.sleep(0.3)
    raise RuntimeError(f"worker not ready within {timeout}s; log:\n{log.read_text()[-3000:]}")


QUEUES = ("default", "scoring", "judging", "scoring-fault-test")


def purge_queues(redis_url: str) -> None:
    """Drop messages an earlier test run left in Redis (sent while no worker was running).

    Test databases restart their ids, so a stale ``score_submission(5)`` would otherwise be
    executed against another test's submission 5.
    """
    import redis

    client = redis.Redis.from_url(redis_url)
    # Each queue has a list per message priority ("scoring", "scoring:1" ... "scoring:9").
    priorities = [f"{queue}:{step}" for queue in QUEUES for step in range(1, 10)]
    client.delete(*QUEUES, *priorities, "unacked", "unacked_index", "unacked_mutex")
