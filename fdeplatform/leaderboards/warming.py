"""Recompute the default boards in the background as soon as results change.

The board is cached per results stamp (cache.py); without warming, the first visitor after a
run ends pays for the bootstrap of every row (about half a second at 150 configurations).
Scoring and coverage judging call ``results_changed`` after they commit, so visitors normally
find the new board already computed.
"""

from __future__ import annotations

from dataclasses import replace

from celery import shared_task
from django.db import transaction
from django.http import QueryDict

from fdeplatform.core.background import enqueue
from fdeplatform.leaderboards.board import leaderboard
from fdeplatform.leaderboards.cache import cached, results_stamp
from fdeplatform.leaderboards.exports import leaderboard_json
from fdeplatform.leaderboards.filters import filters_from
from fdeplatform.leaderboards.pages import analyses_data, board_page, conditions_data


def results_changed() -> None:
    """Queue a warm-up of the default boards once the current transaction commits."""
    transaction.on_commit(lambda: enqueue(warm_boards, queue="default"))


def warm_default_boards() -> None:
    """The board, its API twin, and the conditions and analyses pages, with default filters:
    the last two run bootstraps and correlations that would otherwise make the first visitor
    after a result wait (their views cache under the same keys)."""
    filters = filters_from(QueryDict(""))
    stamp = results_stamp()
    cached("page", filters.query(), stamp, lambda: board_page(filters))
    cached("api", filters.query(), stamp, lambda: leaderboard_json(leaderboard(filters)))
    across = replace(filters, condition="")
    cached("conditions", across.query(), stamp, lambda: conditions_data(across))
    cached("analyses", filters.query(), stamp, lambda: analyses_data(filters))


@shared_task(name="leaderboards.warm_boards", ignore_result=True)
def warm_boards() -> None:
    warm_default_boards()
