"""The run report: what happened in a run, how it scored, and which targets its questions covered.

The only reader of ``hidden/gt.json`` among the leaderboard pages: the caller has already
checked (``privacy.report_run``) that the viewer is the run's player after the run ended, staff,
or anyone for a public run (whose hidden side ``build_report`` withholds until earned). Requirement texts come from the run's pinned case version, so a report keeps showing the
targets the run was judged against after the case is updated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from fdeplatform.cases.editorial import has_editorial
from fdeplatform.leaderboards.privacy import Viewer, is_staff, record_seen, target_access
from fdeplatform.leaderboards.where_you_stand import Position, where_you_stand
from fdeplatform.runs.models import Exchange, Exposure, Run, RunStatus
from fdeplatform.runs.presenters import shown_run_score, submission_view
from fdeplatform.runs.standing import counted_runs_per_case
from fdeplatform.scoring.models import RunCoverage


@dataclass(frozen=True)
class TimelineEntry:
    at: datetime
    exchange: Exchange | None = None
    submission: dict[str, Any] | None = None


@dataclass(frozen=True)
class TargetLine:
    """One clarification target of the run and how it was judged."""

    key: str
    requirement: str
    domain: str
    issue_type: str
    covered: bool
    failed: bool
    first_turn: int | None
    units: list[dict[str, Any]]
    votes: list[dict[str, Any]]

    @property
    def kind(self) -> str:
        """The target's taxonomy in words, for the small print under the requirement
        ("a scoring convention the request left ambiguous"), never the raw keys alone."""
        domain = self.domain.replace("_", " ").strip() or "rule"
        how = _ISSUE_WORDS.get(self.issue_type, self.issue_type.replace("_", " "))
        return f"{domain}, {how}" if how else domain


#: FDE-Bench's issue types, as a newcomer reads them.
_ISSUE_WORDS = {
    "missing": "left out of the request",
    "ambiguous": "ambiguous in the request",
    "invalidated": "no longer true as the request states it",
    "conflicting": "in conflict with another source",
}


@dataclass(frozen=True)
class Report:
    run: Run
    timeline: list[TimelineEntry]
    final: dict[str, Any] | None
    coverage: RunCoverage | None
    targets: list[TargetLine] = field(default_factory=list)
    #: Why the target list is withheld (empty when it is shown).
    targets_withheld: str = ""
    #: The player may still choose to see them (with the consequence stated).
    targets_revealable: bool = False
    #: The viewer is not the run's player nor staff (a public run's page).
    visitor: bool = False
    #: The transcript and verdict are withheld too (a visitor who has not earned them).
    transcript_withheld: bool = False
    #: The case has an editorial and the viewer may read it now (it follows the targets).
    editorial: bool = False
    #: The run's score against the counted runs on its case (None: too few, or no score).
    position: Position | None = None


def build_report(run: Run, viewer: Viewer, *, reveal: bool = False) -> Report:
    """The report of ``run`` for ``viewer``; ``reveal`` is the viewer's explicit request to see
    the hidden side before they earned it (it is recorded, and informs their later ranked runs).

    The run's player and staff see everything but the targets, which the player earns
    (``_EARN_FIRST``). Anyone else is looking at a public run (``privacy.is_public``): the result
    is theirs to see, but the transcript, verdict and targets spell out the case's hidden rules,
    so they follow the same rule as targets and are recorded as a transcript exposure."""
    position = where_you_stand(run, shown_score=shown_run_score(run))
    if is_staff(viewer) or run.player_id == viewer.pk:
        return replace(_full_report(run, viewer, reveal=reveal), position=position)
    withheld, revealable = _visitor_access(run, viewer, reveal=reveal)
    if not withheld:
        return replace(_full_report(run, viewer, reveal=True), visitor=True, position=position)
    final = _result_only(run)
    return Report(
        position=position,
        run=run,
        timeline=[],
        final=final,
        coverage=_coverage_of(run),
        targets_withheld=withheld,
        targets_revealable=revealable,
        visitor=True,
        transcript_withheld=True,
    )


def _full_report(run: Run, viewer: Viewer, *, reveal: bool) -> Report:
    exchanges = list(run.exchanges.order_by("turn"))
    submissions = list(run.submissions.order_by("number"))
    views = {sub.pk: submission_view(sub, run) for sub in submissions}
    timeline = [TimelineEntry(at=e.created_at, exchange=e) for e in exchanges] + [
        TimelineEntry(at=sub.created_at, submission=views[sub.pk]) for sub in submissions
    ]
    timeline.sort(key=lambda entry: entry.at)
    coverage = _coverage_of(run)
    withheld = _withheld_reason(run, viewer)
    revealable = False
    if (
        not withheld
        and not is_staff(viewer)
        and not target_access(viewer).allows(run.case_version.case.slug)
    ):
        if reveal:
            record_seen(viewer, run.case_version.case, Exposure.TARGETS)
        else:
            withheld, revealable = _EARN_FIRST.format(k=counted_runs_per_case()), True
    targets = _target_lines(run, coverage) if coverage is not None and not withheld else []
    return Report(
        run=run,
        timeline=timeline,
        final=views.get(run.final_submission_id) if run.final_submission_id else None,
        coverage=coverage,
        targets=targets,
        targets_withheld=withheld,
        targets_revealable=revealable,
        editorial=not withheld and has_editorial(run.case_version.case.current_version),
    )


def _visitor_access(run: Run, viewer: Viewer, *, reveal: bool) -> tuple[str, bool]:
    """Why a visitor may not see a public run's hidden side ("" when they may), and whether
    they may still choose to; a shown transcript is recorded as an exposure."""
    withheld = _withheld_reason(run, viewer)
    if withheld:
        return withheld, False
    if not viewer.is_authenticated:
        return _SIGN_IN, False
    case = run.case_version.case
    if not (target_access(viewer).allows(case.slug) or reveal):
        return _VISITOR_EARN_FIRST.format(k=counted_runs_per_case()), True
    record_seen(viewer, case, Exposure.TRANSCRIPT)
    return "", False


def _result_only(run: Run) -> dict[str, Any] | None:
    """The final deliverable's outcome without its verdict (violations name hidden rules)."""
    final = run.final_submission
    if final is None:
        return None
    return {
        "number": final.number,
        "name": final.original_name,
        "score": run.score,
        "result": {"valid": bool(run.valid), "score": run.score},
        "status_label": final.get_status_display(),
    }


