"""Launching one agent in its workspace under a campaign's budget.

The agent is a command (a built-in reference agent, or the one after ``--``) run in the run's
workspace in its own process group, with the run in its environment and the solving prompt in
``PROMPT.md``. It is stopped (SIGTERM, then SIGKILL, for the whole group) when the wall-clock
budget or the run's deadline passes, when the campaign is interrupted, or when the watchdog sees
it past the turn or contact-cost cap (an agent may ask through the API and not ``./ask``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fde_client.api import Client
from fde_client.caps import Caps, exceeded, usage
from fde_client.errors import FdeError, UsageError

KILL_GRACE_SECONDS = 10
BUILT_IN = ("floor", "generic-asker", "llm")
PROMPT_FILE = "PROMPT.md"


@dataclass
class Launch:
    """How to start the agent: its argv template and the extra environment."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    name: str = "custom"

    def command_for(self, prompt_file: Path, prompt: str) -> list[str]:
        """``{prompt_file}`` and ``{prompt}`` in the command become the run's prompt."""
        return [
            word.replace("{prompt_file}", str(prompt_file)).replace("{prompt}", prompt)
            for word in self.argv
        ]


def built_in(name: str, *, model: str | None, extra: list[str]) -> Launch:
    """A reference agent of ``clients/agents`` (package ``fde_agents``), run by this Python."""
    if name not in BUILT_IN:
        raise UsageError(f"unknown agent {name!r}; the reference agents are {', '.join(BUILT_IN)}")
    paths = _package_paths()
    argv = [sys.executable, "-m", "fde_agents", name, *extra]
    if model:
        argv += ["--model", model]
    joined = os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return Launch(argv=argv, env={"PYTHONPATH": joined}, name=name)


def _package_paths() -> list[str]:
    """Where fde_client and fde_agents are imported from, for the agent's PYTHONPATH.

    Installed packages need nothing; a checkout (the client used from ``clients/fde/src``)
    finds the agents beside it in ``clients/agents/src``.
    """
    import fde_client

    client_root = Path(fde_client.__file__).resolve().parent.parent
    paths = [str(client_root)]
    spec = importlib.util.find_spec("fde_agents")
    if spec is not None and spec.origin:
        paths.append(str(Path(spec.origin).resolve().parent.parent))
        return paths
    sibling = client_root.parent.parent / "agents" / "src"
    if not (sibling / "fde_agents").is_dir():
        raise UsageError(
            "the reference agents are not installed: pip install ./clients/agents "
            "(add [llm] for the llm agent)"
        )
    paths.append(str(sibling))
    return paths


def custom(command: list[str]) -> Launch:
    """The agent command after ``--``, its program made absolute (it runs in the workspace)."""
    if not command:
        raise UsageError("no agent: pass --agent floor|generic-asker|llm, or a command after `--`")
    program = command[0]
    if os.sep in program:
        path = Path(program).resolve()
        if not path.is_file():
            raise UsageError(f"agent command {program!r} does not exist")
        return Launch(argv=[str(path), *command[1:]])
    if shutil.which(program) is None:
        raise UsageError(f"agent command {program!r} is not on the PATH")
    return Launch(argv=command)


@dataclass
class Outcome:
    exit_code: int
    stopped: str | None = None  # why the harness stopped it, if it did


def run_agent(
    argv: list[str],
    folder: Path,
    env: dict[str, str],
    *,
    budget: float | None,
    caps: Caps,
    client: Client,
    run_id: str,
    stop: threading.Event,
    on_spawn: Callable[[int], None] | None = None,
    watch_every: float = 5.0,
) -> Outcome:
    """Run the agent until it exits, its budget passes, a cap is exceeded or ``stop`` is set."""
    log_path = folder / ".fde" / "agent.log"
    end = time.monotonic() + budget if budget is not None else None
    next_watch = time.monotonic() + watch_every
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            argv, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        if on_spawn is not None:
            on_spawn(process.pid)
        try:
            while True:
                code = process.poll()
                if code is not None:
                    return Outcome(code)
                reason = _why_stop(end, stop, caps, client, run_id, next_watch)
                if reason == "watch":
                    next_watch = time.monotonic() + watch_every
                elif reason:
                    return Outcome(stop_group(process), stopped=reason)
                time.sleep(0.2)
        except BaseException:
            stop_group(process)
            raise


def _why_stop(
    end: float | None,
    stop: threading.Event,
    caps: Caps,
    client: Client,
    run_id: str,
    next_watch: float,
) -> str | None:
    now = time.monotonic()
    if stop.is_set():
        return "campaign interrupted"
    if end is not None and now >= end:
        return "wall-clock budget used up"
    if caps.any and now >= next_watch:
        try:
            beyond = exceeded(caps, usage(client, run_id))
        except FdeError:
            beyond = None  # a missed poll is not a reason to stop an agent
        return f"past the campaign's cap: {beyond}" if beyond else "watch"
    return None


def stop_group(process: subprocess.Popen[bytes]) -> int:
    for sig, grace in ((signal.SIGTERM, KILL_GRACE_SECONDS), (signal.SIGKILL, None)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            return process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
    return process.wait()


def stop_orphan(pid: int | None, run_id: str) -> bool:
    """Stop the agent a killed campaign left running for ``run_id``, and only that one.

    The pid is checked against the process's own environment (``FDE_RUN_ID``), so a pid the
    system has since given to another program is never signalled.
    """
    if not pid:
        return False
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False  # gone (or not Linux): nothing to stop
    if f"FDE_RUN_ID={run_id}".encode() not in environ.split(b"\0"):
        return False
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, sig)
        for _ in range(50):
            if not Path(f"/proc/{pid}").exists() or _zombie(pid):
                return True
            time.sleep(0.1)
    return True


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True
