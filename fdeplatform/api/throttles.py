"""DRF's per-user and anonymous throttles, failing open when the cache is unreachable.

The counts live in the shared cache (Redis). When Redis is down the API should keep serving
(slower, unthrottled) rather than answer every request with 500: a limit is a courtesy to other
players, not a dependency.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

log = logging.getLogger(__name__)


class _FailOpen:
    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return bool(super().allow_request(request, view))  # type: ignore[misc]
        except Exception as exc:
            log.warning("API throttle skipped: the cache is unavailable (%s)", exc)
            return True


class UserThrottle(_FailOpen, UserRateThrottle):
    pass


class AnonThrottle(_FailOpen, AnonRateThrottle):
    pass