def _coverage_of(run: Run) -> RunCoverage | None:
    try:
        return run.coverage
    except RunCoverage.DoesNotExist:
        return None


#: A visitor's view of a public run: the result is public, the hidden side is earned.
_SIGN_IN = (
    "The transcript, verdict and targets of a run show the case's hidden rules. Sign in to see "
    "them: seeing them is recorded, so your own later ranked runs on this case count as informed."
)
_VISITOR_EARN_FIRST = (
    "The transcript, verdict and targets of this run show the case's hidden rules. They open "
    "once you have ended {k} counted ranked runs on this case. You can see them now, but then "
    "your later ranked runs on this case are marked informed and stay off the leaderboard."
)

#: Seeing the targets before the counted runs are done would turn the next ranked runs into
#: replays: the report asks first, and a reveal is recorded as an exposure (runs.standing).
_EARN_FIRST = (
    "The targets (the rules the customer had in mind) stay hidden until you have ended {k} "
    "counted ranked runs on this case, so those runs measure what you found out yourself. "
    "You can see them now, but then your later ranked runs on this case are marked informed "
    "and stay off the leaderboard."
)


def _withheld_reason(run: Run, viewer: Viewer) -> str:
    """Targets stay hidden from a player while any run of theirs on this case is open."""
    if is_staff(viewer):
        return ""
    case_id = run.case_version.case_id
    if Run.objects.filter(
        player_id=viewer.pk, case_version__case_id=case_id, status=RunStatus.OPEN
    ).exists():
        return "You have an open run on this case: its targets stay hidden until that run ends."
    return ""


def requirements_of(run: Run) -> dict[str, dict[str, Any]]:
    """Targets of the run's pinned version by key ({} if the stored package lost the file)."""
    path = run.package_dir / "hidden" / "gt.json"
    try:
        targets = json.loads(path.read_text(encoding="utf-8")).get("targets", [])
    except (OSError, ValueError):
        return {}
    return {str(t.get("key")): t for t in targets if isinstance(t, dict)}


def _target_lines(run: Run, coverage: RunCoverage) -> list[TargetLine]:
    gt = requirements_of(run)
    units = {int(u["index"]): u for u in coverage.units if isinstance(u, dict) and "index" in u}
    lines = []
    for item in coverage.items.order_by("target"):
        spec = gt.get(item.target, {})
        lines.append(
            TargetLine(
                key=item.target,
                requirement=str(spec.get("requirement", "")),
                domain=item.domain,
                issue_type=item.issue_type,
                covered=item.covered,
                failed=item.failed,
                first_turn=item.first_turn,
                units=[
                    units.get(i, {"index": i, "turn": None, "text": ""}) for i in item.matched_units
                ],
                votes=list(item.votes),
            )
        )
    # Uncovered first: they are what the player most needs to learn from.
    return sorted(lines, key=lambda line: (line.covered, line.key))


def is_finished(run: Run) -> bool:
    return run.status in {RunStatus.CLOSED, RunStatus.EXPIRED}
