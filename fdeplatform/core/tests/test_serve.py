"""The multi-process launcher: several daphne processes answer on one port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from fdeplatform.core.serve import child_environment, process_count

ROOT = Path(__file__).resolve().parents[3]


def test_one_process_without_redis_else_the_setting_or_the_cores() -> None:
    assert process_count({}) == 1
    assert process_count({"WEB_PROCESSES": "4"}) == 1  # the in-memory layer cannot span them
    assert process_count({"REDIS_URL": "redis://x", "WEB_PROCESSES": "3"}) == 3
    assert process_count({"REDIS_URL": "redis://x"}) == (os.cpu_count() or 1)
    with pytest.raises(SystemExit, match="not a whole number"):
        process_count({"REDIS_URL": "redis://x", "WEB_PROCESSES": "many"})


def test_web_processes_on_postgresql_pool_their_connections_unless_told() -> None:
    pg = "postgres://u@db:5432/fde"
    assert child_environment({"DATABASE_URL": pg})["DB_POOL_SIZE"] == "10"
    assert child_environment({"DATABASE_URL": pg, "DB_POOL_SIZE": "4"})["DB_POOL_SIZE"] == "4"
    assert "DB_POOL_SIZE" not in child_environment({})  # SQLite: no pool
    assert child_environment({"DATABASE_URL": pg, "X": "y"})["X"] == "y"


@pytest.mark.slow
def test_two_processes_share_the_port_and_stop_together(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, VAR_DIR=str(tmp_path))
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fdeplatform.core.serve",
            "127.0.0.1",
            str(port),
            "--processes",
            "2",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert "2 daphne process(es)" in server.stdout.readline()
        pids: set[int] = set()
        deadline = time.monotonic() + 60
        while len(pids) < 2 and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as page:
                    pids.add(int(json.loads(page.read())["pid"]))
            except OSError:
                time.sleep(0.3)
        assert len(pids) == 2, pids
    finally:
        server.terminate()
        server.wait(timeout=20)
    for pid in pids:
        assert (
            not Path(f"/proc/{pid}").exists()
            or "State:\tZ" in Path(f"/proc/{pid}/status").read_text()
        )


SUPERVISOR = """
import subprocess, sys
from fdeplatform.core.serve import supervise
# A child that ignores SIGTERM, as daphne does while websockets are open.
child = subprocess.Popen([sys.executable, "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up', flush=True); time.sleep(120)"],
    stdout=subprocess.PIPE, text=True)
child.stdout.readline()
print("ready", flush=True)
sys.exit(supervise([child], grace_s=2.0))
"""


def test_sigterm_stops_the_supervisor_even_when_a_child_ignores_it() -> None:
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert supervisor.stdout is not None and supervisor.stdout.readline().strip() == "ready"
    started = time.monotonic()
    supervisor.terminate()
    try:
        supervisor.wait(timeout=10)
    finally:
        supervisor.kill()
    assert time.monotonic() - started < 8  # the 2 s grace, then the child is killed
