"""Websocket routes (the contract: ``/ws/runs/{id}/``)."""

from __future__ import annotations

from typing import Any

from django.urls import re_path

from fdeplatform.runs.consumers import RunConsumer

websocket_urlpatterns: list[Any] = [
    re_path(r"^ws/runs/(?P<run_id>[0-9a-fA-F-]{36})/$", RunConsumer.as_asgi()),
]
