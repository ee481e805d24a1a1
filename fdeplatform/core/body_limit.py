"""Refuse request bodies above MAX_UPLOAD_REQUEST_MB before daphne buffers them.

Behind the compose proxy, Caddy caps bodies (deploy/Caddyfile). Served directly, daphne would
read any body it is sent into memory or a temporary file before Django's checks run, so one
client could fill the disk. This ASGI wrapper answers 413 as soon as the declared
Content-Length is too large (nothing is read), and counts the bytes of a body without one
(chunked) as they arrive, answering 413 once they pass the limit.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]  # Django's handler types its arguments more narrowly


class BodyLimit:
    """Wrap an HTTP ASGI app so that no request body larger than ``max_bytes`` reaches it.

    ``max_bytes`` defaults to settings.MAX_UPLOAD_REQUEST_BYTES (read per request, so a test
    or a settings override applies)."""

    def __init__(self, app: ASGIApp, max_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes if self.max_bytes is not None else settings.MAX_UPLOAD_REQUEST_BYTES
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(scope, send, limit)
            return
        await _Guarded(self.app, scope, receive, send, limit).run()


class _Guarded:
    """One request whose body is counted as it is received."""

    def __init__(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send, limit: int):
        self.app, self.scope, self.inner_receive, self.inner_send = app, scope, receive, send
        self.limit, self.received, self.refused = limit, 0, False

    async def run(self) -> None:
        await self.app(self.scope, self.receive, self.send)

    async def receive(self) -> Message:
        if self.refused:
            return {"type": "http.disconnect"}
        message = await self.inner_receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.limit:
                # Answer for the app, then tell it the client is gone: Django stops reading
                # (RequestAborted) and sends nothing of its own.
                self.refused = True
                await _refuse(self.scope, self.inner_send, self.limit)
                return {"type": "http.disconnect"}
        return message

    async def send(self, message: Message) -> None:
        if not self.refused:  # the 413 was the response; the app's must not follow it
            await self.inner_send(message)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # Django refuses a malformed length itself; counting still applies
    return None


async def _refuse(scope: Scope, send: Send, limit: int) -> None:
    limit_mb = max(1, limit // 1_048_576)
    message = f"Request bodies are limited to {limit_mb} MB."
    if str(scope.get("path", "")).startswith("/api/"):
        body = json.dumps({"error": {"code": "too_large", "message": message}}).encode()
        kind = b"application/json"
    else:
        body, kind = message.encode(), b"text/plain; charset=utf-8"
    headers = [
        (b"content-type", kind),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})
