"""Build cases, runs, exchanges, submissions and coverage rows directly with the ORM.

Tests of the leaderboard need exact, hand-computable numbers, so they write the rows a finished
run would have (score, validity, contact costs, coverage metrics) instead of playing runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import User

from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.runs.models import Exchange, Run, Submission, SubmissionStatus
from fdeplatform.scoring.models import RunCoverage, TargetCoverage

DEFAULT_START = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)


def make_case(slug: str, *, family: str = "CO", sector: str = "logistics") -> Case:
    case = Case.objects.create(
        slug=slug, title=slug.replace("-", " ").title(), family=family, sector=sector,
        published=True,
    )  # fmt: skip
    version = CaseVersion.objects.create(
        case=case, version="1.0.0", digest=f"digest-{slug}", storage_dir=f"missing/{slug}"
    )
    case.current_version = version
    case.save(update_fields=["current_version"])
    return case


def user(username: str, *, staff: bool = False) -> User:
    found = User.objects.filter(username=username).first()
    if found is not None:
        return found
    return User.objects.create_user(
        username, f"{username}@example.org", "pw-12345678", is_staff=staff
    )


def make_run(
    *,
    case: Case,
    player: User,
    score: float | None,
    valid: bool | None,
    mode: str = "ranked",
    status: str = "closed",
    condition: str = "interact_req",
    agent: str | None = None,
    costs: Sequence[float] = (),
    coverage: dict[str, Any] | None = None,
    items: Sequence[dict[str, Any]] = (),
    error_kind: str | None = None,
    started_at: datetime = DEFAULT_START,
    incident: bool = False,
) -> Run:
    """A run as it looks after closing; ``agent`` is the label of an agent run (None: human).

    ``Run.contact_cost`` is the sum of ``costs``, as scoring records it when the run ends.

    ``coverage`` holds the RunCoverage fields (status defaults to done); ``items`` the target
    rows; ``error_kind`` adds a scored final submission with that error kind ("" = valid).
    """
    assert case.current_version is not None
    run = Run.objects.create(
        player=player, case_version=case.current_version, condition=condition, mode=mode,
        label=agent or "", is_agent=agent is not None, status=status, score=score, valid=valid,
        started_at=started_at, deadline=started_at + timedelta(hours=12),
        closed_at=started_at + timedelta(hours=1) if status in {"closed", "expired"} else None,
        rounds_used=len(costs), incident=incident, contact_cost=sum(costs),
    )  # fmt: skip
    for turn, cost in enumerate(costs, start=1):
        Exchange.objects.create(
            run=run, turn=turn, question=f"Question {turn}?", answer=f"Answer {turn}.",
            stakeholder="Dana", contact_cost=cost,
        )  # fmt: skip
    if error_kind is not None:
        _final_submission(run, player, score, valid, error_kind)
    if coverage is not None:
        _coverage(run, coverage, items)
    return run


def _final_submission(
    run: Run, player: User, score: float | None, valid: bool | None, error_kind: str
) -> None:
    result = {
        "valid": bool(valid), "score": score or 0.0, "error_kind": error_kind or None,
        "violations": [], "error_message": None, "details": {}, "reference_value": 99.0,
    }  # fmt: skip
    submission = Submission.objects.create(
        run=run, number=1, file=f"submissions/{run.pk}/x", original_name="deliverable.csv",
        size=10, sha256="0" * 64, uploaded_by=player, format_ok=True,
        status=SubmissionStatus.SCORED, result=result, score=score, valid=valid,
        error_kind=error_kind,
    )  # fmt: skip
    run.final_submission = submission
    run.save(update_fields=["final_submission"])


def _coverage(run: Run, fields: dict[str, Any], items: Sequence[dict[str, Any]]) -> None:
    values = {"status": RunCoverage.DONE, "judge": "offline-v1", **fields}
    coverage = RunCoverage.objects.create(run=run, **values)
    for item in items:
        TargetCoverage.objects.create(coverage=coverage, **item)
