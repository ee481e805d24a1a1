"""API routes of leaderboards (mounted under /api/)."""

from __future__ import annotations

from typing import Any

urlpatterns: list[Any] = []
