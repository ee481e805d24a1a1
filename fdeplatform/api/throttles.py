"""DRF's per-user and anonymous throttles, counted atomically and failing open.

DRF's own throttles keep a list of timestamps in the cache and write it back (get, then set):
parallel requests of one client read the same list and each add one, so 16 clients got 885 of
900 requests through a 600/min limit. These count with ``ratelimit.hit`` instead, one Redis
INCR per request, so no more than the limit gets through however many requests race. The
window is fixed rather than sliding (a client may spend one window's allowance at its end and
the next at the start); the 429 says when the current window ends (``Retry-After``).

When Redis is down the API keeps serving (unthrottled) rather than answering every request
with 500: a limit is a courtesy to other players, not a dependency (``hit`` fails open).
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import Rate

log = logging.getLogger(__name__)


class _Counted(SimpleRateThrottle):
    """``allow_request`` on an atomic fixed-window counter; ``wait`` until the window ends."""

    _wait: float | None = None
    num_requests: int | None  # set by SimpleRateThrottle.__init__ from the rate
    duration: int | None

    def allow_request(self, request: Any, view: Any) -> bool:
        count, seconds = self.num_requests, self.duration
        if self.rate is None or not count or not seconds:
            return True
        try:
            key = self.get_cache_key(request, view)
        except Exception as exc:  # e.g. a broken proxy header: never a reason to fail
            log.warning("API throttle skipped: no key for the request (%s)", exc)
            return True
        if key is None:
            return True
        self._wait = ratelimit.hit(f"api-{self.scope}", key, Rate(count, seconds))
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class UserThrottle(_Counted, UserRateThrottle):
    pass


class AnonThrottle(_Counted, AnonRateThrottle):
    pass
