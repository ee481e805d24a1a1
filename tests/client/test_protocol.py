"""PROTOCOL TESTS: every ``fde`` command over real HTTP against the stdlib fake server.

They check what the client sends and how it shows what comes back; the platform's own behaviour
is tested against the real server in ``test_live.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.client.conftest import FdeRunner
from tests.client.fake_server import TOKEN, FakePlatform, make_zip

pytestmark = pytest.mark.protocol


def start(fde: FdeRunner, *extra: str) -> tuple[dict[str, object], Path]:
    outcome = fde("start", "tiny-knapsack", "--json", *extra)
    assert outcome.code == 0, outcome.err
    data = json.loads(outcome.out)
    return data["run"], Path(data["workspace"])


def test_cases_lists_every_page_as_a_table(fde: FdeRunner, server: str) -> None:
    outcome = fde("cases")
    assert outcome.code == 0
    lines = outcome.out.splitlines()
    assert lines[0].split() == ["slug", "family", "sector", "rounds", "title"]
    assert lines[1].split()[:4] == ["tiny-knapsack", "CO", "retail", "5"]
    assert lines[2].endswith("Restock the shelves")


def test_cases_json_is_the_list_of_case_objects(fde: FdeRunner, server: str) -> None:
    cases = json.loads(fde("cases", "--json").out)
    assert [c["slug"] for c in cases] == ["tiny-knapsack", "tiny-restock"]


def test_start_sends_the_run_request_with_the_token(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    run, _ = start(fde, "--condition", "interact", "--mode", "practice", "--label", "me/gpt")
    stored = platform.runs[str(run["id"])]
    assert (stored["condition"], stored["mode"], stored["label"]) == (
        "interact",
        "practice",
        "me/gpt",
    )
    method, path, headers = platform.requests[-1]
    assert (method, path, headers["Authorization"]) == ("POST", "/api/runs/", f"Token {TOKEN}")


def test_start_materialises_the_workspace(fde: FdeRunner, server: str, in_tmp: Path) -> None:
    run, folder = start(fde)
    assert folder == in_tmp / f"tiny-knapsack-{str(run['id']).replace('-', '')[:8]}"
    assert (folder / "instruction.md").read_text().startswith("# Load the van")
    assert json.loads((folder / "submission_schema.json").read_text())["format"] == "csv"
    assert (folder / "data" / "items.csv").read_text().startswith("item_id,weight")
    assert not (folder / "information.md").exists()
    assert os.access(folder / "ask", os.X_OK)
    record = json.loads((folder / ".fde" / "run.json").read_text())
    assert (record["run_id"], record["server"], record["case"]) == (
        run["id"],
        server,
        "tiny-knapsack",
    )
    assert record["deliverable"] == "deliverable.csv"


def test_the_token_is_never_written_into_the_workspace(
    fde: FdeRunner, server: str, in_tmp: Path
) -> None:
    _, folder = start(fde)
    for path in folder.rglob("*"):
        if path.is_file():
            assert TOKEN not in path.read_text(errors="replace"), path


def test_the_readme_tells_the_agent_how_to_ask_submit_and_what_the_budget_is(
    fde: FdeRunner, server: str, in_tmp: Path
) -> None:
    _, folder = start(fde, "--mode", "ranked")
    readme = (folder / "README.txt").read_text()
    assert './ask "your question"' in readme
    assert "fde submit deliverable.csv" in readme
    assert "You have 5 rounds." in readme
    assert "Clarify them with the customer before" in readme
    assert "only gets a format check" in readme


def test_the_full_condition_writes_information_and_no_ask_script(
    fde: FdeRunner, server: str, in_tmp: Path
) -> None:
    _, folder = start(fde, "--condition", "full")
    assert (folder / "information.md").read_text().startswith("# Everything")
    assert not (folder / "ask").exists()
    assert "no customer to ask" in (folder / "README.txt").read_text()


def test_start_into_a_non_empty_folder_refuses_before_starting_a_run(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    (in_tmp / "taken").mkdir()
    (in_tmp / "taken" / "notes.txt").write_text("mine")
    outcome = fde("start", "tiny-knapsack", "--dir", "taken")
    assert outcome.code == 2
    assert "not empty" in outcome.err
    assert platform.runs == {}


def test_an_unsafe_bundle_is_refused_before_starting_a_run(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    platform.bundle = make_zip({"instruction.md": "x", "../../evil.sh": "rm -rf"})
    outcome = fde("start", "tiny-knapsack")
    assert outcome.code == 1
    assert "refusing bundle member '../../evil.sh'" in outcome.err
    assert platform.runs == {}
    assert list(in_tmp.iterdir()) == []


def test_an_unknown_case_shows_the_servers_message(
    fde: FdeRunner, server: str, in_tmp: Path
) -> None:
    outcome = fde("start", "no-such-case")
    assert outcome.code == 1
    assert "No published case 'no-such-case'." in outcome.err


def test_the_ask_script_works_from_any_folder_with_the_recorded_server(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _, folder = start(fde)
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    env = {k: v for k, v in os.environ.items() if k != "FDE_URL"}  # the workspace knows the server
    done = subprocess.run(
        [str(folder / "ask"), "Does", "the van have a weight limit?"],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Dana Whitfield: You asked: Does the van have a weight limit?\n"
    assert "rounds used 1/5" in done.stderr
    assert platform.questions[-1]["text"] == "Does the van have a weight limit?"


def test_ask_finds_the_run_from_a_subfolder_and_addresses_a_stakeholder(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run, folder = start(fde)
    monkeypatch.chdir(folder / "data")
    outcome = fde("ask", "--to", "finance", "Who pays?")
    assert outcome.code == 0
    assert outcome.out == "finance: You asked: Who pays?\n"
    assert platform.questions[-1] == {"run": run["id"], "text": "Who pays?", "to": "finance"}


def test_ask_reads_a_long_message_from_stdin(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("First?\nSecond?\n"))
    assert fde("ask", "-").code == 0
    assert platform.questions[-1]["text"] == "First?\nSecond?"


def test_asking_past_the_budget_shows_the_refusal(
    fde: FdeRunner, server: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    for _ in range(5):
        assert fde("ask", "again?").code == 0
    outcome = fde("ask", "one more?")
    assert outcome.code == 1
    assert "No clarification rounds left." in outcome.err


def test_submit_uploads_the_file_and_prints_the_format_check(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    Path("deliverable.csv").write_text("item_id\nI01\n")
    outcome = fde("submit", "deliverable.csv")
    assert outcome.code == 0
    assert outcome.out.splitlines()[0].startswith("Submission #1 (")
    assert "format check: OK" in outcome.out
    upload = platform.uploads[-1]
    assert (upload.filename, upload.content) == ("deliverable.csv", b"item_id\nI01\n")


def test_a_failed_format_check_lists_the_errors_and_exits_1(
    fde: FdeRunner, server: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    Path("deliverable.csv").write_text("id\nI01\n")
    outcome = fde("submit", "deliverable.csv")
    assert outcome.code == 1
    assert "format check: FAILED (1 problem(s))" in outcome.out
    assert "line 1: expected the header 'item_id'" in outcome.out


def test_submitting_a_missing_file_is_a_usage_error(
    fde: FdeRunner, server: str, in_tmp: Path
) -> None:
    outcome = fde("submit", "nope.csv", "--run", "r1")
    assert (outcome.code, outcome.err) == (2, "fde: nope.csv is not a file\n")


def test_status_of_an_open_ranked_run_shows_budget_and_submissions_but_no_score(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    fde("ask", "why?")
    Path("deliverable.csv").write_text("item_id\nI01\n")
    fde("submit", "deliverable.csv")
    outcome = fde("status")
    assert "status open" in outcome.out
    assert "Rounds: 1/5" in outcome.out
    assert "Time: 29m" in outcome.out or "Time: 30m" in outcome.out
    assert "#1 received, format OK" in outcome.out
    assert "Result" not in outcome.out
    assert not any(path.endswith("/result/") for _, path, _ in platform.requests)


def test_status_of_a_practice_run_shows_each_submissions_score(
    fde: FdeRunner, server: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, folder = start(fde, "--mode", "practice")
    monkeypatch.chdir(folder)
    Path("deliverable.csv").write_text("item_id\nI01\n")
    fde("submit", "deliverable.csv")
    Path("deliverable.csv").write_text("wrong\n")
    fde("submit", "deliverable.csv")
    out = fde("status").out
    assert "#1 received, format OK, score 0.7500" in out
    assert "#2 received, format FAILED, score 0.0000 (invalid: schema)" in out


def test_status_of_a_closed_run_shows_the_verdict_nested_the_platforms_way(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    violation = {"rule": "cold_chain", "message": "Frozen lines need the cooler.", "count": 2}
    platform.pending_polls = 0
    platform.final_result = lambda run: {
        "status": "scored", "score": 0.0, "valid": False,
        "submission": {"number": 1, "result": {"error_kind": "constraint",
                                               "violations": [violation]}},
    }  # fmt: skip
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    Path("deliverable.csv").write_text("item_id\nI01\n")
    fde("submit", "deliverable.csv")
    fde("close")
    out = fde("status").out
    assert "Result: score 0.0000 (invalid: constraint)" in out
    assert "  - cold_chain (2x): Frozen lines need the cooler." in out


def test_close_wait_polls_until_scored_and_prints_the_score(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    Path("deliverable.csv").write_text("item_id\nI01\n")
    fde("submit", "deliverable.csv")
    outcome = fde("close", "--wait", "--poll", "0.05")
    assert outcome.code == 0, outcome.err
    assert "status closed" in outcome.out
    assert "Result: score 0.7500" in outcome.out
    polls = [path for _, path, _ in platform.requests if path.endswith("/result/")]
    assert len(polls) == 2  # one "pending", then "scored"


def test_close_wait_gives_up_after_the_timeout_with_exit_1(
    fde: FdeRunner,
    server: str,
    platform: FakePlatform,
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    platform.pending_polls = 1000
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    outcome = fde("close", "--wait", "--timeout", "0.2", "--poll", "0.05")
    assert outcome.code == 1
    assert "no result after 0.2s" in outcome.err


def test_closing_twice_shows_the_refusal(
    fde: FdeRunner, server: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, folder = start(fde)
    monkeypatch.chdir(folder)
    assert fde("close").code == 0
    outcome = fde("close")
    assert (outcome.code, outcome.err) == (
        1,
        "fde: The run is already closed. (HTTP 409, run_closed)\n",
    )
