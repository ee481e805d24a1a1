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


def _closed_after(path: str, headers: list[tuple[bytes, bytes]], revoke: Any) -> dict[str, Any]:
    """Connect, revoke the credential, return the error frame the socket got before closing."""

    async def scenario() -> dict[str, Any]:
        from asgiref.sync import sync_to_async

        ws = WebsocketCommunicator(application, path, headers=headers)
        assert (await ws.connect(timeout=5))[0]
        await ws.receive_json_from(5)  # status
        await sync_to_async(revoke)()
        frame = await ws.receive_json_from(5)
        closing = await ws.receive_output(5)
        assert closing == {"type": "websocket.close", "code": 4401}
        return dict(frame)

    return async_to_sync(scenario)()


def test_rotating_the_token_closes_sockets_opened_with_the_old_one(
    alice: User, knapsack: Case
) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    key = agent_token_issue(user=alice)
    frame = _closed_after(
        f"/ws/runs/{run.id}/?token={key}", [], lambda: agent_token_issue(user=alice, rotate=True)
    )
    assert frame["type"] == "error" and frame["code"] == "revoked"
    assert "API token was replaced" in frame["message"]


def test_logging_out_closes_that_sessions_sockets(alice: User, knapsack: Case) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    browser = Client()
    browser.force_login(alice)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    headers = [
        (b"cookie", cookie),
        (b"host", b"127.0.0.1:8000"),
        (b"origin", b"http://127.0.0.1:8000"),
    ]
    frame = _closed_after(f"/ws/runs/{run.id}/", headers, lambda: browser.post("/logout/"))
    assert frame["code"] == "revoked" and "logged out" in frame["message"]
