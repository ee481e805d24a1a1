"""Which websocket handshakes are let through, by what authenticates them.

A browser attaches its session cookie to any page's websocket, so a cookie-authenticated
connection must come from a page of this site: its ``Origin`` must name the same scheme-less
host *and port* the browser connected to (the ``Host`` header), or a trusted origin
(``CSRF_TRUSTED_ORIGINS``), and the host must be an allowed one. A token-authenticated
connection (``?token=`` or ``Authorization: Token``) carries its credential explicitly, so a
cross-site page cannot ride on it: agents may connect without any ``Origin``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from fdeplatform.accounts.ws_auth import token_from_scope

_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def _netloc(host: str, port: str, scheme: str) -> str:
    return f"{host.lower()}:{port or _DEFAULT_PORTS.get(scheme, '')}"


def origin_allowed(origin: str, host_header: str) -> bool:
    """Same host and port as the connection (or a trusted origin), on an allowed host."""
    if not origin:
        return False
    if origin in getattr(settings, "CSRF_TRUSTED_ORIGINS", []):
        return True
    parsed = urlparse(origin)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return False
    if not validate_host(parsed.hostname, settings.ALLOWED_HOSTS):
        return False
    if not host_header:  # no Host (test harnesses only): the allowed-host check is all we have
        return True
    host, port = split_domain_port(host_header)
    scheme = parsed.scheme
    return _netloc(parsed.hostname, str(parsed.port or ""), scheme) == _netloc(host, port, scheme)


class OriginCheck:
    """ASGI middleware in front of the websocket router (replaces Channels' host-only check)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        cookie_only = scope["type"] == "websocket" and token_from_scope(scope) is None
        if cookie_only and not origin_allowed(_header(scope, b"origin"), _header(scope, b"host")):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)
