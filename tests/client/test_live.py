"""The ``fde`` client against the REAL platform: daphne on the test database.

An agent's whole loop, exactly as a scaffold drives it from a shell: list cases, start a run into
a workspace, ask through ``./ask``, submit the reference deliverable, check the status, close
and wait for the score. The client is imported from ``clients/fde/src`` (see conftest), so this
tests the checkout, not an installed copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.services import case_import
from tests.client.conftest import FdeRunner

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FIXTURE_CASE = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "tiny-knapsack"


@pytest.fixture
def agent_env(live_url: str, alice: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Alice's token in FDE_TOKEN, the live server in FDE_URL, a published case, a scratch cwd."""
    token = agent_token_issue(user=alice)
    case_import(source=FIXTURE_CASE, check_anchors=False)
    monkeypatch.setenv("FDE_URL", live_url)
    monkeypatch.setenv("FDE_TOKEN", token)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_agent_plays_a_case_end_to_end_with_the_fde_client(
    fde: FdeRunner, agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = fde("cases", "--json")
    assert listed.code == 0, listed.err
    assert "tiny-knapsack" in [case["slug"] for case in json.loads(listed.out)]
    assert "tiny-knapsack" in fde("cases").out

    started = fde(
        "start", "tiny-knapsack", "--label", "live-test/client", "--mode", "ranked", "--json"
    )
    assert started.code == 0, started.err
    run = json.loads(started.out)["run"]
    folder = Path(json.loads(started.out)["workspace"])
    assert run["status"] == "open" and run["condition"] == "interact_req"
    assert (folder / "instruction.md").is_file()
    assert (folder / "data" / "items.csv").is_file()
    assert json.loads((folder / "submission_schema.json").read_text())["format"] == "csv"
    assert os.environ["FDE_TOKEN"] not in (folder / ".fde" / "run.json").read_text()

    asked = subprocess.run(
        [str(folder / "ask"), "What is the weight limit of the van?"],
        cwd=agent_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    assert ": " in asked.stdout and asked.stdout.strip()
    assert f"rounds used 1/{run['rounds_limit']}" in asked.stderr

    monkeypatch.chdir(folder)
    shutil.copy(FIXTURE_CASE / "hidden" / "reference.csv", folder / "deliverable.csv")
    submitted = fde("submit", "deliverable.csv")
    assert submitted.code == 0, submitted.err + submitted.out
    assert "format check: OK" in submitted.out

    status = fde("status")
    assert status.code == 0, status.err
    assert "status open" in status.out
    assert f"Rounds: 1/{run['rounds_limit']}" in status.out
    assert "#1" in status.out

    closed = fde("close", "--wait", "--timeout", "120", "--json")
    assert closed.code == 0, closed.err
    outcome = json.loads(closed.out)
    assert outcome["run"]["status"] != "open"
    assert outcome["result"]["status"] == "scored"
    assert outcome["result"]["score"] == pytest.approx(1.0)  # the reference deliverable


def test_the_live_server_refuses_a_bad_token_with_exit_1(
    fde: FdeRunner, agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FDE_TOKEN", "not-a-real-token")
    outcome = fde("cases")
    assert outcome.code == 1
    assert "HTTP 401" in outcome.err
    assert "Traceback" not in outcome.err


def test_an_agent_starts_an_instruction_level_run_with_the_fde_client(
    fde: FdeRunner, agent_env: Path
) -> None:
    """FDE-Gym L1: the brief lands in information.md and the customer is still there to ask."""
    started = fde("start", "tiny-knapsack", "--condition", "gym_l1", "--json")
    assert started.code == 0, started.err
    folder = Path(json.loads(started.out)["workspace"])
    brief = (folder / "information.md").read_text()
    assert "Earn means margin, not sales price." in brief
    assert "The van now takes 12 kg" not in brief  # rules are not told at L1
    assert (folder / "ask").is_file()
    readme = (folder / "README.txt").read_text()
    assert "FDE-Gym" in readme
    assert "sam: Sam Okafor, Shop owner; answers unaddressed messages" in readme  # the directory
    refused = fde("start", "tiny-knapsack", "--condition", "gym_l2", "--dir", "l2")
    assert refused.code != 0 and "does not offer instruction level L2" in refused.err
