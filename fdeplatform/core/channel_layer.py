"""The Redis channel layer, made to ride out Redis hiccups instead of killing websockets.

channels-redis lets a dropped Redis connection (a Redis restart, a failover, a proxy reset, a
``CLIENT KILL``) escape from ``receive``; Channels then ends the consumer and daphne closes the
websocket with 1011, so one blip disconnects every agent at once. Here ``receive`` waits and
retries with a growing pause (the consumer and its socket live on, and messages sent after
Redis is back arrive), and the sending calls retry a few times before giving up, so the caller
can answer with an ``error`` frame instead of dying.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis.exceptions
from channels_redis.core import RedisChannelLayer

log = logging.getLogger(__name__)
T = TypeVar("T")

#: What a lost or slow Redis connection raises.
TRANSIENT = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
SEND_ATTEMPTS = 4
FIRST_PAUSE_S = 0.05
LONGEST_PAUSE_S = 2.0
#: After this long failing without a break, receive gives up and raises.
RECEIVE_GIVE_UP_S = 30.0


class ResilientRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    async def receive(self, channel: str) -> dict[str, Any]:
        pause, failing_since = FIRST_PAUSE_S, None
        loop = asyncio.get_running_loop()
        while True:
            try:
                message: dict[str, Any] = await super().receive(channel)
                return message
            except TRANSIENT as exc:
                failing_since = failing_since or loop.time()
                if loop.time() - failing_since > RECEIVE_GIVE_UP_S:
                    raise  # Redis is gone, not hiccuping: let the socket close and reconnect
                log.warning(
                    "channel layer receive failed (%s: %s); retrying in %.2fs",
                    type(exc).__name__, exc, pause,
                )  # fmt: skip
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE_S)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await _retried(lambda: super(ResilientRedisChannelLayer, self).send(channel, message))

    async def group_add(self, group: str, channel: str) -> None:
        await _retried(lambda: super(ResilientRedisChannelLayer, self).group_add(group, channel))

    async def group_discard(self, group: str, channel: str) -> None:
        await _retried(
            lambda: super(ResilientRedisChannelLayer, self).group_discard(group, channel)
        )

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await _retried(lambda: super(ResilientRedisChannelLayer, self).group_send(group, message))


async def _retried(call: Callable[[], Awaitable[T]]) -> T:
    """``call()``, tried up to SEND_ATTEMPTS times while Redis is unreachable."""
    pause = FIRST_PAUSE_S
    for attempt in range(1, SEND_ATTEMPTS + 1):
        try:
            return await call()
        except TRANSIENT as exc:
            if attempt == SEND_ATTEMPTS:
                raise
            log.warning("channel layer call failed (%s); retrying in %.2fs", exc, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE_S)
    raise AssertionError("unreachable")
