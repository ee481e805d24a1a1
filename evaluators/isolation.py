"""Where an evaluator runs, and what each way of running it guarantees.

A case evaluator is untrusted code (anyone who authors a package writes one). Process limits
alone let it read the site's database, open connections and write into the case store, so it
runs confined in one of three ways, named in every scoring result, admission report and
``/healthz`` (``Confinement.name``):

``bwrap`` - a bubblewrap (Debian's ``bubblewrap``) namespace sandbox, no daemon, no root:

* new user, network, PID, IPC, UTS and cgroup namespaces: no network at all (not even the
  site's PostgreSQL or Redis on loopback), no view of other processes, user ``nobody`` with no
  capabilities, and (bubblewrap 0.8+, ``--disable-userns``) no nested user namespace;
* an empty root with read-only views of the system's libraries, the Python installation, the
  ``evaluators`` package and this one case's ``data/`` and ``hidden/`` folders; nothing else of
  the repository (``var/`` with the SQLite database and secret key, media, other cases);
* a private ``/tmp`` (the scratch directory, also ``HOME``) that disappears with the sandbox.

``process+landlock`` - no namespaces, the host's file tree, but Landlock (``evaluators.landlock``)
lets the child read only the system libraries, the Python installation, the ``evaluators``
package and this case's ``data/`` and ``hidden/``, and write only its scratch folder; every
other open fails, for root too. Other processes of the same user stay visible (their files in
``/proc`` are not readable), and on kernels before Landlock ABI 6 signals can still reach them.

``process`` - Landlock is missing from this kernel: the child can read (not write through the
sandbox's limits, only through file permissions) every file its user can. Use it only where
the evaluators are trusted; the isolation string, the admission report and ``/healthz`` say so.

In every mode the child gets the environment the parent built (``sandbox._child_env``: no
secrets), lowers its own limits, drops its capabilities and installs a seccomp filter
(``evaluators.seccomp``): no program, no process, no socket but a Unix one, no ``connect``, no
new namespace. The filter is what closes the network in the two ``process`` modes.

``EVALUATOR_ISOLATION`` chooses: ``bwrap`` (required: scoring reports a configuration error when
bubblewrap cannot run), ``process`` (``process+landlock`` where the kernel has Landlock, else
``process``) or ``auto`` (the default: ``bwrap`` when it works here, else ``process``, with a
warning in the log). CI sets ``bwrap``.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import site
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from evaluators import landlock

log = logging.getLogger(__name__)

MODES = ("auto", "bwrap", "process")
#: ``Confinement.name`` values, strongest first.
NAMES = ("bwrap", "process+landlock", "process")
PACKAGE_DIR = Path(__file__).resolve().parent
#: The user evaluator code runs as inside the sandbox.
NOBODY = 65534
SCRATCH = "/tmp"
#: The first bubblewrap release with ``--disable-userns``.
DISABLE_USERNS_SINCE = (0, 8)


class IsolationUnavailable(Exception):
    """``EVALUATOR_ISOLATION=bwrap`` but bubblewrap cannot run on this machine."""


@dataclass(frozen=True)
class Confinement:
    """How one evaluator child is confined: its command line and what the logs say of it."""

    command: list[str]
    name: str  # one of NAMES
    description: str  # the first line of the admin log
    landlock: bool = False  # the child must restrict itself with Landlock (and fail if it cannot)


def mode() -> str:
    value = os.environ.get("EVALUATOR_ISOLATION", "auto").strip().lower() or "auto"
    if value not in MODES:
        raise IsolationUnavailable(
            f"EVALUATOR_ISOLATION={value!r} is not one of {', '.join(MODES)}"
        )
    return value


@functools.cache
def bwrap_version() -> tuple[int, ...] | None:
    """bubblewrap's version (``bwrap --version``: "bubblewrap 0.8.0"), None when unknown."""
    binary = shutil.which("bwrap")
    if binary is None:
        return None
    try:
        done = subprocess.run([binary, "--version"], capture_output=True, timeout=10, text=True)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", done.stdout)
    return tuple(int(part or 0) for part in found.groups()) if found else None


