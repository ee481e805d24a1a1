"""The run websocket (``/ws/runs/{id}/``): the agent question interface and the browser's chat.

Frames are JSON with a ``type``. Client: ``ask`` {text, id?, to?}, ``status``, ``ping``.
Server: ``answer`` {turn, text, stakeholder, id}, ``status``, ``submission``, ``score``,
``error`` {code, message}, ``pong``. A bad frame gets an ``error`` and the connection stays
open; nothing is stored for a rejected frame. Only a bad token or someone else's run closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from fdeplatform.accounts.models import digest_of
from fdeplatform.accounts.revocation import user_group
from fdeplatform.accounts.ws_auth import token_from_scope
from fdeplatform.core.channel_layer import TRANSIENT, send_to_others
from fdeplatform.core.db_threads import on_db_threads
from fdeplatform.runs.asking import readable_run
from fdeplatform.runs.customer import is_warm, warm_customer
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.events import run_group
from fdeplatform.runs.presenters import exchange_view
from fdeplatform.runs.selectors import run_snapshot
from fdeplatform.runs.services import run_ask_live

MAX_FRAME_BYTES = 16_384
CLOSE_UNAUTHORISED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429
log = logging.getLogger(__name__)


#: Open run sockets per player in this process (``SOCKETS_PER_USER`` caps it; each web
#: process counts its own, so the site-wide cap is that times ``WEB_PROCESSES``).
_open_sockets: Counter[int] = Counter()


def _log_failed_warm_up(task: asyncio.Future[Any]) -> None:
    """A failed warm-up only costs the first question the build, which reports its own error."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("customer warm-up failed: %s", task.exception())


class RunConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' ``dispatch`` without its database housekeeping on every frame.

        Channels first closes stale database connections through the one thread-sensitive
        thread, before each frame and each group message: a thread hop per frame, queued
        behind every other socket of the process. This consumer touches the database only
        through ``on_db_threads``, whose calls close stale connections on their own thread.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        user = self.scope["user"]
        # Counted before the first await: sockets opened one after another must not all pass
        # the check while the earlier ones are still connecting.
        over_cap = not self.scope.get("auth_error") and user.is_authenticated and not self._count()
        await self.accept()
        if self.scope.get("auth_error"):
            await self._fail(
                RunError("bad_token", "The API token is not valid."), CLOSE_UNAUTHORISED
            )
            return
        if over_cap:
            cap = settings.SOCKETS_PER_USER
            await self._fail(
                RunError(
                    "too_many_sockets", f"At most {cap} open sockets per player; close one.", 429
                ),
                CLOSE_TOO_MANY,
            )
            return
        self.run_id = self.scope["url_route"]["kwargs"]["run_id"]
        try:
            run = await on_db_threads(readable_run)(self.run_id, user)
        except RunError as exc:
            if user.is_authenticated:
                await self._fail(exc, CLOSE_NOT_FOUND)
            else:
                await self._fail(
                    RunError("unauthorised", "Log in or pass ?token=<key>.", 401),
                    CLOSE_UNAUTHORISED,
                )
            return
        self.group = run_group(self.run_id)
        self._remember_credential()
        try:  # side by side: two Redis round trips in the time of one
            await asyncio.gather(
                self.channel_layer.group_add(self.group, self.channel_name),
                self.channel_layer.group_add(user_group(user.pk), self.channel_name),
            )
        except TRANSIENT:
            # Questions still work (answered directly); pushed scores need the group.
            await self._error(
                "live_updates_unavailable",
                "Live updates (scores, other tabs) are unavailable for a moment; questions "
                "still work. Reconnect in a few seconds to get them back.",
            )
        await self._send_status()
        # Built once per case version and process; now, so the first question does not wait.
        # In the background: awaited here it held up this socket's disconnect behind another
        # socket's build, and a client that gave up waiting left the socket count raised.
        if not is_warm(run):
            self._warming = asyncio.ensure_future(on_db_threads(warm_customer)(run))
            self._warming.add_done_callback(_log_failed_warm_up)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Uncount the socket however the consumer ends: a server cancelling a consumer (the
        client gave up mid-connect) never calls ``disconnect``."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._uncount()

    def _count(self) -> bool:
        """Count this socket for its player, unless the player is at ``SOCKETS_PER_USER``."""
        user = self.scope["user"].pk
        cap = settings.SOCKETS_PER_USER
        if cap and _open_sockets[user] >= cap:
            return False
        _open_sockets[user] += 1
        self.counted_user = user
        return True

    def _uncount(self) -> None:
        user = self.__dict__.pop("counted_user", None)
        if user is not None:
            _open_sockets[user] -= 1
            if _open_sockets[user] <= 0:
                del _open_sockets[user]

    async def disconnect(self, code: int) -> None:
        self._uncount()
        if hasattr(self, "group"):
            for group in (self.group, user_group(self.scope["user"].pk)):
                with contextlib.suppress(*TRANSIENT):  # the entry expires on its own
                    await self.channel_layer.group_discard(group, self.channel_name)

    def _remember_credential(self) -> None:
        """What opened this socket, so revoking exactly that credential closes it."""
        key = token_from_scope(self.scope)
        self.token_digest = digest_of(key) if key else None
        session = self.scope.get("session")
        self.session_key = None if key else getattr(session, "session_key", None)

    async def auth_revoked(self, event: dict[str, Any]) -> None:
        by_token = self.token_digest is not None and self.token_digest in event["token_digests"]
        by_session = self.session_key is not None and self.session_key == event["session_key"]
        if by_token or by_session:
            what = "API token was replaced" if by_token else "session ended (logged out)"
            await self._fail(
                RunError("revoked", f"Your {what}; reconnect with a valid one.", 401),
                CLOSE_UNAUTHORISED,
            )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if bytes_data is not None or text_data is None:
            await self._error("bad_frame", "Send JSON text frames.")
            return
        if len(text_data.encode("utf-8")) > MAX_FRAME_BYTES:
            await self._error("too_large", f"Frames are limited to {MAX_FRAME_BYTES} bytes.")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self._error("bad_json", "The frame is not valid JSON.")
            return
        if not isinstance(content, dict):
            await self._error("bad_frame", "A frame is a JSON object with a 'type'.")
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        handlers = {"ask": self._ask, "status": self._status, "ping": self._ping}
        handler = handlers.get(str(content.get("type")))
        if handler is None:
            await self._error("unknown_type", "Frame types: ask, status, ping.", content)
            return
        await handler(content)

    async def _ask(self, content: dict[str, Any]) -> None:
        text, to, msg_id = content.get("text"), content.get("to", ""), content.get("id", "")
        if not isinstance(text, str) or not isinstance(to, str) or not isinstance(msg_id, str):
            await self._error(
                "bad_frame",
                "'ask' needs a string 'text' (and optional string 'to', 'id').",
                content,
            )
            return
        await self.send_json({"type": "typing", "id": msg_id})
        try:
            exchange, snapshot = await on_db_threads(run_ask_live)(
                run_id=self.run_id, player=self.scope["user"], text=text, to=to, client_id=msg_id
            )
        except RunError as exc:
            await self._error(exc.code, exc.message, content, retry_after=exc.retry_after)
            return
        frames = [
            {"type": "answer", "id": msg_id, **exchange_view(exchange)},
            {"type": "status", **snapshot},
        ]
        # The asker is answered directly; the run's other tabs (if any) get the same two
        # frames, in this order, through one message each.
        for frame in frames:
            await self.send_json(frame)
        try:
            await send_to_others(
                self.channel_layer,
                self.group,
                {"type": "run.frames", "frames": frames},
                origin=self.channel_name,
            )
        except TRANSIENT as exc:  # the asker has its answer; other tabs can ask for status
            log.warning("run %s: other tabs not told of turn %s (%s)", self.run_id, msg_id, exc)

    async def _status(self, content: dict[str, Any]) -> None:
        await self._send_status()

    async def _ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})

    async def run_frame(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"])

    async def run_frames(self, event: dict[str, Any]) -> None:
        if event.get("origin") == self.channel_name:
            return  # this socket's own question: answered directly already
        for frame in event["frames"]:
            await self.send_json(frame)

    async def _send_status(self) -> None:
        snapshot = await on_db_threads(run_snapshot)(run_id=self.run_id, player=self.scope["user"])
        await self.send_json({"type": "status", **snapshot})

    async def _error(
        self,
        code: str,
        message: str,
        content: dict[str, Any] | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if retry_after is not None:
            frame["retry_after"] = retry_after
        if content and isinstance(content.get("id"), str):
            frame["id"] = content["id"]
        await self.send_json(frame)

    async def _fail(self, error: RunError, close_code: int) -> None:
        await self.send_json({"type": "error", **error.as_dict()})
        await self.close(code=close_code)
