"""``fde campaign`` and the reference agents against the REAL platform (daphne on the test db).

One small case (tiny-knapsack) and few runs, so the whole file stays within seconds per run:
the floor and generic-asker agents under two conditions with a turn cap; a campaign killed
mid-run and started again; the llm agent end to end against a local OpenAI-compatible server
replaying a recorded conversation; the tool definitions validated and driven by hand.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.contrib.auth.models import User

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.services import case_import
from fdeplatform.runs.models import Run
from tests.client.conftest import CLIENT_SRC, FdeRunner
from tests.support.fake_openai import Canned, FakeChatServer

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
KNAPSACK = FIXTURES / "cases" / "tiny-knapsack"
REPLAY = FIXTURES / "agents" / "llm-tiny-knapsack.json"


@pytest.fixture
def agent_env(live_url: str, alice: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    token = agent_token_issue(user=alice)
    case_import(source=KNAPSACK, check_anchors=False)
    monkeypatch.setenv("FDE_URL", live_url)
    monkeypatch.setenv("FDE_TOKEN", token)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _campaign(fde: FdeRunner, *options: str) -> tuple[int, list[dict[str, Any]], str]:
    outcome = fde("campaign", "--json", "--wait-timeout", "120", *options)
    return outcome.code, json.loads(outcome.out or "[]"), outcome.err


def test_the_floor_agent_delivers_the_do_nothing_plan_under_every_condition(
    fde: FdeRunner, agent_env: Path, alice: User
) -> None:
    code, rows, err = _campaign(
        fde, "--agent", "floor", "--cases", "tiny-knapsack", "--conditions", "interact_req,hidden"
    )
    assert code == 0, err
    assert [(r["condition"], r["state"], r["error"]) for r in rows] == [
        ("interact_req", "done", None), ("hidden", "done", None),
    ]  # fmt: skip
    for row in rows:
        # Nothing loaded: the case's baseline (value 0), valid, and no question asked.
        assert (row["score"], row["valid"], row["questions"]) == (0.0, True, 0)
        assert Path(row["workspace"], "deliverable.csv").read_text() == "item_id\n"
    labels = set(Run.objects.filter(player=alice).values_list("label", flat=True))
    assert labels == {"floor / fde-agents 0.1.0 / no model"}
    assert "runs finished" in err


def test_the_generic_asker_stops_at_the_turn_cap_and_delivers_the_literal_plan(
    fde: FdeRunner, agent_env: Path
) -> None:
    code, rows, err = _campaign(
        fde, "--agent", "generic-asker", "--cases", "tiny-knapsack", "--max-turns", "2"
    )
    assert code == 0, err
    row = rows[0]
    assert (row["state"], row["questions"]) == ("done", 2)
    log = Path(row["workspace"], ".fde", "agent.log").read_text()
    assert "stopped asking: the campaign's turn cap is reached (2/2 questions)" in log
    # The literal reading (price, 15 kg, weights per line) ignores the unstated rules.
    assert row["score"] is not None and row["score"] <= 0.2
    assert row["recall"] is not None  # coverage was judged and reported


def test_a_campaign_refuses_the_tutorial_before_starting_anything(
    fde: FdeRunner, agent_env: Path, alice: User
) -> None:
    case_import(source=ROOT / "cases" / "tutorial-bake-sale", check_anchors=False)
    outcome = fde("campaign", "--agent", "floor", "--cases", "tiny-knapsack,tutorial-bake-sale")
    assert outcome.code == 2
    assert "tutorial-bake-sale is a tutorial" in outcome.err
    assert not Run.objects.filter(player=alice).exists()


SLOW_SECOND_AGENT = """
import os, pathlib, time
marker = pathlib.Path(os.environ["MARKER"])
pathlib.Path("deliverable.csv").write_text("item_id\\nI02\\n")
if marker.exists():
    time.sleep(300)  # the campaign is killed while this one works
