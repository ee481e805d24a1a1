"""The leaderboard as the page, the API and the exports see it.

The cells are fetched over every condition once (the condition-delta table needs them all) and
the condition filter is applied to them in Python, so one grouped query serves the whole page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fdeplatform.leaderboards.cells import CaseCell
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.leaderboards.filters import Filters
from fdeplatform.leaderboards.rows import Row, build_rows, sort_rows
from fdeplatform.leaderboards.selectors import case_cells


@dataclass(frozen=True)
class Leaderboard:
    filters: Filters
    rows: list[Row]
    #: Cells of every condition under the other filters (for condition deltas and comparisons).
    all_cells: list[CaseCell]

    @property
    def cases(self) -> list[str]:
        return sorted({cell.case for row in self.rows for cell in row.cells})

    @property
    def ranked(self) -> list[Row]:
        return [row for row in self.rows if not row.provisional]

    def row(self, config: ConfigId) -> Row | None:
        return next((row for row in self.rows if row.config == config), None)


def leaderboard(
    filters: Filters,
    *,
    min_cases: int | None = None,
    narrow: Mapping[str, object] | None = None,
) -> Leaderboard:
    """Rows under ``filters``, sorted by ``filters.sort`` with provisional rows last.

    ``narrow`` restricts the runs further with ORM lookups (one participant's page).
    """
    all_cells = case_cells(filters.without_condition(), narrow)
    chosen = [
        c for c in all_cells if not filters.condition or c.config.condition == filters.condition
    ]
    options = {} if min_cases is None else {"min_cases": min_cases}
    rows = sort_rows(build_rows(chosen, k=filters.k, **options), filters.sort)
    return Leaderboard(filters=filters, rows=rows, all_cells=all_cells)
