"""Run a case evaluator in a separate, resource-limited process.

The parent (``run_evaluator``) sends the parsed Submission to a fresh interpreter running
``python -m evaluators.sandbox`` and reads one JSON object back from its stdout. A separate
process is what makes the limits real: a runaway evaluator can be killed (with anything it
spawned) and an allocation past the memory cap fails inside the child, not in the web worker.

The child limits itself (``setrlimit`` before anything untrusted is imported) rather than
using ``preexec_fn``: ``preexec_fn`` is unsafe when the parent has threads, and the site's
in-process scorer runs next to daphne's threads. The hard limit is lowered too, so evaluator
code cannot raise it again.

Around the child, ``evaluators.isolation`` puts a namespace sandbox (no network, no files but
this case's, user nobody); inside, before the case's code is imported, the child installs a
seccomp filter (``evaluators.seccomp``) so the evaluator can start no program or process.

This module is imported by the child, so it uses the standard library only.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import json
import math
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from evaluators import child_io, isolation

REPO_ROOT = Path(__file__).resolve().parents[1]
#: How much of the child's stderr an admin log keeps (and all the parent holds of it).
LOG_TAIL = 20_000
#: The most the child's one JSON message may weigh: details and examples, not data sets.
STDOUT_LIMIT = 16 * 1_048_576


@dataclass
class SandboxOutcome:
    """What happened in the child. ``log`` is for admins only: it may quote hidden files."""

    kind: str  # "ok", "timeout", "memory", "crash" or "bad_output"
    assessment: dict[str, Any] | None
    log: str
    isolation: str = ""  # isolation.Confinement.name


# --- parent side ---------------------------------------------------------------------------


def _child_env(workdir: str) -> dict[str, str]:
    """A small environment: no secrets from the site's settings reach evaluator code."""
    env = {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOME": workdir,
        "TMPDIR": workdir,
        # The repo root first, so ``evaluators.api`` always resolves to this checkout.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
    }
    # One BLAS/OpenMP thread: scoring boxes are small and share cores between jobs.
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    return env


def run_evaluator(
    evaluator: Path,
    submission: Any,
    data_dir: Path,
    hidden_dir: Path,
    *,
    timeout_s: float,
    memory_mb: int,
) -> SandboxOutcome:
    """Call ``evaluate(submission, data_dir, hidden_dir)`` from ``evaluator`` in a child.

    Raises ``isolation.IsolationUnavailable`` when the required sandbox cannot run here.
    """
    command = [
        isolation.interpreter(),
        "-m",
        "evaluators.sandbox",
        str(evaluator.resolve()),
        str(data_dir.resolve()),
        str(hidden_dir.resolve()),
        str(memory_mb),
        str(math.ceil(timeout_s) + 2),
    ]
    readable = sorted({evaluator.resolve().parent, data_dir.resolve(), hidden_dir.resolve()})
    confinement = isolation.wrap(command, readable)
    payload = pickle.dumps(submission, protocol=pickle.HIGHEST_PROTOCOL)
    with tempfile.TemporaryDirectory(prefix="fde-eval-") as workdir:
        command = confinement.command
        if confinement.name == "bwrap":
            workdir = isolation.SCRATCH  # the sandbox's own private /tmp
        elif confinement.landlock:
            allowed = {"read": [str(p) for p in isolation.readable_paths(readable)]}
            command = [*command, json.dumps({**allowed, "write": [workdir]})]
        outcome = _run(command, workdir, payload, timeout_s)
    outcome.isolation = confinement.name
    outcome.log = f"{confinement.description}\n{outcome.log}".rstrip()
    return outcome


def _run(command: list[str], workdir: str, payload: bytes, timeout_s: float) -> SandboxOutcome:
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=workdir,
        env=_child_env(workdir),
        start_new_session=True,
    )
    try:
        got = child_io.exchange(
            process,
            payload,
            timeout_s=timeout_s,
            stdout_limit=STDOUT_LIMIT,
            stderr_tail=LOG_TAIL,
            kill=lambda: _kill_group(process),
        )
    finally:
        # Anything the evaluator spawned and left behind goes too.
        _kill_group(process)
    log = _tail(got)
    if got.timed_out:
        return SandboxOutcome("timeout", None, log)
    if got.stdout_overflow:
        return SandboxOutcome(
            "bad_output",
            None,
            f"the evaluator's result passed {STDOUT_LIMIT // 1_048_576} MB; the child was "
            f"stopped and the result dropped (details and examples must stay small)\n{log}",
        )
    return _read_outcome(process.returncode, got.stdout, log)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _tail(got: child_io.Exchange) -> str:
    text = got.stderr_tail.decode("utf-8", "replace")[-LOG_TAIL:]
    if got.stderr_total > len(got.stderr_tail):
        dropped = got.stderr_total - len(got.stderr_tail)
        return f"[stderr: the first {dropped} of {got.stderr_total} bytes dropped]\n{text}"
    return text


