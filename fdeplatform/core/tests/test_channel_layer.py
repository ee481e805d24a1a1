"""Sending a run's frames to its other sockets only (issue 12), on a real Redis."""

from __future__ import annotations

import asyncio
import uuid

from asgiref.sync import async_to_sync

from fdeplatform.core.channel_layer import ResilientRedisChannelLayer, send_to_others
from tests.support.services import require_redis


def _layer() -> ResilientRedisChannelLayer:
    return ResilientRedisChannelLayer(
        hosts=[{"address": require_redis()}], prefix=f"test-{uuid.uuid4().hex[:8]}"
    )


def test_the_asker_gets_no_copy_and_the_other_tabs_get_one() -> None:
    async def go() -> None:
        layer = _layer()
        asker, tab = await layer.new_channel(), await layer.new_channel()
        for channel in (asker, tab):
            await layer.group_add("run-x", channel)
        await send_to_others(layer, "run-x", {"type": "run.frames", "frames": [1]}, asker)
        got = await asyncio.wait_for(layer.receive(tab), 5)
        assert got == {"type": "run.frames", "frames": [1], "origin": asker}
        try:
            await asyncio.wait_for(layer.receive(asker), 1)
        except TimeoutError:
            pass
        else:
            raise AssertionError("the asker received its own frames through Redis")
        await layer.flush()

    async_to_sync(go)()


def test_a_socket_alone_on_its_run_sends_nothing_through_redis() -> None:
    async def go() -> None:
        layer = _layer()
        asker = await layer.new_channel()
        await layer.group_add("run-y", asker)
        assert await layer.group_send_except("run-y", {"type": "run.frames"}, asker) == 0
        assert await layer.group_send_except("nobody-here", {"type": "run.frames"}, asker) == 0
        await layer.flush()

    async_to_sync(go)()
