"""Two sockets on one run, on the Redis layer: the other tab sees the turn, the asker once.

The asker is answered directly and its own copy of the group message is no longer sent
through Redis (issue 12); the run's other sockets still get the answer and the status.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from fde_client.api import Client
from websockets.sync.client import connect
from websockets.typing import Origin

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from tests.support.frames import wait_for_frame

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _frames_for(ws: Any, seconds: float) -> list[dict[str, Any]]:
    frames, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            frames.append(json.loads(ws.recv(timeout=left)))
        except TimeoutError:
            break
    return frames


def test_the_other_tab_sees_the_turn_and_the_asker_gets_one_answer(
    live_url_redis: str, alice: User, knapsack: Case
) -> None:
    client = Client(live_url_redis, token=agent_token_issue(user=alice))
    run = client.start_run(case=knapsack.slug, condition="interact_req", mode="practice", label="t")
    url = live_url_redis.replace("http://", "ws://") + f"/ws/runs/{run['id']}/?token={client.token}"
    origin = Origin(live_url_redis)
    with (
        connect(url, origin=origin, open_timeout=20) as asker,
        connect(url, origin=origin, open_timeout=20) as tab,
    ):
        wait_for_frame(asker, "status")
        wait_for_frame(tab, "status")
        asker.send(json.dumps({"type": "ask", "id": "q1", "text": "Which unit is the weight in?"}))
        answer = wait_for_frame(tab, "answer", timeout=30)
        status = wait_for_frame(tab, "status", timeout=30)
        assert answer["id"] == "q1" and answer["turn"] == 1
        assert status["run"]["rounds_used"] == 1
        seen = _frames_for(asker, 3)
    assert [f["type"] for f in seen] == ["typing", "answer", "status"]
