"""Stop daphne itself from reading an oversized request body.

Daphne hands a request to the ASGI app only once Twisted has received the whole body (into a
temporary file above 100 KB), so an ASGI wrapper (``body_limit.BodyLimit``) alone cannot keep
a huge upload off the disk. This hooks daphne's request class where Twisted reports the body:
a declared Content-Length above the limit is answered 413 and the connection closed at once,
before a byte of the body is read; a chunked body is counted as it arrives and cut off the
same way once it passes the limit.
"""

from __future__ import annotations

from typing import Any

_REFUSED = "_fde_body_refused"
_RECEIVED = "_fde_body_received"


class _Discard:
    """Stands in for the body file of a refused request (Twisted may still write to it)."""

    closed = False

    def write(self, data: bytes) -> None:
        pass

    def seek(self, *args: Any) -> int:
        return 0

    def read(self, *args: Any) -> bytes:
        return b""

    def close(self) -> None:
        self.closed = True


def limit_daphne_bodies(limit: int) -> None:
    """Refuse bodies above ``limit`` bytes in this process's daphne (idempotent)."""
    from daphne.http_protocol import WebRequest

    if getattr(WebRequest, "_fde_limit", None) is not None:
        WebRequest._fde_limit = limit  # type: ignore[attr-defined]
        return
    WebRequest._fde_limit = limit  # type: ignore[attr-defined]
    got_length, chunk, received = (
        WebRequest.gotLength,
        WebRequest.handleContentChunk,
        WebRequest.requestReceived,
    )

    def gotLength(self: Any, length: int | None) -> None:
        setattr(self, _RECEIVED, 0)
        if length is not None and length > WebRequest._fde_limit:  # type: ignore[attr-defined]
            _refuse(self)
            return
        got_length(self, length)

    def handleContentChunk(self: Any, data: bytes) -> None:
        if getattr(self, _REFUSED, False):
            return
        setattr(self, _RECEIVED, getattr(self, _RECEIVED, 0) + len(data))
        if getattr(self, _RECEIVED) > WebRequest._fde_limit:  # type: ignore[attr-defined]
            _refuse(self)
            return
        chunk(self, data)

    def requestReceived(self: Any, command: bytes, path: bytes, version: bytes) -> None:
        if not getattr(self, _REFUSED, False):  # a refused request never reaches the app
            received(self, command, path, version)

    WebRequest.gotLength = gotLength  # type: ignore[method-assign]
    WebRequest.handleContentChunk = handleContentChunk  # type: ignore[method-assign]
    WebRequest.requestReceived = requestReceived  # type: ignore[method-assign]


def _refuse(request: Any) -> None:
    setattr(request, _REFUSED, True)
    old = getattr(request, "content", None)
    if old is not None and hasattr(old, "close"):
        old.close()
    request.content = _Discard()
    limit_mb = max(1, request._fde_limit // 1_048_576)
    body = f"Request bodies are limited to {limit_mb} MB.".encode()
    request.channel.transport.write(
        b"HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
        + body
    )
    request.channel.loseConnection()  # stops reading: the rest of the body is never received
