"""From per-case cells to leaderboard rows, with the papers' metric functions.

The functions in ``metrics`` take runs grouped by case; a cell carries only counts and sums. Each
metric used here depends on its runs through exactly those statistics, so a cell is expanded into
the smallest input with the same statistics: a case's scores become its mean (Quality weighs each
case by its mean), its validity flags become ``valid`` Trues and ``runs - valid`` Falses (pass@k
and pass^k count them), reached-reference flags likewise for DSR. The result is the paper's
value, computed by the same code the paper-number tests check.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from fdeplatform.leaderboards.cells import CLARIFICATION_METRICS, CaseCell, asks_customer
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.leaderboards.intervals import Interval, row_intervals, rows_intervals
from metrics.delivery import GymRun, PassRate, dsr, gym_mean, pass_at_k, pass_hat_k, quality
from metrics.stats import run_mean

#: A configuration needs this many cases before its means are ranked with the others.
MIN_CASES = 3


@dataclass(frozen=True)
class Row:
    """One configuration's line on the leaderboard."""

    config: ConfigId
    runs: int
    cases: int
    quality: float
    dsr: float
    pass_at_k: PassRate
    pass_hat_k: PassRate
    clarification: dict[str, float | None]
    judged: int
    gym: float
    resolved: int
    contact_cost: float
    cells: tuple[CaseCell, ...]
    provisional_reasons: tuple[str, ...]
    #: 95% case-bootstrap interval of each metric (``intervals.INTERVAL_METRICS``).
    intervals: dict[str, Interval]
    rank: int | None = None

    @property
    def provisional(self) -> bool:
        return bool(self.provisional_reasons)

    @property
    def asks_customer(self) -> bool:
        """False under a condition without a customer: its clarification metrics are "n/a"."""
        return asks_customer(self.config.condition)

    @property
    def quality_ci(self) -> Interval:
        return self.intervals["quality"]

    def sort_value(self, key: str) -> float | str | None:
        """The value a ``?sort=`` key orders by (None sorts last either way)."""
        values: dict[str, float | str | None] = {
            "quality": self.quality,
            "dsr": self.dsr,
            "pass_at_k": self.pass_at_k.value,
            "pass_hat_k": self.pass_hat_k.value,
            "gym": self.gym,
            "resolved": self.resolved,
            "runs": self.runs,
            "cases": self.cases,
            "name": f"{self.config.display.lower()} {self.config.condition}",
            **self.clarification,
        }
        return values[key]


def build_rows(cells: Iterable[CaseCell], *, k: int, min_cases: int = MIN_CASES) -> list[Row]:
    """One Row per configuration among ``cells`` (cases in slug order inside each row)."""
    by_config: defaultdict[ConfigId, list[CaseCell]] = defaultdict(list)
    for cell in cells:
        by_config[cell.config].append(cell)
    groups = {config: sorted(group, key=lambda c: c.case) for config, group in by_config.items()}
    intervals = rows_intervals(list(groups.values()), k=k)
    return [
        build_row(config, group, k=k, min_cases=min_cases, intervals=bounds)
        for (config, group), bounds in zip(groups.items(), intervals, strict=True)
    ]


def build_row(
    config: ConfigId,
    cells: Sequence[CaseCell],
    *,
    k: int,
    min_cases: int,
    intervals: dict[str, Interval] | None = None,
) -> Row:
    """One configuration's row; ``intervals`` when ``build_rows`` bootstrapped them in a batch."""
    reached = {c.case: _flags(c.reached, c.runs) for c in cells}
    valid = {c.case: [bool(f) for f in _flags(c.valid, c.runs)] for c in cells}
    return Row(
        config=config,
        runs=sum(c.runs for c in cells),
        cases=len(cells),
        quality=quality({c.case: [c.mean] for c in cells}),
        dsr=dsr(reached),
        pass_at_k=pass_at_k(valid, k),
        pass_hat_k=pass_hat_k(valid, k),
        clarification={m: _pooled(cells, m) for m in CLARIFICATION_METRICS},
        judged=sum(c.judged for c in cells),
        gym=gym_mean(_gym_runs(cells)),
        resolved=sum(1 for c in cells if c.resolved),
        contact_cost=sum(c.cost_sum for c in cells) / sum(c.runs for c in cells),
        cells=tuple(cells),
        provisional_reasons=provisional_reasons(cells, k=k, min_cases=min_cases),
        intervals=intervals if intervals is not None else row_intervals(cells, k=k),
    )


def _flags(hits: int, runs: int) -> list[float]:
    """The shortest run list with ``hits`` successes out of ``runs`` (order does not matter)."""
    return [1.0] * hits + [0.0] * (runs - hits)


def _gym_runs(cells: Sequence[CaseCell]) -> list[GymRun]:
    """One GymRun per case whose floored score is the case's mean floored score.

    gym_mean averages max(adjusted uplift, -1) - cost within a task. The database already applied
    each run's incident and floor (``floored_sum``), so the case enters as one incident-free run
    carrying the means: a mean of values >= -1 is itself >= -1, the floor leaves it unchanged,
    and the task mean comes out exactly as over the individual runs.
    """
    return [
        GymRun(
            task=c.case,
            uplift=c.floored_sum / c.runs,
            incident=False,
            contact_cost=c.cost_sum / c.runs,
        )
        for c in cells
    ]


def _pooled(cells: Sequence[CaseCell], metric: str) -> float | None:
    """Mean over every run where ``metric`` is defined (FDE-Bench A.3; ``average_metrics``)."""
    sums = np.array([c.clarification[metric][0] for c in cells])
    counts = np.array([c.clarification[metric][1] for c in cells], dtype=np.float64)
    value = float(run_mean(sums, counts))
    return None if np.isnan(value) else value


def provisional_reasons(cells: Sequence[CaseCell], *, k: int, min_cases: int) -> tuple[str, ...]:
    """Why a row is not ranked with the others (empty when it is).

    Fewer than k runs on a case leaves that case out of pass@k / pass^k, and a mean over one or
    two cases says little: such rows are shown, marked, and placed after every complete row.
    """
    reasons = []
    short = sum(1 for c in cells if c.runs < k)
    if short:
        reasons.append(f"fewer than {k} runs on {short} case{'s' if short > 1 else ''}")
    if len(cells) < min_cases:
        reasons.append(f"{len(cells)} case{'s' if len(cells) != 1 else ''} (needs {min_cases})")
    return tuple(reasons)


def sort_rows(rows: Iterable[Row], sort: str) -> list[Row]:
    """Rows ordered by ``sort``; provisional rows always after complete ones, then ranks set.

    Undefined values go last in either direction, and ties keep a stable order by name so the
    same data always gives the same table.
    """
    key = sort.lstrip("-")
    descending = sort.startswith("-")
    by_name = sorted(rows, key=lambda r: (r.config.display.lower(), r.config.condition))
    defined = [r for r in by_name if r.sort_value(key) is not None]
    undefined = [r for r in by_name if r.sort_value(key) is None]
    defined.sort(key=lambda r: r.sort_value(key), reverse=descending)  # type: ignore[arg-type,return-value]
    ordered = defined + undefined
    complete = [r for r in ordered if not r.provisional]
    provisional = [r for r in ordered if r.provisional]
    ranked = [_with_rank(row, rank) for rank, row in enumerate(complete, start=1)]
    return ranked + provisional


def _with_rank(row: Row, rank: int) -> Row:
    return replace(row, rank=rank)
