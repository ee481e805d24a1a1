"""Websocket authentication: an agent's API token, or the browser's session.

A token may come as ``?token=<key>`` or as an ``Authorization: Token <key>`` header. When a
token is present but wrong, the scope says so (``auth_error``) so the consumer can answer with
an ``error`` frame that names the problem instead of a silent close.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser

from fdeplatform.accounts.services import user_for_key
from fdeplatform.core.db_threads import on_db_threads


def token_from_scope(scope: dict[str, Any]) -> str | None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("token"):
        return str(query["token"][0])
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            kind, _, key = value.decode("latin-1").partition(" ")
            if kind.lower() == "token" and key.strip():
                return str(key).strip()
    return None


async def user_for_token(key: str) -> Any:
    # On the websocket database threads: hundreds of agents connecting at once must not queue
    # their token checks behind one thread (daphne drops a handshake not accepted in 5 s).
    return await on_db_threads(user_for_key)(key)


class _TokenOrSession(BaseMiddleware):
    """A token, when present, decides who connects (agents); otherwise the browser's session.

    With a token the session stack is skipped altogether: it parsed cookies and resolved a
    session user on Django's one thread-sensitive thread, so hundreds of agents connecting at
    once queued there for a user the token then replaced anyway.
    """

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.with_session = AuthMiddlewareStack(inner)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = token_from_scope(scope)
        if key is None:
            return await self.with_session(scope, receive, send)
        user = await user_for_token(key)
        scope = dict(scope, user=user or AnonymousUser(), via_token=True)
        if user is None:
            scope["auth_error"] = "bad_token"
        return await super().__call__(scope, receive, send)


def TokenOrSessionAuthMiddleware(inner: Any) -> Any:
    """An agent's token, else the browser's session (see ``_TokenOrSession``)."""
    return _TokenOrSession(inner)
