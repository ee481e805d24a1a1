"""The Redis channel layer, made to ride out Redis hiccups instead of killing websockets.

channels-redis lets a dropped Redis connection (a Redis restart, a failover, a proxy reset, a
``CLIENT KILL``) escape from ``receive``; Channels then ends the consumer and daphne closes the
websocket with 1011, so one blip disconnects every agent at once. Here ``receive`` waits and
retries with a growing pause (the consumer and its socket live on, and messages sent after
Redis is back arrive), and the sending calls retry a few times before giving up, so the caller
can answer with an ``error`` frame instead of dying.

``group_send_except`` (and ``send_to_others`` for any layer) sends to a group's members other
than one channel: an agent's socket is usually alone on its run, and the copy of its own answer
that a plain ``group_send`` hands it back costs four Redis round trips on the receiving side and
fills the process's shared inbound queue (capacity 100 for every socket of a process), where
under load it pushed out messages somebody did wait for (scores, token revocations).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis.exceptions
from channels.exceptions import ChannelFull
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

    async def group_send_except(self, group: str, message: dict[str, Any], exclude: str) -> int:
        """``group_send`` to every member but ``exclude``; the number of channels sent to.

        One read of the group (members that ``group_send`` would not have expired), then one
        ``send`` per other member, dropped with a log line when its queue is full, as
        ``group_send`` does.
        """
        members = await _retried(lambda: self._live_members(group))
        others = [channel for channel in members if channel != exclude]
        for channel in others:
            try:
                await self.send(channel, message)
            except ChannelFull:
                log.info("channel %s of group %s over capacity; message dropped", channel, group)
        return len(others)

    async def _live_members(self, group: str) -> list[str]:
        connection = self.connection(self.consistent_hash(group))
        oldest = int(time.time()) - self.group_expiry
        members = await connection.zrangebyscore(self._group_key(group), f"({oldest}", "+inf")
        return [member.decode("utf8") for member in members]


async def send_to_others(layer: Any, group: str, message: dict[str, Any], origin: str) -> None:
    """Send ``message`` to ``group``'s members other than ``origin``.

    The Redis layer skips ``origin`` before anything crosses Redis; other layers (in-memory,
    one process, cheap) send to all, and ``message["origin"]`` lets the origin ignore its copy.
    """
    message = {**message, "origin": origin}
    if isinstance(layer, ResilientRedisChannelLayer):
        await layer.group_send_except(group, message, origin)
    else:
        await layer.group_send(group, message)


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
