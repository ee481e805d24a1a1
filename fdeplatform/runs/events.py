"""Pushing live frames to everyone watching a run (browser tabs, agent websockets).

Sent from sync code (services, Celery tasks) through the channel layer. With the in-memory
layer this reaches only consumers in the same process, which is why broker-less deployments
run background work on threads inside the web process.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def run_group(run_id: object) -> str:
    return f"run-{run_id}"


def push(run_id: object, frame: dict[str, Any]) -> None:
    """Send ``frame`` to the run's group; a broken layer is logged, never raised to the caller."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(run_group(run_id), {"type": "run.frame", "frame": frame})
    except Exception:  # the result is stored; a lost push only costs a page refresh
        log.exception("could not push %s frame to run %s", frame.get("type"), run_id)
