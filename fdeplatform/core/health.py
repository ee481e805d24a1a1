"""Dependency checks behind ``GET /healthz``.

Each check reports what it reached, so an operator can tell "SQLite + in-memory layer +
in-process worker" from "PostgreSQL + Redis + Celery" at a glance, and which sandbox case
evaluators would run in ("bwrap", "process+landlock" or "process").
"""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from evaluators import isolation
from fdeplatform.core.background import uses_broker


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not reachable"; report, don't raise
        return {"ok": False, "engine": connection.vendor, "error": type(exc).__name__}
    return {"ok": True, "engine": connection.vendor}


ROUND_TRIP_TIMEOUT_S = 5


def check_channel_layer() -> dict[str, Any]:
    layer = get_channel_layer()
    backend = type(layer).__name__ if layer is not None else "none"
    if layer is None:
        return {"ok": False, "backend": backend, "error": "no channel layer configured"}
    try:
        async_to_sync(_round_trip)(layer)
    except Exception as exc:  # a broken layer must show up as such, not as a 500
        return {"ok": False, "backend": backend, "error": type(exc).__name__}
    return {"ok": True, "backend": backend}


async def _round_trip(layer: Any) -> None:
    # A layer that cannot deliver must fail the check in seconds, not hang the probe.
    await asyncio.wait_for(_ping(layer), timeout=ROUND_TRIP_TIMEOUT_S)


async def _ping(layer: Any) -> None:
    channel = await layer.new_channel(prefix="healthz")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz.ping", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned a different message")


def check_broker(url: str | None = None) -> dict[str, Any]:
    """Connect to the broker at ``url`` (default: the configured one)."""
    if url is None and not uses_broker():
        return {"ok": True, "backend": "in-process threads"}
    from fdeplatform.celery import app

    url = url or str(settings.CELERY_BROKER_URL)
    scheme = url.split(":", 1)[0]
    try:
        with app.connection_for_write(url=url) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # unreachable broker is a health result, not an error page
        return {"ok": False, "backend": scheme, "error": type(exc).__name__}
    return {"ok": True, "backend": scheme}


def check_evaluator_isolation() -> dict[str, Any]:
    """The sandbox the next evaluator would run in (``evaluators.isolation``).

    Not ok only when scoring cannot run (``EVALUATOR_ISOLATION=bwrap`` without a working
    bubblewrap); a fallback to ``process+landlock`` or ``process`` is ok with a ``warning``,
    so an operator sees a weaker sandbox here rather than in a reviewer's report.
    """
    return dict(isolation.status())


def health_report() -> dict[str, Any]:
    report: dict[str, Any] = {
        "database": check_database(),
        "channel_layer": check_channel_layer(),
        "broker": check_broker(),
        "evaluator_isolation": check_evaluator_isolation(),
    }
    healthy = all(part["ok"] for part in report.values())
    # Which web process answered: with several behind one port, a load balancer or a test
    # can tell them apart.
    return {"status": "ok" if healthy else "error", **report, "pid": os.getpid()}
