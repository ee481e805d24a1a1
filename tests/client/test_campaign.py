"""PROTOCOL TESTS for ``fde campaign`` against the stdlib fake server, with real agent processes."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.client.conftest import CLIENT_SRC, FdeRunner
from tests.client.fake_server import FakePlatform

pytestmark = pytest.mark.protocol

# An agent as a scaffold would run it: it reads its environment, asks, writes the deliverable.
AGENT = """
import os, pathlib, subprocess, sys
assert pathlib.Path.cwd() == pathlib.Path(os.environ["FDE_WORKSPACE"]), "cwd is the workspace"
assert os.environ["FDE_TOKEN"] and os.environ["FDE_URL"]
answer = subprocess.run(["./ask", "How heavy can the van be?"], capture_output=True, text=True)
print("agent", os.environ["FDE_RUN_ID"], "heard:", answer.stdout.strip())
pathlib.Path("deliverable.csv").write_text("item_id\\nI01\\n")
"""


def campaign(
    fde: FdeRunner, *options: str, agent: str = AGENT
) -> tuple[int, list[dict[str, object]]]:
    outcome = fde("campaign", "--json", *options, "--", sys.executable, "-c", agent)
    return outcome.code, json.loads(outcome.out)


def test_it_plays_every_case_and_repeat_and_reports_the_scores(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    platform.pending_polls = 0
    code, rows = campaign(
        fde, "--cases", "tiny-knapsack,tiny-restock", "--repeats", "2", "--label", "test/agent",
        "--wait-timeout", "5",
    )  # fmt: skip
    assert code == 0
    # Repeat-major: an interrupted campaign has played every case about equally often.
    assert [(r["case"], r["repeat"]) for r in rows] == [
        ("tiny-knapsack", 1), ("tiny-restock", 1), ("tiny-knapsack", 2), ("tiny-restock", 2),
    ]  # fmt: skip
    for row in rows:
        assert (row["agent_exit"], row["submitted"], row["format_ok"]) == (0, True, True)
        assert (row["state"], row["score"], row["error"]) == ("done", 0.75, None)
    assert {run["status"] for run in platform.runs.values()} == {"closed"}
    assert {run["label"] for run in platform.runs.values()} == {"test/agent"}
    assert len(platform.questions) == 4
    assert [u.content for u in platform.uploads] == [b"item_id\nI01\n"] * 4


def test_the_agent_output_goes_to_a_log_in_the_workspace(
    fde: FdeRunner, server: str, in_tmp: Path
) -> None:
    _, rows = campaign(fde, "--cases", "tiny-knapsack", "--label", "L", "--wait-timeout", "0")
    log = (Path(str(rows[0]["workspace"])) / ".fde" / "agent.log").read_text()
    assert log.startswith(f"agent {rows[0]['run_id']} heard: Dana Whitfield: You asked:")


def test_a_run_without_a_deliverable_is_closed_and_reported(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    code, rows = campaign(
        fde, "--cases", "tiny-knapsack", "--label", "L", "--wait-timeout", "2", agent="pass"
    )
    assert code == 0
    assert (rows[0]["submitted"], rows[0]["status"]) == (False, "closed")
    assert platform.uploads == []
    assert {run["status"] for run in platform.runs.values()} == {"closed"}


def test_an_agent_that_closes_its_own_run_does_not_break_the_campaign(
    fde: FdeRunner, server: str, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(CLIENT_SRC))  # the agent's own `fde close`
    agent = AGENT + "\nsubprocess.run([sys.executable, '-m', 'fde_client', 'close'], check=True)"
    code, rows = campaign(fde, "--cases", "tiny-knapsack", "--label", "L", "--wait-timeout", "5",
                          agent=agent)  # fmt: skip
    assert code == 0
    assert rows[0]["error"] is None
    assert rows[0]["agent_exit"] == 0


def test_a_custom_deliverable_name_is_submitted(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    agent = "import pathlib; pathlib.Path('out.csv').write_text('item_id\\nI02\\n')"
    _, rows = campaign(fde, "--cases", "tiny-knapsack", "--label", "L", "--deliverable", "out.csv",
                       "--wait-timeout", "0", agent=agent)  # fmt: skip
    assert rows[0]["submitted"] is True
    assert platform.uploads[0].filename == "out.csv"


def test_the_agent_is_stopped_when_the_runs_deadline_passes(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    platform.run_minutes = 1.5 / 60
    began = time.monotonic()
    _, rows = campaign(fde, "--cases", "tiny-knapsack", "--label", "L", "--wait-timeout", "0",
                       agent="import time; time.sleep(60)")  # fmt: skip
    assert time.monotonic() - began < 15
    assert rows[0]["agent_exit"] == -15  # SIGTERM
    assert rows[0]["stopped"] == "wall-clock budget used up"
    assert (rows[0]["state"], rows[0]["status"]) == ("closed", "closed")  # score not waited for


def test_the_text_summary_is_a_table_per_case_and_condition(
    fde: FdeRunner, server: str, in_tmp: Path
) -> None:
    outcome = fde("campaign", "--cases", "tiny-knapsack", "--label", "L", "--repeats", "2",
                  "--wait-timeout", "5", "--", sys.executable, "-c", AGENT)  # fmt: skip
    header, row, total, campaign_file = outcome.out.splitlines()
    assert header.split() == [
        "case", "condition", "runs", "score", "valid", "recall", "questions", "status",
    ]  # fmt: skip
    assert row.split() == [
        "tiny-knapsack", "interact_req", "2", "0.750", "2/2", "-", "1.0", "2", "done",
    ]  # fmt: skip
    assert total.split()[:2] == ["all", "2"]
    assert campaign_file.startswith("Campaign file: campaign.json")
    assert "[##############################] 2/2 runs finished" in outcome.err


def test_an_unknown_case_is_refused_before_any_run_starts(
    fde: FdeRunner, server: str, platform: FakePlatform, in_tmp: Path
) -> None:
    outcome = fde("campaign", "--cases", "tiny-knapsack,tiny-knapsak", "--label", "L", "--",
                  sys.executable, "-c", "pass")  # fmt: skip
    assert outcome.code != 0
    assert "unknown case(s): tiny-knapsak" in outcome.err
    assert platform.runs == {}
