"""The websocket protocol once more, with an independent client against a live daphne."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.runs.models import Exchange, Run
from fdeplatform.runs.services import run_start

pytestmark = pytest.mark.django_db(transaction=True)


def _ws(live_url: str, run: Run, token: str) -> Any:
    url = live_url.replace("http://", "ws://") + f"/ws/runs/{run.pk}/?token={token}"
    return connect(url, origin=live_url, open_timeout=20)


def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads(ws.recv(timeout=20))
        if frame["type"] == kind:
            return frame  # type: ignore[no-any-return]


def test_ask_answer_limit_bad_frame_and_bad_token(
    live_url: str, alice: User, knapsack: Case
) -> None:
    run = run_start(player=alice, case_slug=knapsack.slug, condition="interact_req", mode="ranked")
    Run.objects.filter(pk=run.pk).update(rounds_limit=2)
    token = agent_token_issue(user=alice)

    with _ws(live_url, run, token) as ws:
        assert _next(ws, "status")["run"]["rounds_used"] == 0
        ws.send(
            json.dumps({"type": "ask", "id": "a", "text": "How much weight can the van carry now?"})
        )
        answer = _next(ws, "answer")
        assert answer["turn"] == 1 and "12 kg" in answer["text"]
        ws.send(json.dumps({"type": "ask", "id": "b", "text": "Anything else I should know?"}))
        assert _next(ws, "answer")["turn"] == 2
        ws.send(json.dumps({"type": "ask", "id": "c", "text": "And a third question?"}))
        limit = _next(ws, "error")
        assert limit["code"] == "round_limit" and limit["id"] == "c"
        ws.send("{not json")
        assert _next(ws, "error")["code"] == "bad_json"
        ws.send(json.dumps({"type": "ping"}))
        assert _next(ws, "pong") == {"type": "pong"}  # the connection survived
    assert Exchange.objects.filter(run=run).count() == 2

    with _ws(live_url, run, "not-a-token") as ws:
        error = _next(ws, "error")
        assert error["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_a_resent_question_after_a_reconnect_is_answered_once(
    live_url: str, alice: User, knapsack: Case
) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    token = agent_token_issue(user=alice)
    question = {"type": "ask", "id": "retry-1", "text": "Has the van's capacity changed?"}
    with _ws(live_url, run, token) as ws:
        _next(ws, "status")
        ws.send(json.dumps(question))
        # The connection drops before the client reads the answer.
    with _ws(live_url, run, token) as ws:
        status = _next(ws, "status")
        ws.send(json.dumps(question))  # the page re-sends what it has no answer for
        answer = _next(ws, "answer")
    assert answer["id"] == "retry-1" and answer["turn"] == 1
    assert Exchange.objects.filter(run=run).count() == 1
    assert status["run"]["rounds_used"] in {0, 1}
    # The dropped socket's ask may still be finishing on a server thread: let it, so the
    # teardown's TRUNCATE does not deadlock with its transaction.
    time.sleep(1.5)


def test_an_oversized_frame_gets_an_error_and_the_connection_survives(
    live_url: str, alice: User, knapsack: Case
) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    with _ws(live_url, run, agent_token_issue(user=alice)) as ws:
        _next(ws, "status")
        ws.send(json.dumps({"type": "ask", "text": "x" * 100_000}))
        assert _next(ws, "error")["code"] == "too_large"
        ws.send(json.dumps({"type": "ping"}))
        assert _next(ws, "pong") == {"type": "pong"}
    assert not Exchange.objects.filter(run=run).exists()
