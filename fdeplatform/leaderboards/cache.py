"""A cache of computed leaderboards, refreshed whenever results change.

The grouped query is fast, but turning its cells into rows runs a 2,000-resample bootstrap per
row and a Wilcoxon test per condition delta, a few milliseconds each: with a hundred and more
configurations that is most of a second. Results only change when a ranked run ends or its
coverage is (re)judged, so each request reads a cheap *stamp* of the results (one aggregate over
the ranked runs) and reuses whatever was computed for the same stamp and filters. No signal
handlers are needed, so bulk updates elsewhere cannot leave a stale board behind; the timeout
only bounds how long a renamed user or case keeps its old name on the board.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum

from fdeplatform.leaderboards.filters import ranked_ended_runs
from fdeplatform.scoring.models import RunCoverage

T = TypeVar("T")
log = logging.getLogger(__name__)
TIMEOUT_SECONDS = 300
#: Bump when what is cached changes shape, so an old process's entries are never read.
VERSION = 1


def results_stamp() -> str:
    """Changes whenever a ranked run ends, gets scored, or its coverage is judged again."""
    done = Q(coverage__status=RunCoverage.DONE)
    stamp = ranked_ended_runs().aggregate(
        runs=Count("pk"),
        last_closed=Max("closed_at"),
        # Sums catch a run replaced by another that ended earlier (same count, same last time).
        scores=Sum("score"),
        costs=Sum("contact_cost"),
        judged=Count("coverage", filter=done),
        last_judged=Max("coverage__computed_at", filter=done),
    )
    return "|".join(str(value) for value in stamp.values())


def cached(name: str, key: str, stamp: str, build: Callable[[], T]) -> T:
    """``build()`` for (name, key) under ``stamp``, computed once and then reused."""
    digest = hashlib.sha256(f"{VERSION}|{name}|{key}|{stamp}".encode()).hexdigest()
    cache_key = f"leaderboards:{digest}"
    try:
        value: T | None = cache.get(cache_key)
    except Exception as exc:  # the cache is a speed-up, never a dependency (Redis may be down)
        log.warning("leaderboard cache unavailable (%s); computing the board directly", exc)
        return build()
    if value is None:
        value = build()
        try:
            cache.set(cache_key, value, TIMEOUT_SECONDS)
        except Exception as exc:
            log.warning("leaderboard cache unavailable (%s); result not kept", exc)
    return value
