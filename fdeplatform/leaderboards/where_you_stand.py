"""Where a run stands among the counted runs on its case: "better than 62 % of ranked runs".

A practice site tells a player how their result compares with everyone else's; here the
comparison is with the runs the boards count (ended, counted, ranked, on the case's current
version: the same runs as the case list's solve rate and difficulty, ``board_runs``). It is
said only once there are enough of them to mean something (``MIN_RUNS``), and only from the
score the viewer may see: a practice run compares the bottom of its band, never the exact
score it hides (``runs.presenters.practice_result``).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from django.db.models import F, QuerySet

from fdeplatform.leaderboards.filters import ENDED
from fdeplatform.runs.models import Mode, Run, Standing
from fdeplatform.runs.presenters import PRACTICE_BAND
from metrics.delivery import SCORE_TOLERANCE

#: Fewer counted runs than this and a share of them says more about chance than about skill
#: (the case list rates difficulty from the same number).
MIN_RUNS = 5


def board_runs() -> QuerySet[Run]:
    """Ended counted ranked runs on their case's current version: what the boards count."""
    return Run.objects.filter(
        mode=Mode.RANKED,
        standing=Standing.COUNTED,
        status__in=ENDED,
        case_version=F("case_version__case__current_version"),
    )


@dataclass(frozen=True)
class Position:
    """The run's score against ``runs`` counted runs (the run itself left out)."""

    runs: int
    below: int
    reached: int
    median: float
    #: A practice run compares the bottom of its band: "better than at least".
    at_least: bool = False

    @property
    def better_than(self) -> float:
        return self.below / self.runs


def where_you_stand(run: Run, *, shown_score: float | None) -> Position | None:
    """The run's position, or None when the viewer sees no score or there are too few runs.

    ``shown_score`` is the score as the viewer sees it (None while it is hidden); a practice
    run's is reduced to the bottom of its band here."""
    if shown_score is None and run.mode != Mode.PRACTICE:
        return None
    score = _comparable(run) if run.mode == Mode.PRACTICE else shown_score
    if score is None:
        return None
    others = [
        s or 0.0  # a counted run without a valid upload scores 0
        for s in board_runs()
        .filter(case_version__case_id=run.case_version.case_id)
        .exclude(pk=run.pk)
        .values_list("score", flat=True)
    ]
    if len(others) < MIN_RUNS:
        return None
    return Position(
        runs=len(others),
        below=sum(1 for s in others if s < score - SCORE_TOLERANCE),
        reached=sum(1 for s in others if s >= 1.0 - SCORE_TOLERANCE),
        median=statistics.median(others),
        at_least=run.mode == Mode.PRACTICE,
    )


def _comparable(run: Run) -> float | None:
    """A practice run's score as its band shows it: the band's lower end (0 when invalid)."""
    if run.score is None:
        return None
    if not run.valid:
        return 0.0
    return math.floor(run.score / PRACTICE_BAND) * PRACTICE_BAND
