"""Fixed-window rate limits on the shared cache, for fair use of questions, runs and logins.

A research campaign runs hundreds of agents; one runaway loop must not starve the rest. Each
limit is a setting like ``"10/s"`` or ``"30/min"`` (``0`` or an empty string turns it off),
counted per key (a user, a user and address) in the default cache: Redis when the site has it,
so every web process counts together, or the process's own memory in the embedded default,
which runs one process. ``hit`` returns how long to wait when the limit is spent, so callers can
answer HTTP 429 with ``Retry-After`` or an ``error`` frame with ``retry_after``.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)
_UNITS = {"s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600, "hour": 3600}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    def __str__(self) -> str:
        return f"{self.count} per {self.seconds} s"


def parse_rate(text: str) -> Rate | None:
    """``"10/s"``, ``"30/min"``, ``"100/15min"`` or ``"1000/hour"``; None for off (``""``, ``"0"``)."""
    if not text or text.strip() in {"0", "off", "none"}:
        return None
    match = _RATE.match(text.lower())
    if match is None or match.group(3) not in _UNITS:
        raise ValueError(f"not a rate: {text!r} (write it like 10/s, 30/min or 100/15min)")
    count, multiple, unit = int(match.group(1)), int(match.group(2) or 1), match.group(3)
    return Rate(count, multiple * _UNITS[unit]) if count > 0 else None


@functools.cache
def _parsed(text: str) -> Rate | None:
    return parse_rate(text)


def rate_setting(name: str) -> Rate | None:
    """The rate in setting ``name`` (parsed once per distinct value)."""
    return _parsed(str(getattr(settings, name, "") or ""))


def hit(scope: str, key: str, rate: Rate | None) -> float | None:
    """Count one event for ``key``; None while within ``rate``, else seconds until it frees up."""
    if rate is None:
        return None
    now = time.time()
    window = int(now // rate.seconds)
    name = f"rl:{scope}:{key}:{window}"
    try:
        count = _count(name, rate.seconds + 1)
    except Exception as exc:  # Redis down: a limit is a courtesy, never a reason to fail
        log.warning("rate limit %s not counted: the cache is unavailable (%s)", scope, exc)
        return None
    if count <= rate.count:
        return None
    return max(0.1, math.ceil((rate.seconds - now % rate.seconds) * 10) / 10)


def _count(name: str, timeout: int) -> int:
    """Add one to the counter ``name`` (created with ``timeout``); the count so far."""
    client = _redis_client()
    if client is not None:
        # One round trip on one reused client: every question counts here, and the cache
        # API's add + incr took three round trips and built a new Redis client for each.
        # The counter stays a plain integer, which the cache's ``get`` reads back as one.
        pipe = client.pipeline(transaction=False)
        pipe.set(cache.make_and_validate_key(name), 0, ex=timeout, nx=True)
        pipe.incr(cache.make_and_validate_key(name))
        return int(pipe.execute()[1])
    cache.add(name, 0, timeout=timeout)
    try:
        return int(cache.incr(name))
    except ValueError:  # expired between add and incr: the window's first event
        cache.set(name, 1, timeout=timeout)
        return 1


_clients: dict[tuple[Any, ...], Any] = {}


def _redis_client() -> Any:
    """A Redis client for the default cache, one per process and cache location (its pool is
    thread-safe), or None for other caches.

    Not one per cache object: Django keeps cache objects in context-local storage, so every
    websocket consumer (an asyncio task with its own context) got a fresh one, and with it a
    new Redis client, pool and connection (connect, health check, CLIENT SETINFO) for each
    question it asked.
    """
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        return None
    key = (tuple(backend._servers), repr(sorted(backend._options.items())))  # type: ignore[attr-defined]
    client = _clients.get(key)
    if client is None:
        # RedisCache keeps its client factory (the documented extension point) in ``_cache``.
        client = _clients[key] = backend._cache.get_client(write=True)  # type: ignore[attr-defined]
    return client


def spent(scope: str, key: str, rate: Rate | None) -> float | None:
    """Without counting: None while ``key`` may go on, else seconds until the window ends."""
    if rate is None:
        return None
    now = time.time()
    try:
        count = cache.get(f"rl:{scope}:{key}:{int(now // rate.seconds)}") or 0
    except Exception as exc:
        log.warning("rate limit %s not checked: the cache is unavailable (%s)", scope, exc)
        return None
    if count < rate.count:
        return None
    return max(0.1, math.ceil((rate.seconds - now % rate.seconds) * 10) / 10)


def clear(scope: str, key: str, rate: Rate | None) -> None:
    """Forget the current window's count (a successful login clears its failures)."""
    if rate is not None:
        try:
            cache.delete(f"rl:{scope}:{key}:{int(time.time() // rate.seconds)}")
        except Exception as exc:
            log.warning("rate limit %s not cleared: the cache is unavailable (%s)", scope, exc)
