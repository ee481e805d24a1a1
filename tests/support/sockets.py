"""Talking to the run websocket in-process (Channels' communicator), as an agent with a token."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator


def ask_on_socket(run_id: object, key: str, asks: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Send each (message id, text) ``ask`` and return, in order, the ``answer`` or ``error``
    frame that settled it; then a ``ping``, whose ``pong`` proves the socket stayed usable."""
    from fdeplatform.asgi import application

    async def talk() -> list[dict[str, Any]]:
        ws = WebsocketCommunicator(
            application,
            f"/ws/runs/{run_id}/?token={key}",
            headers=[(b"origin", b"http://127.0.0.1")],
        )
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_json_from(5)  # the status frame every connection starts with
        outcomes = []
        for msg_id, text in asks:
            await ws.send_json_to({"type": "ask", "text": text, "id": msg_id})
            while True:
                frame = await ws.receive_json_from(10)
                if frame.get("id") == msg_id and frame["type"] in ("answer", "error"):
                    outcomes.append(frame)
                    break
        await ws.send_json_to({"type": "ping"})
        while (frame := await ws.receive_json_from(5))["type"] != "pong":
            pass
        await ws.disconnect()
        return outcomes

    return async_to_sync(talk)()
