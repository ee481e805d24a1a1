"""Who may learn a case's clarification targets: the one place that decides.

Targets are the hidden half of a case; knowing them turns a clarification exercise into a
checklist. A non-staff user may see a case's target keys (and the transcripts of other players,
whose customer answers spell the targets out) only after ending a run on that case, and never
while they have a run on it that is still open. The second condition matters even for someone
who has seen the targets before: while a run is open, no page or API of ours hands them out, so
the rule "nothing mid-run" holds without exceptions. Staff see everything.

Requirement texts (``hidden/gt.json``) go further: only the run report (to the run's player, see
``report``) and staff exports read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from fdeplatform.leaderboards.filters import ENDED
from fdeplatform.runs.models import Run, RunStatus

Viewer = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class TargetAccess:
    """The cases (by slug) whose targets a viewer may see; ``everything`` for staff."""

    everything: bool
    cases: frozenset[str]

    def allows(self, case_slug: str) -> bool:
        return self.everything or case_slug in self.cases


def is_staff(viewer: Viewer) -> bool:
    return bool(getattr(viewer, "is_staff", False))


def target_access(viewer: Viewer) -> TargetAccess:
    """Which cases' targets ``viewer`` may see now (two small queries for a signed-in player)."""
    if is_staff(viewer):
        return TargetAccess(everything=True, cases=frozenset())
    if not viewer.is_authenticated:
        return TargetAccess(everything=False, cases=frozenset())
    own = Run.objects.filter(player_id=viewer.pk)
    ended = set(_case_slugs(own.filter(status__in=ENDED)))
    # OPEN regardless of the deadline: an overdue run not yet expired is still treated as open.
    still_open = set(_case_slugs(own.filter(status=RunStatus.OPEN)))
    return TargetAccess(everything=False, cases=frozenset(ended - still_open))


def _case_slugs(runs: object) -> list[str]:
    return list(
        runs.values_list("case_version__case__slug", flat=True).distinct()  # type: ignore[attr-defined]
    )


def report_run(viewer: Viewer, run_id: UUID | str) -> Run:
    """The run whose report ``viewer`` asked for, or 404.

    The player sees their own run once it ended; staff see any ended run. Everyone else, and
    anyone while the run is open or still being scored, gets the same 404 as for a run that does
    not exist, so the page does not even confirm that the run is there.
    """
    run = (
        Run.objects.select_related("case_version__case", "player", "coverage")
        .filter(pk=run_id, status__in=ENDED)
        .first()
    )
    if run is None or not (is_staff(viewer) or run.player_id == viewer.pk):
        raise Http404("No such report.")
    return run
