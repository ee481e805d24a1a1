"""The README's agent walk-through, run as written in a fresh shell.

The block under "Playing as an agent" is read from README.md and run by ``bash -e`` with an
environment as bare as a new terminal's (PATH, HOME), from the checkout's root, against a
server set up the way ``script/server`` leaves one: the default SQLite database and the local
secret key under the var folder (``VAR_DIR`` points both at a scratch folder here, so the
developer's own ``var/`` is not touched). Only three things differ from a reader's terminal,
each stated below: the port, the ``pip`` (a scratch venv's, first on PATH) and the line where
"your agent writes its plan", which copies the case's reference deliverable.
"""

from __future__ import annotations

import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import processes

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "cases" / "tutorial-bake-sale" / "hidden" / "reference.csv"
AGENT_LINE = "# ... your agent writes its plan to deliverable.csv"


def readme_walkthrough() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"## Playing as an agent\n\n```sh\n(.*?)```", readme, re.S)
    assert match, "README lost its agent walk-through block"
    return match.group(1)


def test_the_readme_block_is_what_this_test_runs() -> None:
    """Guards the substitutions below: if the README changes shape, this says so first."""
    block = readme_walkthrough()
    assert "127.0.0.1:8000" in block and AGENT_LINE in block
    assert block.splitlines()[0].startswith("pip install ./clients/fde")


def test_the_agent_walkthrough_runs_as_written(tmp_path: Path) -> None:
    var = tmp_path / "var"
    var.mkdir()
    (var / "secret_key").write_text(secrets.token_urlsafe(50))  # what script/server writes
    bare = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path), "VAR_DIR": str(var)}
    manage = [str(ROOT / ".venv" / "bin" / "python"), "manage.py"]
    if not Path(manage[0]).exists():
        manage[0] = sys.executable
    for step in (["migrate", "-v0"], ["import_case", "cases/tutorial-bake-sale"]):
        done = subprocess.run(
            manage + step, cwd=ROOT, env=bare, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout + done.stderr

    venv = tmp_path / "agent-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    port = processes.free_port()
    script = "\n".join(
        f"cp {REFERENCE} deliverable.csv" if line.startswith(AGENT_LINE) else line
        for line in readme_walkthrough().replace("127.0.0.1:8000", f"127.0.0.1:{port}").splitlines()
    )
    server_env = {
        **bare,
        "SECRET_KEY": (var / "secret_key").read_text(),
        "HTTPS": "false",
        "STATIC_MANIFEST": "false",
        "WHITENOISE_USE_FINDERS": "true",
        "PYTHONPATH": str(ROOT),
    }
    server = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
              "fdeplatform.asgi:application"]  # fmt: skip
    before = set(ROOT.glob("tutorial-bake-sale-*"))
    try:
        with processes.running(server, server_env, f"walkthrough-{port}") as process:
            processes._wait_http(
                f"http://127.0.0.1:{port}/healthz",
                process,
                processes.LOG_DIR / f"walkthrough-{port}.log",
            )
            shell_env = {**bare, "PATH": f"{venv / 'bin'}:{bare['PATH']}"}
            ran = subprocess.run(
                ["bash", "-e", "-o", "pipefail", "-c", script],
                cwd=ROOT,
                env=shell_env,
                capture_output=True,
                text=True,
                timeout=600,
            )
    finally:
        for folder in set(ROOT.glob("tutorial-bake-sale-*")) - before:
            shutil.rmtree(folder, ignore_errors=True)
    output = ran.stdout + ran.stderr
    assert ran.returncode == 0, output
    assert "tutorial-bake-sale" in output  # fde cases
    assert "oven" in output.lower() and "hours" in output.lower()  # the customer's answer
    assert "Result:" in output and "practice" in output.lower(), output  # scored, not ranked