marker.write_text(os.environ["FDE_RUN_ID"])
"""


def test_a_killed_campaign_started_again_repeats_no_finished_run(
    agent_env: Path, alice: User, live_url: str
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(CLIENT_SRC),
        "MARKER": str(agent_env / "first-run-done"),
    }
    command = [
        sys.executable, "-m", "fde_client", "campaign", "--cases", "tiny-knapsack",
        "--repeats", "2", "--label", "resume-test / script / none", "--wait-timeout", "120",
        "--json", "--", sys.executable, "-c", SLOW_SECOND_AGENT,
    ]  # fmt: skip
    first = subprocess.Popen(command, cwd=agent_env, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)  # fmt: skip
    book = agent_env / "campaign.json"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        records = json.loads(book.read_text())["runs"] if book.exists() else []
        if len(records) == 2 and records[0]["state"] == "done" and records[1]["agent_pid"]:
            break
        time.sleep(0.2)
    else:
        first.kill()
        raise AssertionError(f"the campaign never reached its second run: {records}")
    first.send_signal(signal.SIGKILL)  # no chance to tidy up: the file is all that is left
    first.communicate(timeout=30)
    orphan = records[1]["agent_pid"]
    assert Path(f"/proc/{orphan}").exists()  # the agent outlived its campaign

    again = subprocess.run(command, cwd=agent_env, env=env, capture_output=True, text=True,
                           timeout=300)  # fmt: skip
    assert again.returncode == 0, again.stderr
    rows = json.loads(again.stdout)
    assert [r["run_id"] for r in rows] == [r["run_id"] for r in records]  # nothing replayed
    assert Run.objects.filter(player=alice).count() == 2
    assert [r["state"] for r in rows] == ["done", "done"]
    assert rows[1]["submitted"] and rows[1]["stopped"].startswith("campaign interrupted")
    assert not Path(f"/proc/{orphan}").exists() or _zombie(orphan)  # stopped on resume
    assert "resuming" in again.stderr


def _zombie(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"


def _replay(recorded: dict[str, Any]) -> list[Canned]:
    """The recorded assistant turns as chat completions, one per model call."""
    answers = []
    for index, turn in enumerate(recorded["turns"]):
        calls = [
            {"id": f"call_{index}_{n}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(arguments)}}
            for n, (name, arguments) in enumerate(turn.get("tool_calls", []))
        ]  # fmt: skip
        message: dict[str, Any] = {"role": "assistant", "content": turn.get("content")}
        if calls:
            message["tool_calls"] = calls
        body = {
            "id": f"chatcmpl-{index}", "object": "chat.completion", "created": 0,
            "model": recorded["model"],
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if calls else "stop"}],
        }  # fmt: skip
        answers.append(Canned(body=json.dumps(body)))
    return answers


def test_the_llm_agent_asks_builds_submits_and_is_scored(
    fde: FdeRunner, agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = json.loads(REPLAY.read_text())
    model = FakeChatServer(responses=_replay(recorded))
    monkeypatch.setenv("OPENAI_BASE_URL", model.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    try:
        code, rows, err = _campaign(
            fde, "--agent", "llm", "--model", "replay-model", "--cases", "tiny-knapsack"
        )
    finally:
        model.close()
    assert code == 0, err
    row = rows[0]
    log = Path(row["workspace"], ".fde", "agent.log").read_text()
    assert (row["state"], row["valid"], row["questions"]) == ("done", True, 1), log
    assert row["score"] == pytest.approx(1.0)  # the plan the customer's answers lead to
    assert len(model.requests) == len(recorded["turns"])
    first = model.bodies[0]
    assert first["model"] == "replay-model"
    assert [t["function"]["name"] for t in first["tools"]] == [
        "ask_customer", "list_files", "read_file", "submit", "run_python",
    ]  # fmt: skip
    assert "## The client's request" in first["messages"][0]["content"]  # A.9.1 prompt
    fed_back = [m for m in model.bodies[3]["messages"] if m["role"] == "tool"]
    assert "12 kg" in fed_back[-1]["content"]  # the customer's answer went back to the model
    assert "12 kg" not in first["messages"][0]["content"]  # the prompt holds nothing hidden


def test_the_tool_definitions_are_json_schema_and_drive_a_run(
    fde: FdeRunner, agent_env: Path
) -> None:
    printed = fde("tools")
    assert printed.code == 0, printed.err
    tools = json.loads(printed.out)
    for tool in tools:
        assert tool["type"] == "function"
        jsonschema.Draft202012Validator.check_schema(tool["function"]["parameters"])
    names = [t["function"]["name"] for t in tools]
    assert names == ["ask_customer", "list_files", "read_file", "submit"]

    started = fde("start", "tiny-knapsack", "--label", "tools-test / loop / none", "--json")
    folder = Path(json.loads(started.out)["workspace"])
    run_id = json.loads(started.out)["run"]["id"]
    sys.path.insert(0, str(CLIENT_SRC))
    from fde_client.api import Client
    from fde_client.toolbox import Toolbox

    box = Toolbox(Client(os.environ["FDE_URL"], os.environ["FDE_TOKEN"]), run_id, folder)
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in tools}

    def call(name: str, **arguments: Any) -> dict[str, Any]:
        jsonschema.validate(arguments, schemas[name])  # what a model may send, it can send
        return box.call(name, json.dumps(arguments))

    listed = [f["path"] for f in call("list_files")["files"]]
    assert "data/items.csv" in listed and "instruction.md" in listed
    assert not any(p.startswith(".fde") for p in listed)
    assert "15 kg" in call("read_file", path="instruction.md")["text"]
    assert "outside the workspace" in call("read_file", path="../campaign.json")["error"]
    answer = call("ask_customer", text="Is the van still 15 kg?")
    assert answer["rounds_used"] == 1 and answer["text"]
    (folder / "plan.csv").write_text((KNAPSACK / "hidden" / "reference.csv").read_text())
    submitted = call("submit", path="plan.csv")
    assert submitted["format"]["ok"] is True
    closed = fde("close", "--wait", "--timeout", "120", "--workspace", str(folder), "--json")
    assert json.loads(closed.out)["result"]["submission"]["result"]["valid"] is True
