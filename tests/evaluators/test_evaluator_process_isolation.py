"""The sandbox without bubblewrap (``EVALUATOR_ISOLATION=process``) is no longer open.

An outside review planted an evaluator that, under the ``process`` fallback, read the site's
database, reached a loopback listener and wrote into its own ``hidden/`` folder. The seccomp
filter now closes the network in every mode, Landlock gives ``process`` a read allowlist, and
the isolation used is named in every result, so a weak fallback is never silent.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluators import isolation, landlock, sandbox
from evaluators.runtime import Result, score_file
from tests.evaluators.planted import Upload, attempt

needs_landlock = pytest.mark.skipif(landlock.abi() < 1, reason="this kernel has no Landlock")


@pytest.fixture(autouse=True)
def _process_isolation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALUATOR_ISOLATION", "process")


def assert_refused(result: Result, evidence: str) -> None:
    """Blocked, scored as an internal error, and the admin log says what was refused."""
    assert result.error_kind == "execution", result.details
    assert result.error_message.startswith("The evaluation failed with an internal error")
    assert result.internal_log.startswith("[crash] isolation: process"), result.internal_log
    assert f"refused by the evaluator sandbox: {evidence}" in result.internal_log, (
        result.internal_log[-800:]
    )


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP listener on the host's loopback (standing for PostgreSQL or Redis)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def test_no_tcp_socket_reaches_a_loopback_listener(
    knapsack: Path, upload: Upload, listener: int
) -> None:
    result = attempt(knapsack, upload, f'socket.create_connection(("127.0.0.1", {listener}), 2)')
    assert_refused(result, "PermissionError: [Errno 1] Operation not permitted")
    assert "create_connection" in result.internal_log


def test_a_unix_socket_connects_to_nothing(knapsack: Path, upload: Upload, tmp_path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    path = tmp_path / "service.sock"  # standing for PostgreSQL's /run/postgresql socket
    server.bind(str(path))
    server.listen()
    try:
        result = attempt(knapsack, upload, f"socket.socket(socket.AF_UNIX).connect({str(path)!r})")
    finally:
        server.close()
    assert_refused(result, "PermissionError: [Errno 1] Operation not permitted")


@needs_landlock
def test_a_file_outside_the_allowlist_cannot_be_read(
    knapsack: Path, upload: Upload, tmp_path: Path
) -> None:
    database = tmp_path / "site-var" / "db.sqlite3"
    database.parent.mkdir()
    database.write_text("api tokens")
    result = attempt(
        knapsack, upload, f"return Assessment(fatal=Path({str(database)!r}).read_text())"
    )
    assert_refused(result, f"PermissionError: [Errno 13] Permission denied: '{database}'")
    assert "api tokens" not in result.internal_log
    assert result.isolation == "process+landlock"


@needs_landlock
def test_the_repository_settings_cannot_be_read(knapsack: Path, upload: Upload) -> None:
    settings = isolation.PACKAGE_DIR.parent / "fdeplatform" / "settings.py"
    result = attempt(knapsack, upload, f"Path({str(settings)!r}).read_text()")
    assert_refused(result, "PermissionError: [Errno 13] Permission denied")


@needs_landlock
def test_hidden_cannot_be_written(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        """
        (hidden_dir / "planted.txt").write_text("x")
        """,
    )
    assert_refused(result, "PermissionError: [Errno 13] Permission denied")
    assert not (knapsack / "hidden" / "planted.txt").exists()


@needs_landlock
def test_the_reference_scores_one_and_scratch_is_writable(knapsack: Path, upload: Upload) -> None:
    evaluator = knapsack / "hidden" / "evaluator.py"
    original = evaluator.read_text()
    scratch = 'Path(os.environ["HOME"], "note.txt").write_text("scratch")\n'
    evaluator.write_text(
        original.replace("def evaluate(", f"import os\n{scratch}\ndef evaluate(", 1)
    )
    result = score_file(knapsack, upload((knapsack / "hidden" / "reference.csv").read_text()))
    assert result.valid and result.score == 1.0, result.internal_log
    assert result.isolation == "process+landlock"
    assert result.internal_log.startswith("isolation: process+landlock (Landlock ABI ")
    assert "isolation" not in str(result.to_player_dict())


def test_without_landlock_the_isolation_says_so(
    knapsack: Path, upload: Upload, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(landlock, "abi", lambda: 0)
    confinement = isolation.wrap(["python"], [])
    assert (confinement.name, confinement.landlock) == ("process", False)
    assert "NO Landlock in this kernel" in confinement.description
    result = score_file(knapsack, upload((knapsack / "hidden" / "reference.csv").read_text()))
    assert result.valid and result.isolation == "process"
    assert result.internal_log.startswith("isolation: process (NO Landlock")


def test_a_nested_user_namespace_is_refused(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        """
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")
        """,
    )
    assert_refused(result, "PermissionError: [Errno 1] unshare(CLONE_NEWUSER)")


def test_the_parent_process_memory_is_out_of_reach(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        f"""
        libc = ctypes.CDLL(None, use_errno=True)
        # PTRACE_SEIZE, which (unlike PTRACE_ATTACH) would not stop this test if it worked.
        if libc.ptrace(0x4206, {os.getpid()}, None, None) != 0:
            raise OSError(ctypes.get_errno(), "ptrace")
        """,
    )
    assert_refused(result, "PermissionError: [Errno 1] ptrace")


def test_the_child_keeps_no_capabilities(knapsack: Path, upload: Upload) -> None:
    result = attempt(
        knapsack,
        upload,
        """
        status = Path("/proc/self/status").read_text()
        effective = [line for line in status.splitlines() if line.startswith("CapEff")][0]
        raise PermissionError(effective)
        """,
    )
    assert result.error_kind == "execution"
    assert "PermissionError: CapEff:\t0000000000000000" in result.internal_log


def test_the_status_names_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    report = isolation.status()
    assert report["ok"] is True and report["mode"] == "process"
    assert report["isolation"] in ("process+landlock", "process")
    assert "EVALUATOR_ISOLATION=process" in str(report["warning"])


def test_landlock_refuses_to_pretend_on_a_kernel_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(landlock, "abi", lambda: 0)
    with pytest.raises(landlock.LandlockError, match="this kernel has no Landlock"):
        landlock.restrict([], [])


def test_a_child_that_cannot_confine_itself_stops_before_the_evaluator() -> None:
    # The parent promised process+landlock; scoring unconfined instead would be a silent
    # fallback. (Malformed rules fail before anything is restricted in this test process.)
    with pytest.raises(sandbox._SetupError, match="the evaluator sandbox could not be set up"):
        sandbox._confine(["e.py", "d", "h", "1", "1", "{not json"])
