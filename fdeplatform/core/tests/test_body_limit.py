"""Oversized request bodies are refused with 413 before they are read, with or without a proxy."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from fdeplatform.core.body_limit import BodyLimit

Message = dict[str, Any]


def _scope(path: str, headers: list[tuple[bytes, bytes]]) -> Message:
    return {"type": "http", "method": "POST", "path": path, "headers": headers}


async def _call(app: Any, scope: Message, chunks: list[bytes] | None) -> tuple[list[Message], int]:
    """Run ``app``; returns what it sent and how many body messages it took from the client."""
    sent: list[Message] = []
    taken = 0
    pending = list(chunks or [])

    async def receive() -> Message:
        nonlocal taken
        if not pending:
            if chunks is None:  # a client that declared a huge body and sends nothing yet
                raise AssertionError("the body was read")
            await asyncio.sleep(3600)
        taken += 1
        body = pending.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(pending)}

    async def send(message: Message) -> None:
        sent.append(message)

    await asyncio.wait_for(app(scope, receive, send), timeout=5)
    return sent, taken


async def _echo(scope: Any, receive: Any, send: Any) -> None:
    """Reads the whole body, then answers 200 with its length (as Django would read it)."""
    size, more = 0, True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(size).encode()})


def test_a_huge_content_length_is_refused_at_once_without_reading() -> None:
    app = BodyLimit(_echo, max_bytes=1024)
    headers = [(b"content-length", str(10**12).encode())]
    sent, taken = async_to_sync(_call)(app, _scope("/api/runs/x/submissions/", headers), None)
    assert taken == 0
    assert sent[0]["status"] == 413
    assert b"too_large" in sent[1]["body"] and b"1 MB" in sent[1]["body"]


def test_a_chunked_body_is_cut_off_once_it_passes_the_limit() -> None:
    app = BodyLimit(_echo, max_bytes=1000)
    chunks = [b"x" * 400] * 10  # no Content-Length, 4000 bytes in all
    sent, taken = async_to_sync(_call)(app, _scope("/upload/", []), chunks)
    assert taken == 3  # 1200 bytes: the third chunk passed the limit, no more was read
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 413 and b"limited to" in sent[1]["body"]


def test_a_body_within_the_limit_reaches_the_app() -> None:
    app = BodyLimit(_echo, max_bytes=1000)
    sent, _ = async_to_sync(_call)(app, _scope("/upload/", [(b"content-length", b"800")]),
                                   [b"x" * 400, b"x" * 400])  # fmt: skip
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"800"


def test_the_site_app_refuses_a_huge_content_length(settings: Any) -> None:
    from fdeplatform.asgi import application

    settings.MAX_UPLOAD_REQUEST_BYTES = 1_048_576
    headers = [(b"content-length", str(10**12).encode()), (b"host", b"testserver")]
    sent, taken = async_to_sync(_call)(application, _scope("/api/runs/", headers), None)
    assert taken == 0 and sent[0]["status"] == 413


def _raw(base: str, head: bytes, body: bytes = b"") -> tuple[bytes, float]:
    host, port = base.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(head + body)
        answer = b""
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer, time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_daphne_answers_413_before_reading_a_declared_huge_body(live_url: str) -> None:
    """A live daphne with no proxy: 1 TB declared, nothing sent, 413 at once."""
    head = b"POST /api/runs/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000000\r\n\r\n"
    answer, took = _raw(live_url, head)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert took < 5


@pytest.mark.django_db(transaction=True)
def test_daphne_cuts_off_a_chunked_body_past_the_limit(live_url: str) -> None:
    head = b"POST /api/runs/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    chunk = b"%x\r\n" % 1_048_576 + b"x" * 1_048_576 + b"\r\n"
    answer = b""
    host, port = live_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(head)
        try:
            for _ in range(200):  # up to 200 MB, far past the 50 MB default
                conn.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            while part := conn.recv(65536):
                answer += part
        except ConnectionResetError:
            pass
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
