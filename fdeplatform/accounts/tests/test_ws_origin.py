"""Websocket origins: agents with a token need none; cookie sessions need this site's page,
same host and port."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.accounts.ws_origin import origin_allowed
from fdeplatform.asgi import application
from fdeplatform.cases.models import Case
from fdeplatform.runs.services import run_start

pytestmark = pytest.mark.django_db(transaction=True)


def _connects(path: str, headers: list[tuple[bytes, bytes]]) -> bool:
    async def attempt() -> bool:
        ws = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await ws.connect(timeout=5)
        if connected:
            await ws.disconnect()
        return bool(connected)

    return async_to_sync(attempt)()


def test_origin_must_match_host_and_port(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "fde.example"]
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert origin_allowed("https://fde.example", "fde.example")
    assert not origin_allowed("http://127.0.0.1:9999", "127.0.0.1:8000")  # another port
    assert not origin_allowed("https://fde.example", "fde.example:8443")
    assert not origin_allowed("http://evil.example", "127.0.0.1:8000")
    assert not origin_allowed("", "127.0.0.1:8000")
    assert not origin_allowed("null", "127.0.0.1:8000")


def test_an_agent_token_connects_without_an_origin(alice: User, knapsack: Case) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    key = agent_token_issue(user=alice)
    assert _connects(f"/ws/runs/{run.id}/?token={key}", headers=[])
    assert _connects(f"/ws/runs/{run.id}/", headers=[(b"authorization", f"Token {key}".encode())])


def test_a_cookie_session_needs_this_sites_origin(alice: User, knapsack: Case) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    browser = Client()
    browser.force_login(alice)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    path = f"/ws/runs/{run.id}/"
    host = (b"host", b"127.0.0.1:8000")
    assert not _connects(path, [(b"cookie", cookie), host])
    assert not _connects(path, [(b"cookie", cookie), host, (b"origin", b"http://127.0.0.1:9000")])
    assert not _connects(path, [(b"cookie", cookie), host, (b"origin", b"http://evil.example")])
    assert _connects(path, [(b"cookie", cookie), host, (b"origin", b"http://127.0.0.1:8000")])
