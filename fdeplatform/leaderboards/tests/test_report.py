"""The run report: who may open it, and what it shows of the run, its result and coverage."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.tests.factories import make_run
from fdeplatform.leaderboards.tests.test_privacy import judged_run
from fdeplatform.runs.models import Run, Submission


@pytest.fixture
def run(knapsack: Case, bob: User) -> Run:
    run = judged_run(knapsack, bob)
    assert run.final_submission is not None
    Submission.objects.filter(pk=run.final_submission.pk).update(
        valid=False,
        score=0.0,
        error_kind="constraint",
        result={"valid": False, "score": 0.0, "error_kind": "constraint",
                "violations": [{"rule": "hazmat_excluded", "message": "Hazmat lines were loaded.",
                                "count": 2, "examples": [{"line": 3}]}],
                "reference_value": 123.456, "internal_log": "secret-log"},
    )  # fmt: skip
    Run.objects.filter(pk=run.pk).update(score=0.0, valid=False)
    return run


def test_the_player_sees_coverage_with_requirements_units_turns_and_judges(
    client: Client, bob: User, run: Run
) -> None:
    client.force_login(bob)
    response = client.get(f"/runs/{run.pk}/report/?reveal=targets")
    html = response.content.decode()
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert "The van now takes 12 kg, not 15 kg." in html  # requirement from the pinned gt.json
    assert "“How much can the van carry?”" in html and "unit 1, turn 1" in html
    assert "First covered in turn 1" in html and "offline-v1 (covered)" in html
    assert html.index("hazmat_excluded") < html.index("capacity_reduced")  # missed ones first


def test_the_report_shows_timeline_and_violations_but_no_reference_value(
    client: Client, bob: User, run: Run
) -> None:
    client.force_login(bob)
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    assert "Hazmat lines were loaded." in html and "2 rows" in html
    assert "Question 1?" in html and "Answer 2." in html and "Submission #1" in html
    assert "123.456" not in html and "secret-log" not in html


def test_staff_may_open_any_ended_report(client: Client, charlie: User, run: Run) -> None:
    client.force_login(charlie)
    assert client.get(f"/runs/{run.pk}/report/").status_code == 200


@pytest.mark.parametrize("status", ["open", "scoring"])
def test_the_report_is_404_until_the_run_has_ended(
    client: Client, bob: User, run: Run, charlie: User, status: str
) -> None:
    Run.objects.filter(pk=run.pk).update(status=status)
    for viewer in (bob, charlie):
        client.force_login(viewer)
        assert client.get(f"/runs/{run.pk}/report/").status_code == 404


def test_others_and_anonymous_get_404(client: Client, alice: User, run: Run) -> None:
    assert client.get(f"/runs/{run.pk}/report/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/runs/{run.pk}/report/").status_code == 404


def test_practice_runs_have_reports_too(client: Client, knapsack: Case, bob: User) -> None:
    practice = make_run(case=knapsack, player=bob, score=1.0, valid=True, mode="practice")
    client.force_login(bob)
    html = client.get(f"/runs/{practice.pk}/report/").content.decode()
    assert "No deliverable was submitted" in html and "This run has not been judged." in html


def test_report_survives_a_missing_package(client: Client, bob: User, db: Any) -> None:
    from fdeplatform.leaderboards.tests.factories import make_case

    case = make_case("gone")
    lost = make_run(case=case, player=bob, score=0.5, valid=True, coverage={"recall": 0.0},
                    items=[{"target": "t1", "covered": False}])  # fmt: skip
    client.force_login(bob)
    html = client.get(f"/runs/{lost.pk}/report/?reveal=targets").content.decode()
    assert "(requirement text unavailable)" in html


def test_targets_wait_until_the_counted_runs_are_done_or_the_player_accepts_the_cost(
    client: Client, bob: User, run: Run
) -> None:
    """Seeing the rules after run 1 of k would make runs 2..k replays: the report asks first."""
    from fdeplatform.runs.models import Exposure

    client.force_login(bob)
    html = client.get(f"/runs/{run.pk}/report/").content.decode()
    assert "The van now takes 12 kg, not 15 kg." not in html
    assert "stay hidden until you have ended" in html and 'href="?reveal=targets"' in html
    assert not Exposure.objects.filter(player=bob).exists()
    revealed = client.get(f"/runs/{run.pk}/report/?reveal=targets").content.decode()
    assert "The van now takes 12 kg, not 15 kg." in revealed
    assert Exposure.objects.filter(player=bob, kind=Exposure.TARGETS).exists()