def _probe(binary: str, *, disable_userns: bool) -> str | None:
    args = _bwrap_args(binary, readable=[], scratch_cwd=False, disable_userns=disable_userns)
    try:
        done = subprocess.run(
            [*args, interpreter(), "-c", "pass"],
            capture_output=True,
            timeout=30,
            env={"PATH": "/usr/bin"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap failed to start: {exc}"
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return (
            f"bubblewrap cannot create a sandbox here: {reason[-1] if reason else done.returncode}"
        )
    return None


@functools.cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot sandbox here, or None when it can (checked once per process)."""
    binary = shutil.which("bwrap")
    if binary is None:
        return "bubblewrap (bwrap) is not installed; `apt-get install bubblewrap`"
    if disable_userns_works():
        return None
    return _probe(binary, disable_userns=False)


@functools.cache
def disable_userns_works() -> bool:
    """Whether this bubblewrap can close nested user namespaces (0.8+, not the setuid build).

    Without it they stay closed by the seccomp filter alone.
    """
    binary = shutil.which("bwrap")
    version = bwrap_version()
    if binary is None or version is None or version < DISABLE_USERNS_SINCE:
        return False
    return _probe(binary, disable_userns=True) is None


def interpreter() -> str:
    """This Python, by a path that exists inside the sandbox.

    The folder is resolved (a virtualenv reached through a symlinked folder is bound at its
    real place) but not the file, so a virtualenv's ``python`` still finds its ``pyvenv.cfg``.
    """
    executable = Path(sys.executable)
    return str(executable.parent.resolve() / executable.name)


def readable_paths(readable: list[Path]) -> list[Path]:
    """Beside the system: the Python installation, ``evaluators`` and the case's own paths."""
    return _python_paths() + [PACKAGE_DIR] + [Path(p).resolve() for p in readable]


def wrap(command: list[str], readable: list[Path]) -> Confinement:
    """``command`` confined as strongly as this machine and ``EVALUATOR_ISOLATION`` allow.

    ``readable`` are the paths (beside the system and Python) the evaluator may read.
    """
    chosen = mode()
    if chosen == "process":
        return _process(command, "EVALUATOR_ISOLATION=process")
    problem = bwrap_problem()
    if problem is not None:
        if chosen == "bwrap":
            raise IsolationUnavailable(problem)
        log.warning("evaluator isolation falls back from bubblewrap: %s", problem)
        return _process(command, problem)
    binary = shutil.which("bwrap") or "bwrap"
    args = _bwrap_args(binary, readable, disable_userns=disable_userns_works())
    return Confinement(args + command, "bwrap", "isolation: bubblewrap namespace sandbox (bwrap)")


def _process(command: list[str], why: str) -> Confinement:
    version = landlock.abi()
    if version >= 1:
        text = f"isolation: process+landlock (Landlock ABI {version}; {why})"
        return Confinement(command, "process+landlock", text, landlock=True)
    log.warning("evaluator isolation is process limits only: this kernel has no Landlock")
    text = (
        f"isolation: process (NO Landlock in this kernel: the evaluator can read every file "
        f"its user can; {why})"
    )
    return Confinement(command, "process", text)


def status() -> dict[str, object]:
    """What the next evaluator would run under, for ``/healthz``.

    ``ok`` is False only when scoring cannot run at all (``bwrap`` required but unavailable);
    a fallback is ok but carries a ``warning``.
    """
    try:
        confinement = wrap([], [])
    except IsolationUnavailable as exc:
        return {
            "ok": False,
            "mode": os.environ.get("EVALUATOR_ISOLATION", "auto"),
            "isolation": None,
            "error": str(exc),
        }
    report: dict[str, object] = {"ok": True, "mode": mode(), "isolation": confinement.name}
    if confinement.name != "bwrap":
        report["warning"] = confinement.description.removeprefix("isolation: ")
    return report


def _bwrap_args(
    binary: str, readable: list[Path], *, scratch_cwd: bool = True, disable_userns: bool = False
) -> list[str]:
    args = [
        binary,
        "--unshare-all",  # user, network, pid, ipc, uts and cgroup namespaces
        # A required user namespace (not --unshare-all's "if possible") in which no other can
        # be created: the evaluator cannot become root of a namespace of its own.
        *(["--unshare-user", "--disable-userns"] if disable_userns else []),
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
    for path in readable_paths(readable):
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
