"""Paired comparisons of configurations by case (FDE-Bench §5.1, A.4, Table 2).

Two configurations are compared on the cases both played: the difference of their case means,
a paired case-bootstrap interval and a two-sided Wilcoxon signed-rank test. When one page makes
several comparisons, their p-values are Holm-corrected together, as the paper does over its
table, so that looking at many pairs does not manufacture a significant one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from fdeplatform.leaderboards.cells import CaseCell
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.runs.models import Condition
from metrics.delivery import quality
from metrics.stats import (
    PairedDifference,
    holm,
    paired_bootstrap_diff,
    paired_case_differences,
    ratio_bootstrap_cis,
    wilcoxon_signed_rank,
)

CellValue = Callable[[CaseCell], float | None]
#: Which per-case value a comparison pairs.
METRICS: dict[str, CellValue] = {
    "quality": lambda cell: cell.mean,
    "gym": lambda cell: cell.gym_mean,
    "recall": lambda cell: cell.clarification_mean("recall"),
}
SIGNIFICANCE = 0.05


def smallest_p(cases: int) -> float:
    """The smallest two-sided p an exact Wilcoxon signed-rank test gives on ``cases`` pairs.

    It is reached when every case differs in the same direction: 2 / 2**n. Below six cases it
    is 0.0625 or more, so no difference can be significant at 0.05, however large.
    """
    return min(1.0, 2.0 / 2**cases) if cases > 0 else 1.0


#: The fewest paired cases with which one test alone can reach p < SIGNIFICANCE (six).
MIN_CASES_FOR_SIGNIFICANCE = next(n for n in range(1, 64) if smallest_p(n) < SIGNIFICANCE)


@dataclass(frozen=True)
class CaseDifference:
    case: str
    a: float | None
    b: float | None

    @property
    def difference(self) -> float | None:
        return None if self.a is None or self.b is None else self.a - self.b


@dataclass(frozen=True)
class Comparison:
    """A - B on their shared cases; ``p_holm`` is set once the family of tests is known."""

    a: ConfigId
    b: ConfigId
    per_case: tuple[CaseDifference, ...]
    difference: PairedDifference | None
    p: float | None
    p_holm: float | None = None
    #: How many tests were Holm-corrected together with this one.
    family: int = 1

    @property
    def significant(self) -> bool:
        return self.p_holm is not None and self.p_holm < SIGNIFICANCE

    @property
    def cases(self) -> int:
        return self.difference.cases if self.difference is not None else 0

    @property
    def too_few_cases(self) -> bool:
        """No outcome on this many shared cases could be significant after Holm's correction."""
        return not self.significant and self.family * smallest_p(self.cases) >= SIGNIFICANCE


CellIndex = dict[ConfigId, list[CaseCell]]


def index_cells(cells: Iterable[CaseCell]) -> CellIndex:
    """Cells by configuration, each list in case order (built once per page, not per lookup)."""
    index: CellIndex = {}
    for cell in sorted(cells, key=lambda c: c.case):
        index.setdefault(cell.config, []).append(cell)
    return index


def case_values(cells: CellIndex, config: ConfigId, metric: str) -> dict[str, float]:
    """{case: value} of one configuration, in case order, cases with an undefined value left out."""
    value = METRICS[metric]
    return {c.case: v for c in cells.get(config, []) if (v := value(c)) is not None}


def compare(cells: CellIndex, a: ConfigId, b: ConfigId, metric: str) -> Comparison:
    """One paired comparison (uncorrected p; see ``holm_corrected``)."""
    a_values = case_values(cells, a, metric)
    b_values = case_values(cells, b, metric)
    per_case = tuple(
        CaseDifference(case, a_values.get(case), b_values.get(case))
        for case in sorted(set(a_values) | set(b_values))
    )
    a_runs = {case: [value] for case, value in a_values.items()}
    b_runs = {case: [value] for case, value in b_values.items()}
    differences = paired_case_differences(a_runs, b_runs)
    differences = differences[~np.isnan(differences)]
    return Comparison(
        a=a,
        b=b,
        per_case=per_case,
        difference=paired_bootstrap_diff(a_runs, b_runs),
        p=wilcoxon_signed_rank(list(differences)) if differences.size else None,
    )


