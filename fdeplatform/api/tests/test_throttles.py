"""The API throttles let no more than their limit through, even when requests race."""

from __future__ import annotations

import threading
import uuid
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from fdeplatform.api.throttles import UserThrottle

THREADS, EACH, LIMIT = 16, 60, 600


class _Limited(UserThrottle):
    rate = f"{LIMIT}/day"  # a day's window: the test cannot straddle a window's end


@pytest.fixture
def redis_cache(redis_url: str, settings: Any) -> str:
    """The default cache on the real Redis, under a prefix no other test uses."""
    prefix = f"throttle-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    return prefix


def test_parallel_clients_get_no_more_than_the_limit_through(redis_cache: str) -> None:
    """16 threads x 60 requests of one user against a limit of 600: exactly 600 pass."""
    request = SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=uuid.uuid4().hex))
    allowed: list[int] = []
    start = threading.Barrier(THREADS)

    def client() -> None:
        start.wait()
        passed = sum(_Limited().allow_request(request, None) for _ in range(EACH))
        allowed.append(passed)

    threads = [threading.Thread(target=client) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(allowed) == LIMIT, f"{sum(allowed)} of {THREADS * EACH} got through"
    refused = _Limited()
    assert not refused.allow_request(request, None)
    wait = refused.wait()
    assert wait is not None and 0 < wait <= 86400


@pytest.mark.django_db
def test_a_throttled_request_gets_429_with_retry_after(
    redis_cache: str, alice: User, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UserThrottle, "THROTTLE_RATES", {"user": "2/minute", "anon": "2/minute"})
    client = APIClient()
    client.force_authenticate(alice)
    codes = [client.get("/api/cases/").status_code for _ in range(3)]
    assert codes[:2] == [200, 200] and codes[2] == 429
    response = client.get("/api/cases/")
    assert 0 < int(response["Retry-After"]) <= 60
    assert response.json()["error"]["code"] == "throttled"


@pytest.mark.django_db
def test_the_api_keeps_serving_when_redis_is_down(alice: User, settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "KEY_PREFIX": "throttle-down",
        }
    }
    client = APIClient()
    client.force_authenticate(alice)
    assert client.get("/api/cases/").status_code == 200
