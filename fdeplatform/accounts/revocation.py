"""Open websockets end when the credential that opened them does.

Rotating an API token or logging out used to leave already-open websockets working. Every run
socket also joins its player's group (``user_group``); revoking a token or ending a session
tells that group which credential died, and each socket opened with it closes (4401) after an
``error`` frame saying why.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def announce_revoked(
    user_id: int, *, token_digests: Iterable[str] = (), session_key: str | None = None
) -> None:
    """Tell the user's open sockets, once the current transaction commits."""
    event = {
        "type": "auth.revoked",
        "token_digests": sorted(token_digests),
        "session_key": session_key,
    }

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(user_group(user_id), event)
        except Exception as exc:  # the revocation itself stands; only the push failed
            log.warning("could not close user %s's open sockets: %s", user_id, exc)

    transaction.on_commit(send)


@receiver(user_logged_out)
def _session_ended(sender: Any, request: Any, user: Any, **_: Any) -> None:
    if user is not None and request is not None and request.session.session_key:
        announce_revoked(user.pk, session_key=request.session.session_key)
