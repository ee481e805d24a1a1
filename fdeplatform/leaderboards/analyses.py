"""The analyses page: the papers' research questions asked of the board's configurations.

- FDE-Bench §5.3 (RQ2): Spearman rho of Recall and of Ask-F1 with Quality across the ranked
  configurations of each condition, with n and p (Holm-adjusted over the page's tests).
- FDE-Bench A.5: Recall by target content domain and by issue type, per configuration.
- FDE-Bench §5.3 / Table 12: question units and unmatched units (Redund.) per judged run.
- FDE-Bench §5.4 (RQ3): the share of the Hidden→Full gap that Interact-Req recovers
  (``comparisons.condition_table``).
- FDE-Gym Table 3: mean score with its interval, uplift before contact cost, contact cost,
  resolved tasks and key facts obtained.

Everything here is counts and means over configurations; no target key is included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fdeplatform.leaderboards.board import Leaderboard, leaderboard
from fdeplatform.leaderboards.case_stats import (
    CoverageStat,
    QuestionStat,
    coverage_by,
    question_stats,
)
from fdeplatform.leaderboards.charts import DOMAIN_ORDER
from fdeplatform.leaderboards.comparisons import ConditionRow, condition_table
from fdeplatform.leaderboards.configs import CONDITIONS, ConfigId
from fdeplatform.leaderboards.facts import FactsStat, facts_obtained
from fdeplatform.leaderboards.filters import Filters
from fdeplatform.leaderboards.rows import Row
from metrics.stats import Correlation, holm, spearman

#: The clarification metrics FDE-Bench RQ2 correlates with Quality, and how the page names them.
RQ2_METRICS = (("recall", "Recall"), ("ask_f1", "Ask-F1"))
#: FDE-Bench's order of the issue types (cases/README.md).
ISSUE_ORDER = ("missing", "ambiguous", "invalidated", "conflicting")
#: Column headings of the coverage tables (unknown groups are shown as stored).
GROUP_LABELS = {
    "scoring_convention": "Scoring conventions",
    "constraint_rule": "Constraint rules",
    "computation_convention": "Computation conventions",
    "data_semantics": "Data semantics",
    "missing": "Missing",
    "ambiguous": "Ambiguous",
    "invalidated": "Invalidated",
    "conflicting": "Conflicting",
}


@dataclass(frozen=True)
class CorrelationLine:
    """Spearman rho of one clarification metric with Quality over one condition's rows."""

    condition: str
    metric: str
    label: str
    correlation: Correlation
    p_holm: float | None = None


def rq2_correlations(rows: Sequence[Row]) -> list[CorrelationLine]:
    """RQ2 per condition over the ranked rows (provisional rows rest on too few runs or cases).

    Conditions are never mixed: a Hidden row has no questions and a low Quality, so pooling it
    with Interact-Req rows would manufacture a correlation. Conditions where no row has a
    Recall (no customer) are left out.
    """
    ranked = [row for row in rows if not row.provisional]
    lines = []
    for condition in CONDITIONS:
        chosen = [row for row in ranked if row.config.condition == condition]
        if all(row.clarification["recall"] is None for row in chosen):
            continue
        quality = [row.quality for row in chosen]
        for metric, label in RQ2_METRICS:
            values = [row.clarification[metric] for row in chosen]
            lines.append(CorrelationLine(condition, metric, label, spearman(values, quality)))
    adjusted = holm([line.correlation.p for line in lines])
    return [
        CorrelationLine(line.condition, line.metric, line.label, line.correlation, p)
        for line, p in zip(lines, adjusted, strict=True)
    ]


@dataclass(frozen=True)
class GroupTable:
    """Covered share of judged targets per configuration (rows) and group (columns)."""

    groups: list[str]
    lines: list[tuple[Row, list[CoverageStat | None]]]

    @property
    def labels(self) -> list[str]:
        return [GROUP_LABELS.get(group, group) for group in self.groups]


def group_table(
    stats: Sequence[CoverageStat], rows: Sequence[Row], order: Sequence[str]
) -> GroupTable:
    """The stats laid out in board order; groups in ``order``, then any others alphabetically."""
    present = {s.group for s in stats}
    groups = [g for g in order if g in present] + sorted(present - set(order))
    found = {(s.config, s.group): s for s in stats}
    lines = [
        (row, [found.get((row.config, g)) for g in groups])
        for row in rows
        if any((row.config, g) in found for g in groups)
    ]
    return GroupTable(groups=groups, lines=lines)


@dataclass(frozen=True)
class GymLine:
    """FDE-Gym Table 3 for one configuration.

    ``uplift`` is the mean incident-adjusted uplift after the floor at -1 and ``contact_cost``
    the mean contact cost, each averaged within a task and then over tasks as the score is, so
    score = uplift - contact cost exactly.
    """

    row: Row
    uplift: float
    contact_cost: float
    facts: FactsStat | None


def gym_lines(rows: Sequence[Row], facts: dict[ConfigId, FactsStat]) -> list[GymLine]:
    return [
        GymLine(
            row=row,
            uplift=sum(c.floored_sum / c.runs for c in row.cells) / len(row.cells),
            contact_cost=sum(c.cost_sum / c.runs for c in row.cells) / len(row.cells),
            facts=facts.get(row.config),
        )
        for row in rows
    ]


@dataclass(frozen=True)
class Analyses:
    board: Leaderboard
    correlations: list[CorrelationLine]
    domains: GroupTable
    issue_types: GroupTable
    questions: list[tuple[Row, QuestionStat]]
    table2: list[ConditionRow]
    gym: list[GymLine]


def build_analyses(filters: Filters) -> Analyses:
    """Every analysis under ``filters`` (the gap section always spans the three conditions)."""
    board = leaderboard(filters)
    questions = question_stats(filters)
    return Analyses(
        board=board,
        correlations=rq2_correlations(board.rows),
        domains=group_table(coverage_by(filters, "domain"), board.rows, DOMAIN_ORDER),
        issue_types=group_table(coverage_by(filters, "issue_type"), board.rows, ISSUE_ORDER),
        questions=[(row, questions[row.config]) for row in board.rows if row.config in questions],
        # The board fetched its cells over every condition, which is what Table 2 compares.
        table2=condition_table(board.all_cells),
        gym=gym_lines(board.rows, facts_obtained(filters)),
    )
