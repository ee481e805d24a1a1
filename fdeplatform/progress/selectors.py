"""Reads for player profiles and the activity feed: public results only.

What is public about a player is what the leaderboards already show: their ended ranked runs
(case, condition, score, when) and the run-level clarification numbers. Practice runs are
nobody's business but the player's (they are on "My runs"), and target keys and requirement
texts never leave the run report; per-domain coverage names content domains only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet

from fdeplatform.leaderboards.filters import ENDED
from fdeplatform.leaderboards.privacy import Viewer, may_open_report
from fdeplatform.runs.models import CUSTOMER_CONDITIONS, Mode, Run
from fdeplatform.scoring.models import RunCoverage, TargetCoverage

#: Runs a profile lists (newest first) and plots; results a feed shows.
PROFILE_RUNS = 200
FEED_RESULTS = 50


@dataclass(frozen=True)
class Result:
    """One ended ranked run as public pages show it."""

    run: Run
    #: The run's report, when the viewer may open it ("" otherwise).
    report_url: str

    @property
    def score(self) -> float:
        """A run without a score counts as 0, as on the boards."""
        return self.run.score if self.run.score is not None else 0.0

    @property
    def ended_at(self) -> datetime:
        return self.run.closed_at or self.run.deadline


@dataclass(frozen=True)
class DomainShare:
    """Targets of one content domain the player's judged runs covered, pooled over the runs."""

    domain: str
    covered: int
    judged: int

    @property
    def share(self) -> float:
        return self.covered / self.judged if self.judged else 0.0


def ranked_results() -> QuerySet[Run]:
    return Run.objects.filter(mode=Mode.RANKED, status__in=ENDED).select_related(
        "case_version__case", "player"
    )


def _results(runs: QuerySet[Run], viewer: Viewer) -> list[Result]:
    from django.urls import reverse

    return [
        Result(
            run=run,
            report_url=reverse("run-report", args=[run.pk]) if may_open_report(viewer, run) else "",
        )
        for run in runs
    ]


def player_results(player: User, viewer: Viewer) -> list[Result]:
    """The player's ended ranked runs, newest first (at most ``PROFILE_RUNS``)."""
    runs = ranked_results().filter(player=player).order_by("-closed_at", "-started_at")
    return _results(runs[:PROFILE_RUNS], viewer)


def recent_results(viewer: Viewer, *, limit: int = FEED_RESULTS) -> list[Result]:
    """The latest ended ranked runs of everyone (the activity feed)."""
    runs = ranked_results().exclude(closed_at=None).order_by("-closed_at")
    return _results(runs[:limit], viewer)


def domain_shares(player: User) -> list[DomainShare]:
    """Covered share of targets per content domain over the player's judged ended ranked runs
    under conditions with a customer (under Hidden or Full nobody could be asked)."""
    rows = (
        TargetCoverage.objects.filter(
            coverage__run__player=player,
            coverage__run__mode=Mode.RANKED,
            coverage__run__status__in=ENDED,
            coverage__run__condition__in=CUSTOMER_CONDITIONS,
            coverage__status=RunCoverage.DONE,
            failed=False,
        )
        .order_by()
        .values("domain")
        .annotate(covered=Count("pk", filter=Q(covered=True)), judged=Count("pk"))
    )
    return [
        DomainShare(
            domain=row["domain"] or "unspecified", covered=row["covered"], judged=row["judged"]
        )
        for row in rows
    ]
