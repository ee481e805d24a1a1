"""Reading websocket frames in live tests (the `websockets` sync client)."""

from __future__ import annotations

import json
import time
from typing import Any


def wait_for_frame(ws: Any, kind: str, timeout: float = 120) -> dict[str, Any]:
    """The next frame of type ``kind``, skipping others; AssertionError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if frame["type"] == kind:
            return frame  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} frame")
