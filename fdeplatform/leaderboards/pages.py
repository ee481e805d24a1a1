"""The computed parts of the board, conditions and analyses pages, shared by the views and
the cache warmer."""

from __future__ import annotations

from typing import Any

from fdeplatform.leaderboards import charts
from fdeplatform.leaderboards.analyses import build_analyses
from fdeplatform.leaderboards.board import Leaderboard, leaderboard
from fdeplatform.leaderboards.case_stats import domain_coverage
from fdeplatform.leaderboards.comparisons import condition_table
from fdeplatform.leaderboards.filters import Filters
from fdeplatform.leaderboards.levels import level_table
from fdeplatform.leaderboards.selectors import case_cells
from fdeplatform.leaderboards.variant_stats import variant_solve_rates


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


def conditions_data(filters: Filters) -> dict[str, Any]:
    """FDE-Bench Table 2 and the FDE-Gym levels table (cached as one value)."""
    cells = case_cells(filters)
    table2 = condition_table(cells)
    chart = charts.figure_json(charts.condition_deltas(table2)) if table2 else ""
    return {"table2": table2, "chart": chart, "levels": level_table(cells)}


def analyses_data(filters: Filters) -> dict[str, Any]:
    """The papers' research questions: RQ2 correlations, coverage by group (cached as one)."""
    analyses = build_analyses(filters)
    shown = [line for line in analyses.correlations if line.correlation.n]
    conditions = {line.condition for line in shown}
    points = [
        row
        for row in analyses.board.ranked
        if row.config.condition in conditions and row.clarification["recall"] is not None
    ]
    chart = charts.figure_json(charts.clarification_quality(points)) if points else ""
    tables = [
        ("By content domain", analyses.domains, "coverage-domains"),
        ("By issue type", analyses.issue_types, "coverage-issues"),
    ]
    return {
        "analyses": analyses,
        "rq2_rows": points,
        "rq2_chart": chart,
        "coverage_tables": tables,
        "variant_rates": variant_solve_rates(filters),
    }
