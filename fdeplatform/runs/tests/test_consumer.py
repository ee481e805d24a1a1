"""The run websocket through the full ASGI app (auth middleware, origin check, routing)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.asgi import application
from fdeplatform.cases.models import Case
from fdeplatform.runs.models import Exchange, Run
from fdeplatform.runs.services import run_start

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = [(b"origin", b"http://127.0.0.1")]


def _run(user: User, case: Case) -> Run:
    return run_start(player=user, case_slug=case.slug, condition="interact_req", mode="practice")


def _talk(path: str, frames: list[Any], replies: int) -> list[dict[str, Any]]:
    async def go() -> list[dict[str, Any]]:
        comm = WebsocketCommunicator(application, path, headers=ORIGIN)
        connected, _ = await comm.connect()
        assert connected
        out = [await comm.receive_json_from(20)]
        for frame in frames:
            if isinstance(frame, str):
                await comm.send_to(text_data=frame)
            else:
                await comm.send_json_to(frame)
        while len(out) < replies + 1:
            out.append(await comm.receive_json_from(20))
        await comm.disconnect()
        return out

    return async_to_sync(go)()


def test_ask_gets_an_answer_and_a_fresh_status(alice: User, knapsack: Case) -> None:
    run = _run(alice, knapsack)
    key = agent_token_issue(user=alice)
    frames = _talk(
        f"/ws/runs/{run.pk}/?token={key}",
        [{"type": "ask", "id": "q1", "text": "How much weight can the van carry now?"}],
        replies=3,
    )
    assert frames[0]["type"] == "status"
    assert [f["type"] for f in frames[1:]] == ["typing", "answer", "status"]
    answer = frames[2]
    assert answer["turn"] == 1 and answer["id"] == "q1" and "12 kg" in answer["text"]
    assert frames[3]["run"]["rounds_used"] == 1


def test_bad_frames_get_errors_and_the_connection_survives(alice: User, knapsack: Case) -> None:
    run = _run(alice, knapsack)
    key = agent_token_issue(user=alice)
    frames = _talk(
        f"/ws/runs/{run.pk}/?token={key}",
        [
            "not json",
            {"type": "dance"},
            {"type": "ask", "text": 42},
            "[1,2]",
            "x" * 20000,
            {"type": "ping"},
        ],
        replies=6,
    )
    codes = [f.get("code") for f in frames[1:6]]
    assert codes == ["bad_json", "unknown_type", "bad_frame", "bad_frame", "too_large"]
    assert frames[6]["type"] == "pong"
    assert not Exchange.objects.filter(run=run).exists()


def test_a_bad_token_gets_an_error_frame_and_a_close(alice: User, knapsack: Case) -> None:
    run = _run(alice, knapsack)

    async def go() -> tuple[dict[str, Any], Any]:
        comm = WebsocketCommunicator(application, f"/ws/runs/{run.pk}/?token=wrong", headers=ORIGIN)
        await comm.connect()
        frame = await comm.receive_json_from(20)
        closed = await comm.receive_output(20)
        return frame, closed

    frame, closed = async_to_sync(go)()
    assert frame == {"type": "error", "code": "bad_token", "message": "The API token is not valid."}
    assert closed["type"] == "websocket.close" and closed["code"] == 4401


def test_another_players_run_looks_like_no_run(alice: User, bob: User, knapsack: Case) -> None:
    run = _run(alice, knapsack)
    key = agent_token_issue(user=bob)

    async def go() -> dict[str, Any]:
        comm = WebsocketCommunicator(application, f"/ws/runs/{run.pk}/?token={key}", headers=ORIGIN)
        await comm.connect()
        frame: dict[str, Any] = await comm.receive_json_from(20)
        await comm.disconnect()  # leave no application instance running (Redis layer in CI)
        return frame

    assert async_to_sync(go)()["code"] == "not_found"
