"""FDE-Gym's results by instruction level (§5.2): the mean score per level per participant.

L3 is the original request with the customer to ask, this site's Interact-Req; L0–L2 are the
level conditions of ``cases.levels``. The paper compares levels on the same tasks (its L0→L1
drop is measured on the 20 tasks run at both), so besides each level's mean over the cases it
was played on, a row gives the L0 − L3 difference on the cases played at both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fdeplatform.leaderboards.cells import CaseCell
from fdeplatform.leaderboards.comparisons import case_values, index_cells
from fdeplatform.leaderboards.configs import ConfigId
from fdeplatform.runs.models import Condition

#: Column order, most told first (FDE-Gym Table 1).
LEVEL_COLUMNS: tuple[tuple[str, str], ...] = (
    ("L0", Condition.GYM_L0),
    ("L1", Condition.GYM_L1),
    ("L2", Condition.GYM_L2),
    ("L3", Condition.INTERACT_REQ),
)


@dataclass(frozen=True)
class LevelCell:
    mean: float | None
    cases: int


@dataclass(frozen=True)
class LevelRow:
    participant: tuple[str, str]
    display: str
    levels: dict[str, LevelCell]
    #: Mean of (L0 − L3) over the cases played at both levels, and how many there were.
    told_gain: float | None
    shared_cases: int


def level_table(cells: Sequence[CaseCell]) -> list[LevelRow]:
    """Rows for participants who played at least one of L0–L2 (the gym score, case-macro)."""
    index = index_cells(cells)
    rows: list[LevelRow] = []
    for kind, key in sorted({config.participant for config in index}):
        ids = {level: ConfigId(kind, key, cond) for level, cond in LEVEL_COLUMNS}
        if not any(ids[level] in index for level in ("L0", "L1", "L2")):
            continue
        values = {level: case_values(index, cid, "gym") for level, cid in ids.items()}
        shared = sorted(set(values["L0"]) & set(values["L3"]))
        gain = (
            sum(values["L0"][c] - values["L3"][c] for c in shared) / len(shared) if shared else None
        )
        rows.append(
            LevelRow(
                participant=(kind, key),
                display=ids["L3"].display,
                levels={level: _cell(values[level]) for level, _ in LEVEL_COLUMNS},
                told_gain=gain,
                shared_cases=len(shared),
            )
        )
    return rows


def _cell(values: dict[str, float]) -> LevelCell:
    return LevelCell(mean=sum(values.values()) / len(values) if values else None, cases=len(values))
