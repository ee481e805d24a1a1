"""The run report: what happened in a run, how it scored, and which targets its questions covered.

The only reader of ``hidden/gt.json`` among the leaderboard pages: the caller has already
checked (``privacy.report_run``) that the viewer is the run's player after the run ended, or
staff. Requirement texts come from the run's pinned case version, so a report keeps showing the
targets the run was judged against after the case is updated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fdeplatform.leaderboards.privacy import Viewer, is_staff, record_seen, target_access
from fdeplatform.runs.models import Exchange, Exposure, Run, RunStatus
from fdeplatform.runs.presenters import submission_view
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


def build_report(run: Run, viewer: Viewer, *, reveal: bool = False) -> Report:
    """The report of ``run`` for ``viewer``; ``reveal`` is the player's explicit request to see
    the targets before they earned them (it is recorded, and informs their later ranked runs)."""
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
    )


def _coverage_of(run: Run) -> RunCoverage | None:
    try:
        return run.coverage
    except RunCoverage.DoesNotExist:
        return None


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
    path = run.case_version.package_dir / "hidden" / "gt.json"
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
