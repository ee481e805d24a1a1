"""Database work of websocket consumers, on a pool of threads rather than Django's one.

``database_sync_to_async`` is thread-sensitive by default: all the consumers of a process
would queue their database work (token checks at connect, questions, status) behind a single
thread. That work holds no thread-bound state (each call opens and commits its own
transaction on its own connection, and ``DatabaseSyncToAsync`` closes stale connections
around every call), so it runs on ``WS_DB_THREADS`` threads: sized to the database
connections a process may hold (``DB_POOL_SIZE``), not to the event loop's default of
cores + 4, which left PostgreSQL connections of the pool idle while questions waited.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

T = TypeVar("T")


def on_db_threads(function: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``function`` as a coroutine function that runs on the websocket database threads."""
    return database_sync_to_async(  # type: ignore[no-any-return]
        function, thread_sensitive=False, executor=_threads()
    )


@functools.cache
def _threads() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=settings.WS_DB_THREADS, thread_name_prefix="ws-db")
