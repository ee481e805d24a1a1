from __future__ import annotations

from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from channels.testing import ApplicationCommunicator
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from fdeplatform.accounts.ws_auth import TokenOrSessionAuthMiddleware


@pytest.mark.django_db
def test_signup_logs_the_new_user_in(client: Client) -> None:
    response = client.post(
        "/signup/",
        {
            "username": "dora",
            "email": "",
            "password1": "a-long-pass-123",
            "password2": "a-long-pass-123",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert response.context["user"].username == "dora"
    assert b"Log out" in response.content


@pytest.mark.django_db
def test_signup_reports_mismatched_passwords(client: Client) -> None:
    response = client.post(
        "/signup/",
        {"username": "dora", "password1": "a-long-pass-123", "password2": "other-pass-456"},
    )
    assert response.status_code == 200
    assert "password fields didn" in response.content.decode()
    assert not User.objects.filter(username="dora").exists()


@pytest.mark.django_db
def test_login_and_logout(client: Client, alice: User) -> None:
    response = client.post("/login/", {"username": "alice", "password": "alice-password-1"})
    assert response.status_code == 302
    assert client.get("/account/").status_code == 200
    client.post("/logout/")
    assert client.get("/account/").status_code == 302


@pytest.mark.django_db
def test_admin_link_is_shown_to_staff_only(client: Client, alice: User, charlie: User) -> None:
    client.force_login(alice)
    assert b'href="/admin/"' not in client.get("/").content
    client.force_login(charlie)
    assert b'href="/admin/"' in client.get("/").content


@pytest.mark.django_db
def test_create_agent_token_prints_a_working_token(alice: User) -> None:
    out = StringIO()
    call_command("create_agent_token", "alice", stdout=out)
    key = out.getvalue().strip()
    assert Token.objects.get(user=alice).key == key
    api = APIClient()
    assert api.get("/api/cases/").status_code in {401, 403}
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/cases/").status_code == 200


@pytest.mark.django_db
def test_create_agent_token_refuses_an_unknown_user() -> None:
    with pytest.raises(CommandError, match="no user named 'ghost'"):
        call_command("create_agent_token", "ghost")


@pytest.mark.django_db
def test_create_agent_token_can_create_the_agent_user() -> None:
    out = StringIO()
    call_command("create_agent_token", "agent-7", "--create", stdout=out)
    assert Token.objects.filter(user__username="agent-7", key=out.getvalue().strip()).exists()


@pytest.mark.django_db
def test_rotating_the_token_revokes_the_old_one(client: Client, alice: User) -> None:
    old = Token.objects.create(user=alice).key
    client.force_login(alice)
    response = client.post("/account/token/")
    new = Token.objects.get(user=alice).key
    assert new != old
    assert new in response.content.decode()


async def _echo_user(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
    await send({"type": "websocket.accept"})  # type: ignore[operator]
    user = scope["user"]
    await send({"type": "websocket.send", "text": f"{user.username}|{scope.get('auth_error', '')}"})  # type: ignore[operator]


def _ws_identity(query: bytes = b"", headers: list[tuple[bytes, bytes]] | None = None) -> str:
    app = TokenOrSessionAuthMiddleware(_echo_user)
    scope = {"type": "websocket", "path": "/ws/x/", "query_string": query, "headers": headers or []}

    async def talk() -> str:
        comm = ApplicationCommunicator(app, scope)
        await comm.send_input({"type": "websocket.connect"})
        await comm.receive_output(2)
        message = await comm.receive_output(2)
        await comm.wait(1)
        return str(message["text"])

    return async_to_sync(talk)()


@pytest.mark.django_db(transaction=True)
def test_websocket_token_in_query_or_header_sets_the_user(alice: User) -> None:
    key = Token.objects.create(user=alice).key
    assert _ws_identity(query=f"token={key}".encode()) == "alice|"
    assert _ws_identity(headers=[(b"authorization", f"Token {key}".encode())]) == "alice|"


@pytest.mark.django_db(transaction=True)
def test_websocket_bad_token_is_flagged() -> None:
    assert _ws_identity(query=b"token=nope") == "|bad_token"
