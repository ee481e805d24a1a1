"""A bare Channels echo consumer: the ceiling ``bench/ws_load.py`` compares the platform with.

Same server (daphne, same process count, same Django settings), none of the platform's work:
each text frame comes straight back.
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class Echo(AsyncWebsocketConsumer):  # type: ignore[misc]
    groups: list[str] = []

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data)


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/echo/", Echo.as_asgi())])})
