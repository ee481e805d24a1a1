"""A player's own practice and tutorial progress, kept apart from their ranked results.

Ranked results are public (``selectors``); practice runs are the player's alone, so only the
profile's owner sees this part. It says per case how many practice runs ended, whether one was
valid, and the best of them as its band ("At or above the reference"), never an exact score
(``runs.presenters.practice_result``). The tutorial is listed first, as on the case list: for a
newcomer it is the only progress there is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Count, Max, Q

from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.filters import ENDED
from fdeplatform.runs.models import Mode, Run
from fdeplatform.runs.presenters import PRACTICE_BAND
from fdeplatform.runs.wording import band_words


@dataclass(frozen=True)
class PracticeLine:
    case: Case
    runs: int
    valid: int
    best: float | None
    last: datetime | None

    @property
    def best_band(self) -> str:
        """The best valid practice score as its band, or "" when none was valid."""
        if self.best is None:
            return ""
        low = math.floor(self.best / PRACTICE_BAND) * PRACTICE_BAND
        return band_words(low, low + PRACTICE_BAND)

    @property
    def done(self) -> bool:
        """The case was done well in practice: a valid plan at or above the reference."""
        return self.best is not None and self.best >= 1.0 - 1e-9


def practice_lines(player: User) -> list[PracticeLine]:
    """The player's ended practice runs per case: the tutorial first, then the latest played."""
    rows = (
        Run.objects.filter(player_id=player.pk, mode=Mode.PRACTICE, status__in=ENDED)
        .order_by()
        .values("case_version__case_id")
        .annotate(
            # Named apart from the fields: an annotation "valid" would shadow Q(valid=True).
            n_runs=Count("pk"),
            n_valid=Count("pk", filter=Q(valid=True)),
            best_score=Max("score", filter=Q(valid=True)),
            last_closed=Max("closed_at"),
        )
    )
    by_case = {row["case_version__case_id"]: row for row in rows}
    cases = Case.objects.in_bulk(list(by_case))
    lines = [
        PracticeLine(
            case=cases[case_id],
            runs=row["n_runs"],
            valid=row["n_valid"],
            best=row["best_score"],
            last=row["last_closed"],
        )
        for case_id, row in by_case.items()
        if case_id in cases
    ]
    lines.sort(key=lambda line: line.last.timestamp() if line.last else 0.0, reverse=True)
    lines.sort(key=lambda line: not line.case.tutorial)  # stable: the tutorial first
    return lines
