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
    uplift: float | str | None = "same",
    standing: str | None = None,
) -> Run:
    """A run as it looks after closing; ``agent`` is the label of an agent run (None: human).

    ``Run.contact_cost`` is the sum of ``costs``, as scoring records it when the run ends.

    ``coverage`` holds the RunCoverage fields (status defaults to done); ``items`` the target
    rows; ``error_kind`` adds a scored final submission with that error kind ("" = valid).
    ``uplift`` defaults to the score of a valid run (so a test can reason on one number).
    """
    if uplift == "same":
        uplift = score if valid else None
    assert case.current_version is not None
    run = Run.objects.create(
        player=player, case_version=case.current_version, condition=condition, mode=mode,
        label=agent or "", is_agent=agent is not None, status=status, score=score, valid=valid,
        started_at=started_at, deadline=started_at + timedelta(hours=12),
        closed_at=started_at + timedelta(hours=1) if status in {"closed", "expired"} else None,
        rounds_used=len(costs), incident=incident, contact_cost=sum(costs), uplift=uplift,
        board_label=agent or "",
        standing=standing or ("counted" if mode == "ranked" else "practice"),
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


def _cov(recall: float | None, precision: float | None, f1: float | None, kqc1: float | None,
         atc: float | None, redundant: int | None) -> dict[str, Any]:  # fmt: skip
    return {"recall": recall, "precision": precision, "ask_f1": f1, "kqc1": kqc1, "atc": atc,
            "redundant": redundant}  # fmt: skip


def build_standard() -> dict[str, Any]:
    """Three cases, agent bot-a (9 ranked runs + 3 Hidden), humans alice and bob.

    Expected values are worked out by hand in the tests from the numbers written here.
    """
    alpha = make_case("alpha", family="CO", sector="logistics")
    beta = make_case("beta", family="CO", sector="energy")
    gamma = make_case("gamma", family="ML", sector="finance")
    owner, alice, bob = user("botmaker"), user("alice"), user("bob")
    bot = {"player": owner, "agent": "bot-a"}
    make_run(case=alpha, score=1.0, valid=True, costs=[0.05, 0.05],
             coverage=_cov(1.0, 0.5, 2 / 3, 0.5, 1.5, 1), error_kind="", **bot)  # fmt: skip
    make_run(case=alpha, score=0.5, valid=True, costs=[0.05],
             coverage=_cov(0.5, 1.0, 2 / 3, 0.0, 2.0, 0), **bot)  # fmt: skip
    make_run(case=alpha, score=0.0, valid=False,
             coverage=_cov(0.0, None, None, 0.0, None, 0), error_kind="constraint", **bot)  # fmt: skip
    make_run(case=beta, score=1.0, valid=True, costs=[0.1, 0.1, 0.1],
             coverage=_cov(1.0, 1.0, 1.0, 1.0, 1.0, 0), **bot)  # fmt: skip
    make_run(case=beta, score=1.0, valid=True,
             coverage=_cov(1.0, 0.75, 6 / 7, 0.5, 1.5, 1), **bot)  # fmt: skip
    make_run(case=beta, score=0.8, valid=True,
             coverage=_cov(0.5, 0.5, 0.5, 0.25, 3.0, 2), **bot)  # fmt: skip
    make_run(case=gamma, score=0.2, valid=True,
             coverage=_cov(0.25, 0.25, 0.25, 0.0, 4.0, 3), **bot)  # fmt: skip
    make_run(case=gamma, score=0.0, valid=False, status="expired",
             coverage=_cov(0.0, None, None, 0.0, None, 0), **bot)  # fmt: skip
    # Coverage being re-judged keeps stale numbers: they must not count.
    make_run(case=gamma, score=None, valid=False,
             coverage={"status": "pending", **_cov(1.0, 1.0, 1.0, 1.0, 1.0, 0)}, **bot)  # fmt: skip
    for case, score in ((alpha, 0.2), (beta, 0.4), (gamma, 0.0)):
        make_run(case=case, score=score, valid=score > 0, condition="hidden", **bot)
    # Never counted: practice, open, still scoring.
    make_run(case=alpha, score=1.0, valid=True, mode="practice", **bot)
    make_run(case=beta, score=None, valid=None, status="open", **bot)
    make_run(case=gamma, score=1.0, valid=True, status="scoring", **bot)
    make_run(case=alpha, score=0.0, valid=False, mode="practice", player=alice)
    for _ in range(2):
        make_run(case=alpha, score=1.0, valid=True, player=alice)
    early = datetime(2025, 1, 15, 9, 0, tzinfo=UTC)
    for case in (alpha, beta, gamma):
        for _ in range(3):
            start = early if case is gamma else datetime(2025, 3, 2, 9, 0, tzinfo=UTC)
            make_run(case=case, score=0.6, valid=True, player=bob, started_at=start)
    return {"alpha": alpha, "beta": beta, "gamma": gamma, "alice": alice, "bob": bob}
