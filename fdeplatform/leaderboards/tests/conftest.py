"""The hand-computed leaderboard fixture shared by the leaderboard tests."""

from __future__ import annotations

from typing import Any

import pytest

from fdeplatform.leaderboards.tests.factories import build_standard


@pytest.fixture
def standard(db: None) -> dict[str, Any]:
    """Three cases, agent bot-a (9 ranked runs + 3 Hidden), humans alice and bob (see factories)."""
    return build_standard()


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """Computed boards are cached per results stamp; tests build different data with equal stamps."""
    from django.core.cache import cache

    cache.clear()
