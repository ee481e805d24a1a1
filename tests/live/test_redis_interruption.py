"""Redis-side delivery interrupted mid-run: every question is answered exactly once.

While an agent asks over the websocket, every Redis connection of the server's channel layer is
killed every 0.05 s with ``CLIENT KILL``. The agent opens a fresh socket for
every question (joining the run's group each time, as reconnecting clients do), and twice it
drops its socket right after sending a question, reconnects and resends under the same id.
The socket must stay usable, each question must get one answer and one stored exchange, and
once Redis connections are left alone a score pushed through the layer must still arrive.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import redis
from django.contrib.auth.models import User
from fde_client.api import Client
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.runs.models import Exchange
from tests.support.frames import wait_for_frame

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = 10  # the fixture case allows 10 rounds
DROPPED = {3, 7}  # questions whose socket the client drops before the answer arrives


class RedisKiller(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        parsed = urlparse(url)
        self.admin = redis.Redis(host=parsed.hostname or "127.0.0.1", port=parsed.port or 6379)
        self.stop = threading.Event()
        self.killed = 0

    def run(self) -> None:
        # Only the server's channel-layer connections (named fde-layer-<pid>): the test process
        # and the Celery workers keep theirs, as they would when one web box's link drops.
        own = f"fde-layer-{os.getpid()}"
        while True:  # from the start and often: ten questions now take well under a second
            for client in self.admin.client_list():
                name = client.get("name", "")
                if name.startswith("fde-layer-") and name != own:
                    self.killed += int(self.admin.client_kill_filter(_id=client["id"]))
            if self.stop.wait(0.05):
                return


def _answer(ws: ClientConnection, msg_id: str) -> dict[str, Any]:
    while True:
        frame = json.loads(ws.recv(timeout=20))
        if frame.get("id") == msg_id and frame["type"] in ("answer", "error"):
            return frame  # type: ignore[no-any-return]


def test_questions_survive_killed_redis_connections_exactly_once(
    live_url_redis: str, redis_url: str, celery_worker: None, alice: User, knapsack: Case
) -> None:
    client = Client(live_url_redis, token=agent_token_issue(user=alice))
    run = client.start_run(case=knapsack.slug, condition="interact_req", mode="practice", label="x")
    url = live_url_redis.replace("http://", "ws://") + f"/ws/runs/{run['id']}/?token={client.token}"
    origin = Origin(live_url_redis)
    killer = RedisKiller(redis_url)
    answers = []
    ws = connect(url, origin=origin, open_timeout=20)
    killer.start()
    try:
        for turn in range(QUESTIONS):
            ask = json.dumps(
                {"type": "ask", "text": f"Q{turn}: which unit is weight in?", "id": f"m{turn}"}
            )
            ws.close()
            ws = connect(url, origin=origin, open_timeout=20)
            ws.send(ask)
            if turn in DROPPED:
                ws.close()  # the answer is lost with the socket; the client resends
                ws = connect(url, origin=origin, open_timeout=20)
                ws.send(ask)
            answers.append(_answer(ws, f"m{turn}"))
    finally:
        killer.stop.set()
        killer.join(timeout=5)
    try:
        assert killer.killed > 0
        assert [frame["type"] for frame in answers] == ["answer"] * QUESTIONS, answers
        assert [frame["turn"] for frame in answers] == list(range(1, QUESTIONS + 1))
        reference = ROOT / "tests" / "fixtures" / "cases" / "tiny-knapsack" / "hidden"
        client.submit(str(run["id"]), reference / "reference.csv")
        assert wait_for_frame(ws, "score", timeout=60)["type"] == "score"
    finally:
        ws.close()
    stored = list(Exchange.objects.filter(run_id=run["id"]).order_by("turn"))
    assert [e.client_id for e in stored] == [f"m{turn}" for turn in range(QUESTIONS)]
    print(f"{QUESTIONS} questions answered once each while {killer.killed} Redis connections died")
