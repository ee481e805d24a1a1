"""Error mapping: the server's message reaches the user, with exit 1/2/3 and no traceback."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest
from fde_client import commands
from fde_client.api import Client, error_from_response
from fde_client.errors import ApiError, ConnectionProblem

from tests.client.conftest import FdeRunner
from tests.client.fake_server import FakePlatform


def body(data: object) -> bytes:
    return json.dumps(data).encode()


def test_the_platform_error_shape_gives_code_and_message() -> None:
    raw = body({"error": {"code": "rounds_exhausted", "message": "No rounds left."}})
    error = error_from_response(409, "Conflict", raw, has_token=True)
    assert (error.status, error.code, error.message) == (409, "rounds_exhausted", "No rounds left.")
    assert str(error) == "No rounds left. (HTTP 409, rounds_exhausted)"


def test_drf_detail_is_shown_as_the_message() -> None:
    error = error_from_response(404, "Not Found", body({"detail": "Not found."}), has_token=True)
    assert (error.code, error.message) == ("not_found", "Not found.")


def test_drf_field_errors_are_flattened_into_one_line() -> None:
    raw = body({"case": ["Unknown case."], "mode": ["Pick one.", "Really."]})
    error = error_from_response(400, "Bad Request", raw, has_token=True)
    assert error.message == "case: Unknown case.; mode: Pick one. Really."


def test_an_html_error_page_falls_back_to_the_reason_phrase() -> None:
    raw = b"<html><body><h1>Server Error (500)</h1></body></html>"
    error = error_from_response(502, "Bad Gateway", raw, has_token=True)
    assert (error.code, error.message) == ("server_error", "Bad Gateway")


def test_a_401_without_a_token_says_how_to_give_one() -> None:
    raw = body({"detail": "Authentication credentials were not provided."})
    assert "set FDE_TOKEN" in error_from_response(401, "", raw, has_token=False).message
    assert "set FDE_TOKEN" not in error_from_response(401, "", raw, has_token=True).message


@pytest.fixture
def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(5)
        yield int(sock.getsockname()[1])


def test_connection_refused_is_a_connection_problem_with_exit_3(
    fde: FdeRunner, closed_port: int
) -> None:
    outcome = fde("--url", f"http://127.0.0.1:{closed_port}", "cases")
    assert outcome.code == 3
    assert outcome.err.startswith(f"fde: cannot reach http://127.0.0.1:{closed_port}")
    assert "Traceback" not in outcome.err


def test_a_server_that_never_answers_times_out_as_a_connection_problem(silent_port: int) -> None:
    client = Client(f"http://127.0.0.1:{silent_port}", "t", timeout=0.3)
    with pytest.raises(ConnectionProblem, match="timed out"):
        client.list_cases()


def test_a_bad_url_is_a_usage_error(fde: FdeRunner) -> None:
    outcome = fde("--url", "127.0.0.1:8000", "cases")
    assert (outcome.code, outcome.err.strip()) == (
        2, "fde: server URL must look like http://host:port, got '127.0.0.1:8000'",
    )  # fmt: skip


@pytest.mark.protocol
def test_a_server_refusal_prints_its_message_and_exits_1(fde: FdeRunner, server: str) -> None:
    outcome = fde("status", "--run", "no-such-run")
    assert outcome.code == 1
    assert outcome.err == "fde: No run no-such-run. (HTTP 404, not_found)\n"
    assert outcome.out == ""


@pytest.mark.protocol
def test_a_missing_token_is_explained(
    fde: FdeRunner, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FDE_TOKEN")
    outcome = fde("cases")
    assert outcome.code == 1
    assert "Authentication credentials were not provided." in outcome.err
    assert "set FDE_TOKEN or pass --token" in outcome.err


@pytest.mark.protocol
def test_a_2xx_answer_that_is_not_json_is_a_server_error(
    fde: FdeRunner, server: str, platform: FakePlatform
) -> None:
    platform.overrides[("GET", "/api/runs/r1/")] = (200, b"<html>oops</html>")
    outcome = fde("status", "--run", "r1")
    assert outcome.code == 1
    assert "not JSON" in outcome.err


@pytest.mark.protocol
def test_a_run_id_cannot_walk_to_another_endpoint(
    fde: FdeRunner, server: str, platform: FakePlatform
) -> None:
    fde("status", "--run", "../cases")
    assert platform.requests[-1][1] == "/api/runs/..%2Fcases/"


def test_an_unexpected_bug_is_reported_without_a_traceback(
    fde: FdeRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr(commands, "make_client", broken)
    outcome = fde("cases")
    assert outcome.code == 1
    assert "internal error: KeyError" in outcome.err
    assert "Traceback" not in outcome.err


def test_api_error_keeps_the_bare_message_for_callers() -> None:
    error = ApiError(409, "run_closed", "The run is already closed.")
    assert error.message == "The run is already closed."
    assert error.exit_code == 1
