"""manage.py in a fresh shell: it finds script/server's local key, or says in one line why not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _fresh_shell(var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL"}}
    return {**env, "VAR_DIR": str(var_dir), "HTTPS": "false"}


def test_it_uses_the_key_script_server_wrote(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("k" * 50 + "\n")
    done = _manage(_fresh_shell(tmp_path), "check")
    assert done.returncode == 0, done.stderr


def test_without_any_key_it_says_so_in_one_line(tmp_path: Path) -> None:
    env = _fresh_shell(tmp_path)
    if (ROOT / "var" / "secret_key").exists():  # a checkout where script/server already ran
        env["VAR_DIR"] = str(tmp_path)
        (tmp_path / "secret_key").write_text("")
    done = _manage(env, "check")
    if (ROOT / "var" / "secret_key").exists():
        assert done.returncode == 0  # falls back to the checkout's own key
        return
    assert done.returncode == 1
    assert done.stderr.strip().startswith("manage.py: SECRET_KEY is not set")
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