def _read_outcome(returncode: int, stdout: bytes, log: str) -> SandboxOutcome:
    try:
        message = json.loads(stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        message = None
    if not isinstance(message, dict):
        return SandboxOutcome(_kind_of_death(returncode), None, f"exit code {returncode}\n{log}")
    if message.get("ok") is True and isinstance(message.get("assessment"), dict):
        return SandboxOutcome("ok", message["assessment"], log)
    kind = message.get("kind") if message.get("kind") in ("memory", "bad_output") else "crash"
    return SandboxOutcome(str(kind), None, f"{message.get('log', '')}\n{log}".strip())


def _kind_of_death(returncode: int) -> str:
    # A signal shows as -N from a bare child and as 128 + N through bubblewrap.
    if returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        return "timeout"
    if returncode in (-signal.SIGKILL, 128 + signal.SIGKILL):
        # The kernel's OOM killer is the usual sender when we did not kill the child ourselves.
        return "memory"
    return "crash" if returncode != 0 else "bad_output"


# --- child side ----------------------------------------------------------------------------


class _BadReturn(Exception):
    """The evaluator returned something the runtime cannot score."""


def _limit_resources(memory_mb: int, cpu_seconds: int) -> None:
    import resource

    memory = memory_mb * 1_048_576
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))


def _load_evaluate(evaluator: Path) -> Any:
    # Helper modules next to evaluator.py may be imported; appended so they never shadow
    # the standard library or installed packages.
    sys.path.append(str(evaluator.parent))
    spec = importlib.util.spec_from_file_location("case_evaluator", evaluator)
    if spec is None or spec.loader is None:
        raise _BadReturn(f"cannot load {evaluator}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["case_evaluator"] = module
    spec.loader.exec_module(module)
    evaluate = getattr(module, "evaluate", None)
    if not callable(evaluate):
        raise _BadReturn("evaluator.py defines no evaluate() function")
    return evaluate


def _plain(value: Any) -> Any:
    """A JSON-ready copy of details and examples.

    Numpy scalars and arrays become numbers and lists, dates ISO strings, NaN and infinities
    None (the site stores results as strict JSON), anything else its text.
    """
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _plain(value.tolist())
    return str(value)


def _as_value(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not hasattr(value, "__float__"):
        raise _BadReturn(f"value must be a number, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise _BadReturn(f"value must be finite, got {number}")
    return number


def _assessment_payload(result: Any) -> dict[str, Any]:
    from evaluators.api import Assessment, Violation

    if not isinstance(result, Assessment):
        raise _BadReturn(f"evaluate() returned {type(result).__name__}, not an Assessment")
    if any(not isinstance(item, Violation) for item in result.violations):
        raise _BadReturn("Assessment.violations must hold Violation objects")
    if result.fatal is not None and not isinstance(result.fatal, str):
        raise _BadReturn("Assessment.fatal must be a string")
    if not isinstance(result.details, dict):
        raise _BadReturn("Assessment.details must be a dict")
    return {
        "value": _as_value(result.value),
        "violations": _plain([violation.to_dict() for violation in result.violations]),
        "fatal": result.fatal,
        "details": _plain(result.details),
    }


class _SetupError(Exception):
    """The child could not confine itself as the parent said it would."""


#: The errors a confinement answers with: EPERM (seccomp), EACCES (Landlock), EROFS (bwrap).
_REFUSALS = (errno.EPERM, errno.EACCES, errno.EROFS)


def _confine(arguments: list[str]) -> None:
    """Give up files (Landlock, when the parent asks), capabilities and system calls, for good."""
    from evaluators import landlock, seccomp

    try:
        if len(arguments) > 5:
            allowed = json.loads(arguments[5])
            paths = [Path(p) for p in allowed["read"]], [Path(p) for p in allowed["write"]]
            print(landlock.restrict(*paths), file=sys.stderr)
        _drop_capabilities()
        print(seccomp.install(), file=sys.stderr)
    except (OSError, ValueError, KeyError) as exc:
        raise _SetupError(f"the evaluator sandbox could not be set up: {exc}") from exc


def _drop_capabilities() -> None:
    """Empty every capability set: a child started as root keeps root's files, not its powers.

    (Without exec the bounding and ambient sets give nothing back.) A no-op for ``nobody``.
    """
    import ctypes

    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this thread
    data = (ctypes.c_uint32 * 6)()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


def _crash_log(exc: BaseException) -> str:
    """The traceback, led by what the sandbox refused when that is what stopped the evaluator."""
    log = traceback.format_exc()
    if isinstance(exc, OSError) and exc.errno in _REFUSALS:
        frames = traceback.extract_tb(exc.__traceback__)
        where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno}: {frames[-1].line})"
        log = f"refused by the evaluator sandbox: {type(exc).__name__}: {exc}{where}\n{log}"
    return log


def _run_child(arguments: list[str]) -> dict[str, Any]:
    evaluator, data_dir, hidden_dir = (Path(argument) for argument in arguments[:3])
    _limit_resources(int(arguments[3]), int(arguments[4]))
    submission = pickle.loads(sys.stdin.buffer.read())
    try:
        _confine(arguments)
    except _SetupError as exc:
        return {"ok": False, "kind": "crash", "log": str(exc)}
    try:
        evaluate = _load_evaluate(evaluator)
        assessment = _assessment_payload(evaluate(submission, data_dir, hidden_dir))
    except MemoryError:
        return {"ok": False, "kind": "memory", "log": "MemoryError"}
    except _BadReturn as exc:
        return {"ok": False, "kind": "bad_output", "log": str(exc)}
    except (Exception, SystemExit) as exc:
        return {"ok": False, "kind": "crash", "log": _crash_log(exc)}
    return {"ok": True, "assessment": assessment}


def _write(stream: BinaryIO, message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, allow_nan=False).encode("utf-8"))
    stream.flush()


def main(arguments: list[str]) -> int:
    # Keep the protocol channel private: evaluator prints (even from C code) go to stderr.
    protocol = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _write(protocol, _run_child(arguments))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
