"""Bad settings must stop the process at start-up with a message naming the problem."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _start(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_refuses_to_start_without_secret_key_when_debug_is_off() -> None:
    result = _start(DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_it_refuses_a_weak_secret_key() -> None:
    result = _start(DEBUG="false", SECRET_KEY="short")
    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr


def test_it_names_a_malformed_boolean() -> None:
    result = _start(DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_it_starts_with_a_real_key() -> None:
    result = _start(DEBUG="false", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
