from __future__ import annotations

from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from channels.testing import ApplicationCommunicator
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from fdeplatform.accounts.models import AgentToken, digest_of
from fdeplatform.accounts.services import agent_token_issue
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
    assert key.startswith("fde_") and len(key) > 40
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
    key = out.getvalue().strip()
    assert AgentToken.objects.filter(user__username="agent-7", digest=digest_of(key)).exists()


@pytest.mark.django_db
def test_rotating_the_token_revokes_the_old_one(client: Client, alice: User) -> None:
    old = agent_token_issue(user=alice)
    client.force_login(alice)
    response = client.post("/account/token/", {"confirm": "on"})
    new = response.content.decode().split('id="new-token">')[1].split("<")[0]
    assert new != old and new.startswith("fde_")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert api.get("/api/cases/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {new}")
    assert api.get("/api/cases/").status_code == 200


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
    key = agent_token_issue(user=alice)
    assert _ws_identity(query=f"token={key}".encode()) == "alice|"
    assert _ws_identity(headers=[(b"authorization", f"Token {key}".encode())]) == "alice|"


@pytest.mark.django_db(transaction=True)
def test_websocket_bad_token_is_flagged() -> None:
    assert _ws_identity(query=b"token=nope") == "|bad_token"


@pytest.mark.django_db
def test_tokens_are_stored_only_as_digests(alice: User) -> None:
    """A copy of the database yields no usable key (issue 11: tokens were plain text)."""
    from django.db import connection

    key = agent_token_issue(user=alice)
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_agenttoken")
        stored = " ".join(str(value) for row in cursor.fetchall() for value in row)
    assert key not in stored
    assert digest_of(key) in stored
    assert "authtoken_token" not in connection.introspection.table_names()


@pytest.mark.django_db
def test_a_second_token_leaves_the_first_working_unless_rotated(alice: User) -> None:
    first = agent_token_issue(user=alice)
    second = agent_token_issue(user=alice)
    api = APIClient()
    for key in (first, second):
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert api.get("/api/cases/").status_code == 200
    third = agent_token_issue(user=alice, rotate=True)
    api.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert api.get("/api/cases/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {third}")
    assert api.get("/api/cases/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_upgrading_carries_plain_tokens_over_as_digests(alice: User) -> None:
    """Sites that ran with DRF's plain-text tokens keep their agents working after migrate."""
    import importlib

    from django.apps import apps
    from django.db import connection

    migration = importlib.import_module("fdeplatform.accounts.migrations.0001_agent_token")
    old_key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, user_id integer)"
        )
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s)", [old_key, alice.pk])
    with connection.schema_editor() as editor:
        migration._hash_plain_tokens(apps, editor)
    assert "authtoken_token" not in connection.introspection.table_names()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {old_key}")
    assert api.get("/api/cases/").status_code == 200
