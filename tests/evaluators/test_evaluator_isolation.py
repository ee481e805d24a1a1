"""The evaluator sandbox: every escape an outside review found now fails with an execution error.

Each evaluator below tries one thing a case evaluator must not do and returns a valid
Assessment only if the attempt works; a blocked attempt raises, so the file gets an execution
error whose admin log names what stopped it. The bundled cases scoring their references to 1.0
inside the same sandbox is ``tests/test_bundled_cases.py``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import pytest

from evaluators import isolation
from evaluators.runtime import Result, score_file
from tests.evaluators.planted import Upload, attempt
from tests.support.services import require_bubblewrap

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _bubblewrap_required(monkeypatch: pytest.MonkeyPatch) -> None:
    require_bubblewrap()
    monkeypatch.setenv("EVALUATOR_ISOLATION", "bwrap")


def assert_blocked(result: Result, *evidence: str) -> None:
    assert result.error_kind == "execution", result.details
    assert result.error_message.startswith("The evaluation failed with an internal error")
    assert "isolation: bubblewrap namespace sandbox" in result.internal_log
    assert any(text in result.internal_log for text in evidence), result.internal_log[-600:]


def test_evaluator_code_runs_as_nobody_with_no_capabilities(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        """
        status = Path("/proc/self/status").read_text()
        effective = [line for line in status.splitlines() if line.startswith("CapEff")][0]
        if os.getuid() == 0 or not effective.endswith("0000000000000000"):
            return Assessment(value=44.0)
        raise PermissionError(f"uid {os.getuid()}, {effective}")
        """,
    )
    assert_blocked(result, "PermissionError: uid 65534, CapEff:\t0000000000000000")


def test_the_site_database_and_repository_are_out_of_sight(
    knapsack: Path, upload: Upload, tmp_path: Path
) -> None:
    secret = tmp_path / "site-var" / "db.sqlite3"
    secret.parent.mkdir()
    secret.write_text("api tokens")
    result = attempt(
        knapsack,
        upload,
        f"""
        for path in ({str(secret)!r}, {str(REPO_ROOT / "manage.py")!r},
                     {str(REPO_ROOT / "fdeplatform" / "settings.py")!r}):
            if Path(path).exists():
                return Assessment(value=44.0)
        Path({str(secret)!r}).read_text()
        """,
    )
    assert_blocked(result, "FileNotFoundError")


def test_the_postgres_socket_and_other_cases_are_out_of_sight(
    knapsack: Path, upload: Upload, tmp_path: Path
) -> None:
    other_case = tmp_path / "other-case" / "hidden"
    other_case.mkdir(parents=True)
    (other_case / "information.md").write_text("another case's hidden notes")
    result = attempt(
        knapsack,
        upload,
        f"""
        for path in ("/var/run/postgresql", "/run/postgresql", {str(other_case)!r}):
            if Path(path).exists():
                return Assessment(value=44.0)
        os.listdir({str(other_case)!r})
        """,
    )
    assert_blocked(result, "FileNotFoundError")


@pytest.mark.parametrize("port", [5432, 6379, 8000])
def test_no_connection_reaches_the_sites_services(
    knapsack: Path, upload: Upload, port: int
) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))  # open on the host: still unreachable from inside
    listener.listen()
    open_port = listener.getsockname()[1]
    try:
        result = attempt(
            knapsack,
            upload,
            f"""
            socket.create_connection(("127.0.0.1", {open_port}), timeout=2).close()
            socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
            """,
        )
    finally:
        listener.close()
    assert_blocked(result, "refused by the evaluator sandbox: PermissionError")


def test_no_outbound_connection(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        """
        socket.create_connection(("1.1.1.1", 443), timeout=2).close()
        """,
    )
    assert_blocked(result, "refused by the evaluator sandbox: PermissionError")


def test_no_program_can_be_started(knapsack: Path, upload: Upload) -> None:
    result = attempt(knapsack, upload, 'subprocess.run([sys.executable, "-c", "pass"])')
    assert_blocked(result, "PermissionError: [Errno 1] Operation not permitted")


def test_no_process_can_be_forked(knapsack: Path, upload: Upload) -> None:
    result = attempt(knapsack, upload, "os.fork()")
    assert_blocked(result, "PermissionError: [Errno 1] Operation not permitted")


def test_the_case_package_is_read_only(knapsack: Path, upload: Upload) -> None:
    result = attempt(knapsack, upload, '(hidden_dir / "reference.csv").write_text("tampered")')
    assert_blocked(result, "Read-only file system")
    assert "tampered" not in (knapsack / "hidden" / "reference.csv").read_text()


def test_the_evaluators_package_is_read_only(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        """
        import evaluators.api
        Path(evaluators.api.__file__).with_name("planted.py").write_text("x = 1")
        """,
    )
    assert_blocked(result, "Read-only file system")
    assert not (REPO_ROOT / "evaluators" / "planted.py").exists()


def test_the_host_processes_and_their_environment_are_invisible(
    knapsack: Path, upload: Upload
) -> None:
    result = attempt(
        knapsack,
        upload,
        f"""
        Path("/proc/{os.getpid()}/environ").read_bytes()
        """,
    )
    assert_blocked(result, "FileNotFoundError")


def test_scratch_space_is_private_and_gone_afterwards(knapsack: Path, upload: Upload) -> None:
    marker = f"fde-scratch-{time.monotonic_ns()}"
    result = attempt(
        knapsack,
        upload,
        f"""
        Path("/tmp/{marker}").write_text("scratch")
        Path(os.environ["HOME"], "{marker}.2").write_text("scratch")
        """,
    )
    assert result.valid and result.score == 1.0
    assert not Path("/tmp", marker).exists()


def test_a_nested_user_namespace_is_refused(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER) refused")
        """,
    )
    assert_blocked(result, "refused by the evaluator sandbox: PermissionError: [Errno 1] unshare")


UNSHARE = (
    "import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True); "
    "sys.exit(0 if libc.unshare(0x10000000) == 0 else 10 + ctypes.get_errno())"
)


def test_bubblewrap_itself_closes_nested_user_namespaces() -> None:
    # The seccomp filter refuses them too; this is the second lock, without the filter.
    if not isolation.disable_userns_works():
        pytest.skip(f"bubblewrap {isolation.bwrap_version()} has no --disable-userns (< 0.8)")
    args = isolation._bwrap_args("bwrap", [], scratch_cwd=False, disable_userns=True)
    assert args[args.index("--disable-userns") - 1] == "--unshare-user"
    done = subprocess.run([*args, isolation.interpreter(), "-c", UNSHARE], capture_output=True)
    assert done.returncode >= 10, (done.returncode, done.stderr)


def test_required_isolation_that_cannot_run_is_a_configuration_error(
    knapsack: Path, upload: Upload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    isolation.bwrap_problem.cache_clear()
    try:
        result = score_file(knapsack, upload("item_id\nI01\n"))
    finally:
        isolation.bwrap_problem.cache_clear()
    assert result.error_kind == "execution"
    assert result.error_message.startswith("This case cannot be scored right now")
    assert "bubblewrap (bwrap) is not installed" in result.internal_log


def test_a_reference_scores_one_inside_the_sandbox(knapsack: Path, upload: Upload) -> None:
    reference = (knapsack / "hidden" / "reference.csv").read_text()
    result = score_file(knapsack, upload(reference))
    assert result.valid and result.score == 1.0
    assert result.internal_log.startswith("isolation: bubblewrap namespace sandbox")
    assert "isolation" not in str(result.to_player_dict())
