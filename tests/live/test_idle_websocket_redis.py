"""An idle websocket on the Redis channel layer stays open and still gets pushed frames.

channels-redis waits for messages with BZPOPMIN and a 5 s server timeout; with redis-py's
default 5 s socket read timeout the read timed out first, the consumer died and daphne closed
every quiet websocket with 1011 (django/channels_redis#422, redis/redis-py#4091).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from fde_client.api import Client
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State
from websockets.sync.client import connect
from websockets.typing import Origin

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from tests.support.frames import wait_for_frame

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
IDLE_S = 35  # well past BZPOPMIN's 5 s and daphne's 20 s websocket ping interval


def _stay_idle(ws: Any, seconds: float) -> None:
    """Send nothing for ``seconds``; fail at once if the server closes the socket meanwhile."""
    started = time.monotonic()
    deadline = started + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = ws.recv(timeout=left)
        except TimeoutError:
            return
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            raise AssertionError(
                f"server closed the idle websocket after {time.monotonic() - started:.1f}s (code {code})"
            ) from closed
        raise AssertionError(f"unexpected frame while idle: {frame!r}")


def test_an_idle_websocket_stays_open_and_gets_the_score(
    live_url_redis: str, celery_worker: None, alice: User, knapsack: Case
) -> None:
    client = Client(live_url_redis, token=agent_token_issue(user=alice))
    run = client.start_run(
        case=knapsack.slug, condition="interact_req", mode="practice", label="idle"
    )
    url = live_url_redis.replace("http://", "ws://") + f"/ws/runs/{run['id']}/?token={client.token}"
    with connect(url, origin=Origin(live_url_redis), open_timeout=20) as ws:
        wait_for_frame(ws, "status")
        _stay_idle(ws, IDLE_S)
        reference = ROOT / "tests" / "fixtures" / "cases" / "tiny-knapsack" / "hidden"
        client.submit(str(run["id"]), reference / "reference.csv")
        frame = wait_for_frame(ws, "score")
        # A practice result shows a band, not the exact score (it would reveal the reference).
        assert frame["submission"]["result"]["score_band"] == [1.0, 1.1]
        ws.send(json.dumps({"type": "ping"}))
        assert wait_for_frame(ws, "pong", timeout=20) == {"type": "pong"}
        assert ws.protocol.state is State.OPEN
