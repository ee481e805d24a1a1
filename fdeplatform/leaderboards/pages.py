"""The computed part of the board page, shared by the view and the cache warmer."""

from __future__ import annotations

from typing import Any

from fdeplatform.leaderboards import charts
from fdeplatform.leaderboards.board import Leaderboard, leaderboard
from fdeplatform.leaderboards.case_stats import domain_coverage
from fdeplatform.leaderboards.filters import Filters


def board_page(filters: Filters) -> dict[str, Any]:
    """Everything on the board page that is computed from results (cached as one value)."""
    board = leaderboard(filters)
    return {"board": board, "charts": _board_charts(board)}


def _board_charts(board: Leaderboard) -> dict[str, Any]:
    if not board.rows:
        return {}
    return {
        "scatter": charts.figure_json(charts.recall_quality(board.rows)),
        "domains": charts.figure_json(
            charts.domain_heatmap(domain_coverage(board.filters), board.rows)
        ),
    }
