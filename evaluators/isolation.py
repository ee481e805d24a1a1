"""Where an evaluator runs: inside a bubblewrap namespace sandbox, or (without one) a bare child.

A case evaluator is untrusted code (anyone who authors a package writes one). Process limits
alone let it read the site's database, open connections and write into the case store, so the
child runs under ``bwrap`` (Debian's ``bubblewrap``), which needs no daemon and no root:

* new user, network, PID, IPC, UTS and cgroup namespaces: no network at all (not even the
  site's PostgreSQL or Redis on loopback), no view of other processes, user ``nobody`` with no
  capabilities;
* an empty root with read-only views of the system's libraries, the Python installation, the
  ``evaluators`` package and this one case's ``data/`` and ``hidden/`` folders; nothing else of
  the repository (``var/`` with the SQLite database and secret key, media, other cases);
* a private ``/tmp`` (the scratch directory, also ``HOME``) that disappears with the sandbox;
* the environment the parent built (``sandbox._child_env``): no secrets.

Inside, the child lowers its own limits and installs a seccomp filter (``evaluators.seccomp``)
so it can start no program and no process.

``EVALUATOR_ISOLATION`` chooses: ``bwrap`` (required: scoring reports a configuration error when
bubblewrap cannot run), ``process`` (limits and the seccomp filter only: a laptop without
bubblewrap) or ``auto`` (the default: ``bwrap`` when it works here, else ``process`` with a
warning in the log). CI sets ``bwrap``.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

log = logging.getLogger(__name__)

MODES = ("auto", "bwrap", "process")
PACKAGE_DIR = Path(__file__).resolve().parent
#: The user evaluator code runs as inside the sandbox.
NOBODY = 65534
SCRATCH = "/tmp"


class IsolationUnavailable(Exception):
    """``EVALUATOR_ISOLATION=bwrap`` but bubblewrap cannot run on this machine."""


def mode() -> str:
    value = os.environ.get("EVALUATOR_ISOLATION", "auto").strip().lower() or "auto"
    if value not in MODES:
        raise IsolationUnavailable(
            f"EVALUATOR_ISOLATION={value!r} is not one of {', '.join(MODES)}"
        )
    return value


@functools.cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot sandbox here, or None when it can (checked once per process)."""
    binary = shutil.which("bwrap")
    if binary is None:
        return "bubblewrap (bwrap) is not installed; `apt-get install bubblewrap`"
    command = [*_bwrap_args(binary, readable=[], scratch_cwd=False), interpreter(), "-c", "pass"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=30, env={"PATH": "/usr/bin"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap failed to start: {exc}"
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return (
            f"bubblewrap cannot create a sandbox here: {reason[-1] if reason else done.returncode}"
        )
    return None


def interpreter() -> str:
    """This Python, by a path that exists inside the sandbox.

    The folder is resolved (a virtualenv reached through a symlinked folder is bound at its
    real place) but not the file, so a virtualenv's ``python`` still finds its ``pyvenv.cfg``.
    """
    executable = Path(sys.executable)
    return str(executable.parent.resolve() / executable.name)


def wrap(command: list[str], readable: list[Path]) -> tuple[list[str], str]:
    """``command`` prefixed with the sandbox, and a one-line description for the admin log.

    ``readable`` are the paths (beside the system and Python) the evaluator may read.
    """
    chosen = mode()
    if chosen == "process":
        return command, "isolation: process limits only (EVALUATOR_ISOLATION=process)"
    problem = bwrap_problem()
    if problem is not None:
        if chosen == "bwrap":
            raise IsolationUnavailable(problem)
        log.warning("evaluator isolation falls back to process limits: %s", problem)
        return command, f"isolation: process limits only ({problem})"
    binary = shutil.which("bwrap") or "bwrap"
    return _bwrap_args(binary, readable) + command, "isolation: bubblewrap namespace sandbox"


def _bwrap_args(binary: str, readable: list[Path], *, scratch_cwd: bool = True) -> list[str]:
    args = [
        binary,
        "--unshare-all",  # user, network, pid, ipc, uts and cgroup namespaces
        "--die-with-parent",
        "--new-session",
        "--uid",
        str(NOBODY),
        "--gid",
        str(NOBODY),
        "--hostname",
        "evaluator",
        "--cap-drop",
        "ALL",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        SCRATCH,
    ]
    for system_dir in ("/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime"):
        args += ["--ro-bind-try", system_dir, system_dir]
    for path in _python_paths() + [PACKAGE_DIR] + [Path(p).resolve() for p in readable]:
        args += ["--ro-bind", str(path), str(path)]
    if scratch_cwd:
        args += ["--chdir", SCRATCH]
    return args


def _python_paths() -> list[Path]:
    """The interpreter, its standard library and the installed packages, outside ``/usr``."""
    candidates = {
        Path(sys.prefix).resolve(),
        Path(sys.base_prefix).resolve(),
        Path(sys.executable).resolve().parent,
        Path(sys.executable).parent.resolve(),
    }
    candidates |= {Path(p).resolve() for p in site.getsitepackages() if Path(p).is_dir()}
    kept = sorted(
        path
        for path in candidates
        if not path.is_relative_to("/usr") and path != Path("/") and path != PACKAGE_DIR.parent
    )
    # Drop paths inside another kept path. The repository root is never bound (a virtualenv
    # inside it is, read-only: it holds packages, no data).
    return [p for p in kept if not any(p != q and p.is_relative_to(q) for q in kept)]