def holm_corrected(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """The comparisons with Holm-adjusted p-values over the whole family."""
    adjusted = holm([c.p for c in comparisons])
    family = sum(p is not None for p in adjusted) or 1
    return [replace(c, p_holm=p, family=family) for c, p in zip(comparisons, adjusted, strict=True)]


def compare_many(
    cells: Sequence[CaseCell], a: ConfigId, others: Sequence[ConfigId], metric: str = "quality"
) -> list[Comparison]:
    """A against each of ``others`` (e.g. a vs b1, b2), Holm-corrected together."""
    index = index_cells(cells)
    return holm_corrected([compare(index, a, b, metric) for b in others])


@dataclass(frozen=True)
class GapRecovered:
    """The share of the Hidden→Full Quality gap that Interact-Req recovers (FDE-Bench §5.4).

    (Q_interact_req − Q_hidden) / (Q_full − Q_hidden) on the ``cases`` played under all three
    conditions, each Q the case-macro Quality on those cases (the paper's Table 2 is on paired
    cases too). Undefined (``value`` None) when Full does not beat Hidden (denominator ≤ 0):
    there is no gap to recover. The interval is the case bootstrap of the same ratio, dropping
    resamples whose gap is ≤ 0. Above 1, asking did better than being told everything.
    """

    cases: int
    hidden: float
    interact_req: float
    full: float
    interval: tuple[float, float] | None

    @property
    def value(self) -> float | None:
        gap = self.full - self.hidden
        return (self.interact_req - self.hidden) / gap if gap > 0 else None


def gap_recovered(cells: CellIndex, ids: dict[str, ConfigId]) -> GapRecovered | None:
    """The gap recovered by one participant; None unless some case has all three conditions."""
    values = {cond: case_values(cells, ids[cond], "quality") for cond in TABLE2}
    shared = sorted(set.intersection(*(set(v) for v in values.values())))
    if not shared:
        return None
    hidden, asked, full = (
        np.array([values[cond][case] for case in shared])
        for cond in (Condition.HIDDEN, Condition.INTERACT_REQ, Condition.FULL)
    )
    (interval,) = ratio_bootstrap_cis([asked - hidden], [full - hidden])
    return GapRecovered(
        cases=len(shared),
        hidden=float(hidden.mean()),
        interact_req=float(asked.mean()),
        full=float(full.mean()),
        interval=interval,
    )


@dataclass(frozen=True)
class ConditionRow:
    """FDE-Bench Table 2 for one participant: Quality per condition and the two deltas.

    Δreq = Interact-Req - Hidden (what asking recovers), Δremain = Full - Interact-Req (what
    asking still leaves on the table); ``recovered``: the share of the Hidden→Full gap that
    Interact-Req recovers, when the three conditions share cases.
    """

    participant: tuple[str, str]
    display: str
    quality: dict[str, float | None]
    req: Comparison | None
    remain: Comparison | None
    recovered: GapRecovered | None = None

    @property
    def deltas(self) -> tuple[Comparison | None, Comparison | None]:
        return (self.req, self.remain)


TABLE2: tuple[str, ...] = (Condition.HIDDEN, Condition.INTERACT_REQ, Condition.FULL)


def condition_table(cells: Sequence[CaseCell]) -> list[ConditionRow]:
    """Table 2 rows for participants who played at least two of the three conditions."""
    index = index_cells(cells)
    participants = sorted({config.participant for config in index})
    rows: list[ConditionRow] = []
    for kind, key in participants:
        ids = {cond: ConfigId(kind, key, cond) for cond in TABLE2}
        played = {cond for cond, cid in ids.items() if cid in index}
        if len(played) < 2:
            continue
        rows.append(
            ConditionRow(
                participant=(kind, key),
                display=ids[Condition.HIDDEN].display,
                quality={cond: _quality(index, ids[cond]) for cond in TABLE2},
                req=_delta(index, ids, played, Condition.INTERACT_REQ, Condition.HIDDEN),
                remain=_delta(index, ids, played, Condition.FULL, Condition.INTERACT_REQ),
                recovered=gap_recovered(index, ids) if len(played) == len(TABLE2) else None,
            )
        )
    return _holm_over_table(rows)


def _quality(cells: CellIndex, config: ConfigId) -> float | None:
    values = case_values(cells, config, "quality")
    return quality({case: [value] for case, value in values.items()}) if values else None


def _delta(
    cells: CellIndex, ids: dict[str, ConfigId], played: set[str], a: str, b: str
) -> Comparison | None:
    if a not in played or b not in played:
        return None
    return compare(cells, ids[a], ids[b], "quality")


def _holm_over_table(rows: list[ConditionRow]) -> list[ConditionRow]:
    family = [c for row in rows for c in (row.req, row.remain) if c is not None]
    corrected = iter(holm_corrected(family))
    out = []
    for row in rows:
        req = next(corrected) if row.req is not None else None
        remain = next(corrected) if row.remain is not None else None
        out.append(replace(row, req=req, remain=remain))
    return out
