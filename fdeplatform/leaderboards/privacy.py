"""Who may learn a case's clarification targets: the one place that decides.

Targets are the hidden half of a case; knowing them turns a clarification exercise into a
checklist. A non-staff user may see a case's target keys (and the transcripts of other players,
whose customer answers spell the targets out) only once their counted ranked runs on that case
are done (``runs.standing``: k of them, ended), and never while they have a run on it that is
still open. Closing an empty practice run unlocks nothing, except on a tutorial: it has no
ranked runs to earn them with and no board to spoil, so one ended run of any kind opens it. Seeing them is recorded as an
``Exposure``, so any later ranked run of theirs on the case is "informed". Staff see everything.

Requirement texts (``hidden/gt.json``) go further: only the run report (to the run's player, see
``report``) and staff exports read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Count, Q
from django.http import Http404

from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.filters import ENDED
from fdeplatform.runs.models import Mode, Run, RunStatus, Standing
from fdeplatform.runs.standing import counted_runs_per_case, record_exposure

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
    # A tutorial takes practice runs only, so nobody could ever end k counted runs on it; with
    # no board to spoil, its targets open once one run of the player's on it has ended.
    earned = (
        own.filter(status__in=ENDED)
        .filter(Q(standing=Standing.COUNTED) | Q(case_version__case__tutorial=True))
        .values("case_version__case__slug", "case_version__case__tutorial")
        .annotate(n=Count("pk"))
        .filter(Q(n__gte=counted_runs_per_case()) | Q(case_version__case__tutorial=True))
        .values_list("case_version__case__slug", flat=True)
    )
    # OPEN regardless of the deadline: an overdue run not yet expired is still treated as open.
    still_open = set(_case_slugs(own.filter(status=RunStatus.OPEN)))
    return TargetAccess(everything=False, cases=frozenset(set(earned) - still_open))


def record_seen(viewer: Viewer, case: Case, kind: str) -> None:
    """A non-staff player was shown ``kind`` of the case's hidden side (targets, transcripts)."""
    if viewer.is_authenticated and not is_staff(viewer) and isinstance(viewer, User):
        record_exposure(player=viewer, case=case, kind=kind)


def _case_slugs(runs: object) -> list[str]:
    return list(
        runs.values_list("case_version__case__slug", flat=True).distinct()  # type: ignore[attr-defined]
    )


def is_public(run: Run) -> bool:
    """An ended ranked run anyone may open: an agent's, or a human's whose player published it.

    Agent runs are research results, so their pages are public like a paper's appendix; a
    person's run is theirs until they choose otherwise (``Run.published``). What a page shows
    of the hidden side (transcript, verdict, targets) still depends on the viewer
    (``report.build_report``)."""
    return run.mode == Mode.RANKED and run.status in ENDED and (run.is_agent or run.published)


def set_published(run: Run, published: bool) -> None:
    """A human's choice to make an ended ranked run of theirs public, or private again.

    Practice runs never are (they are not results), and agent runs always are once ended."""
    if run.is_agent:
        raise ValueError("Agent runs are public once they end; there is nothing to change.")
    if run.mode != Mode.RANKED or run.status not in ENDED:
        raise ValueError("Only an ended ranked run can be published.")
    run.published = published
    run.save(update_fields=["published"])


def own_unended_run(viewer: Viewer, run_id: UUID | str) -> Run | None:
    """The viewer's own run ``run_id`` while it is still open or being scored, else None.

    Its report does not exist yet; its player (and only its player: everyone else gets
    ``report_run``'s 404) is told that it opens when the run has closed and been scored."""
    if not viewer.is_authenticated:
        return None
    return (
        Run.objects.select_related("case_version__case")
        .filter(pk=run_id, player_id=viewer.pk, status__in=(RunStatus.OPEN, RunStatus.SCORING))
        .first()
    )


def report_run(viewer: Viewer, run_id: UUID | str) -> Run:
    """The run whose report ``viewer`` asked for, or 404.

    The player sees their own run once it ended; staff see any ended run; anyone sees a public
    one (``is_public``). Everyone else, and anyone while the run is open or still being scored,
    gets the same 404 as for a run that does not exist, so the page does not even confirm that
    the run is there.
    """
    run = (
        Run.objects.select_related("case_version__case", "player", "coverage", "final_submission")
        .filter(pk=run_id, status__in=ENDED)
        .first()
    )
    if run is None or not may_open_report(viewer, run):
        raise Http404("No such report.")
    return run


def may_open_report(viewer: Viewer, run: Run) -> bool:
    """Whether ``viewer`` may open the report of ``run``, an ended run (``report_run``'s rule,
    for pages that list runs and link only the reports their viewer can open)."""
    return is_staff(viewer) or run.player_id == viewer.pk or is_public(run)
