"""The case table as a problem site shows it: difficulty, targets, solve rate, the viewer's best.

Everything is aggregated in the database: one query for the cases, one for the solve rates of
all of them, one for the signed-in viewer's own results, however many cases and runs there are.
Only the number of targets of a case is shown, never a key or a requirement.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Q

from fdeplatform.cases.models import Case
from fdeplatform.cases.selectors import published_cases
from fdeplatform.leaderboards.filters import ENDED
from fdeplatform.leaderboards.privacy import Viewer
from fdeplatform.leaderboards.where_you_stand import MIN_RUNS, board_runs
from fdeplatform.runs.models import Mode, Run
from metrics.delivery import SCORE_TOLERANCE

#: A case is rated once this many counted ranked runs have ended on its current version.
MIN_RUNS_FOR_DIFFICULTY = MIN_RUNS
#: Solve-rate thresholds: at least EASY is easy, at least MEDIUM medium, below it hard.
EASY, MEDIUM = 0.5, 0.2
REACHED = Q(score__gte=1.0 - SCORE_TOLERANCE)


@dataclass(frozen=True)
class CaseLine:
    """One case of the table; ``best`` and ``solved`` are the viewer's (None when signed out)."""

    case: Case
    targets: int
    runs: int
    reached: int
    best: float | None = None
    solved: bool | None = None

    @property
    def solve_rate(self) -> float | None:
        """Share of the counted ranked runs on the current version that reached the reference."""
        return self.reached / self.runs if self.runs else None

    @property
    def difficulty(self) -> str:
        """easy / medium / hard from the solve rate, or "unrated" on too few runs."""
        rate = self.solve_rate
        if rate is None or self.runs < MIN_RUNS_FOR_DIFFICULTY:
            return "unrated"
        return "easy" if rate >= EASY else "medium" if rate >= MEDIUM else "hard"


def case_lines(viewer: Viewer) -> list[CaseLine]:
    """The published cases in list order, each with its statistics and the viewer's marks."""
    cases = list(published_cases())
    rates = {
        row["case_version__case_id"]: row
        for row in board_runs()
        .order_by()
        .values("case_version__case_id")
        .annotate(runs=Count("pk"), reached=Count("pk", filter=REACHED))
    }
    own = _own_best(viewer)
    lines = []
    for case in cases:
        version = case.current_version
        stats = rates.get(case.pk, {})
        best = own.get(case.pk)
        lines.append(
            CaseLine(
                case=case,
                targets=version.target_count if version is not None else 0,
                runs=stats.get("runs", 0),
                reached=stats.get("reached", 0),
                best=best,
                solved=None
                if not viewer.is_authenticated
                else best is not None and best >= 1.0 - SCORE_TOLERANCE,
            )
        )
    return lines


def _own_best(viewer: Viewer) -> dict[int, float]:
    """The viewer's best score per case over their ended ranked runs (any version, any standing).

    Practice runs stay out: their exact score is never shown (``runs.presenters``)."""
    if not viewer.is_authenticated:
        return {}
    rows = (
        Run.objects.filter(player_id=viewer.pk, mode=Mode.RANKED, status__in=ENDED)
        .order_by()
        .values("case_version__case_id")
        .annotate(best=Max("score"))
    )
    return {row["case_version__case_id"]: row["best"] for row in rows if row["best"] is not None}


@dataclass(frozen=True)
class CaseFilter:
    """The list's family and sector filter, from the query string; a value no case has is
    ignored (a stale link shows every case rather than an empty table)."""

    family: str = ""
    sector: str = ""
    families: tuple[str, ...] = ()
    sectors: tuple[str, ...] = ()

    @classmethod
    def of(cls, lines: list[CaseLine], query: dict[str, str]) -> CaseFilter:
        families = tuple(sorted({line.case.family for line in lines if line.case.family}))
        sectors = tuple(sorted({line.case.sector for line in lines if line.case.sector}))
        family = query.get("family", "")
        sector = query.get("sector", "")
        return cls(
            family=family if family in families else "",
            sector=sector if sector in sectors else "",
            families=families,
            sectors=sectors,
        )

    @property
    def active(self) -> bool:
        return bool(self.family or self.sector)

    def apply(self, lines: list[CaseLine]) -> list[CaseLine]:
        return [
            line
            for line in lines
            if (not self.family or line.case.family == self.family)
            and (not self.sector or line.case.sector == self.sector)
        ]
