"""Scoring exactly once, giving up cleanly, FDE-Gym fields, coverage and re-scoring."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from fdeplatform.cases.models import Case
from fdeplatform.cases.services import case_import
from fdeplatform.core.background import drain
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.models import Run, Submission, SubmissionStatus
from fdeplatform.runs.services import run_ask, run_start
from fdeplatform.runs.submissions import submission_receive
from fdeplatform.scoring.models import Rescore, RunCoverage
from fdeplatform.scoring.rescoring import rescore_queue
from fdeplatform.scoring.services import MAX_ATTEMPTS, submission_score

pytestmark = pytest.mark.django_db(transaction=True)
PACKAGE = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases" / "tiny-knapsack"
REFERENCE = (PACKAGE / "hidden" / "reference.csv").read_bytes()


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


def _submit(run: Run, user: User, content: bytes = REFERENCE) -> Submission:
    return submission_receive(
        run_id=run.pk, player=user, upload=SimpleUploadedFile("d.csv", content)
    )


def _run(user: User, case: Case, mode: str = "practice") -> Run:
    return run_start(player=user, case_slug=case.slug, condition="interact_req", mode=mode)


def test_scoring_twice_stores_one_result(alice: User, knapsack: Case) -> None:
    submission = _submit(_run(alice, knapsack), alice)
    drain()
    first = Submission.objects.get(pk=submission.pk)
    submission_score(submission.pk)  # a redelivered task
    again = Submission.objects.get(pk=submission.pk)
    assert first.status == again.status == SubmissionStatus.SCORED
    assert again.scored_at == first.scored_at and again.attempts == first.attempts == 1


def test_a_submission_that_keeps_failing_ends_as_an_execution_error(
    alice: User, knapsack: Case
) -> None:
    run = _run(alice, knapsack, mode="ranked")
    submission = _submit(run, alice)
    Submission.objects.filter(pk=submission.pk).update(
        status=SubmissionStatus.SCORING, attempts=MAX_ATTEMPTS
    )
    submission_score(submission.pk)
    failed = Submission.objects.get(pk=submission.pk)
    assert failed.status == SubmissionStatus.SCORED and failed.error_kind == "execution"
    assert failed.score == 0.0 and "failed" in failed.result["error_message"]


def test_closing_records_the_gym_score_and_coverage(alice: User, knapsack: Case) -> None:
    run = _run(alice, knapsack, mode="ranked")
    run_ask(
        run_id=run.pk,
        player=alice,
        text="How much weight can the van carry now? What's the weather?",
    )
    _submit(run, alice)
    run_close(run_id=run.pk, player=alice)
    drain()
    run.refresh_from_db()
    assert run.status == "closed" and run.score == pytest.approx(1.0)
    assert run.contact_cost == pytest.approx(0.01)  # one message to Sam at 0.01
    assert run.gym_score == pytest.approx(0.99) and run.resolved is True
    coverage = RunCoverage.objects.get(run=run)
    assert coverage.status == RunCoverage.DONE and coverage.judge
    assert [u["turn"] for u in coverage.units] == [1, 1]
    van = coverage.items.get(target="capacity_reduced")
    assert van.covered and van.first_turn == 1 and van.matched_units == [1]
    assert coverage.recall == pytest.approx(1 / coverage.targets)
    assert coverage.precision == pytest.approx(0.5) and coverage.redundant == 1


def test_a_run_without_questions_has_undefined_precision(alice: User, knapsack: Case) -> None:
    run = _run(alice, knapsack, mode="ranked")
    run_close(run_id=run.pk, player=alice)
    drain()
    coverage = RunCoverage.objects.get(run=run)
    assert coverage.recall == 0.0 and coverage.precision is None and coverage.ask_f1 is None


def test_rescoring_with_a_new_version_keeps_the_original_result(
    alice: User, knapsack: Case, tmp_path: Path
) -> None:
    submission = _submit(_run(alice, knapsack), alice)
    drain()
    original = Submission.objects.get(pk=submission.pk)
    changed = tmp_path / "tiny-knapsack"
    shutil.copytree(PACKAGE, changed)
    (changed / "instruction.md").write_text((changed / "instruction.md").read_text() + "\nv2\n")
    version = case_import(source=changed, check_anchors=False).version
    assert rescore_queue(version=version) == 1
    drain()
    rescore = Rescore.objects.get()
    assert rescore.case_version == version and rescore.score == pytest.approx(1.0)
    after = Submission.objects.get(pk=submission.pk)
    assert after.result == original.result and after.scored_at == original.scored_at
    assert rescore_queue(version=version) == 0  # idempotent


def test_requeue_stale_finishes_work_a_stopped_server_left(alice: User, knapsack: Case) -> None:
    from io import StringIO

    from django.core.management import call_command

    submission = _submit(_run(alice, knapsack, mode="ranked"), alice)
    Submission.objects.filter(pk=submission.pk).update(
        status=SubmissionStatus.QUEUED, queued_at=timezone.now()
    )
    out = StringIO()
    call_command("requeue_stale", stdout=out)
    assert "re-queued 1 submission" in out.getvalue()
    assert Submission.objects.get(pk=submission.pk).status == SubmissionStatus.SCORED


def test_a_judge_that_crashes_leaves_coverage_failed_not_pending(
    alice: User, knapsack: Case, settings: Any
) -> None:
    settings.COVERAGE_JUDGE = "no-such-judge"
    run = _run(alice, knapsack, mode="ranked")
    run_close(run_id=run.pk, player=alice)
    drain()
    coverage = RunCoverage.objects.get(run=run)
    assert coverage.status == RunCoverage.FAILED
    assert "no-such-judge" in coverage.error


def test_staff_can_judge_a_failed_run_again(
    alice: User, charlie: User, knapsack: Case, settings: Any
) -> None:
    from django.test import Client

    settings.COVERAGE_JUDGE = "no-such-judge"
    run = _run(alice, knapsack, mode="ranked")
    run_close(run_id=run.pk, player=alice)
    drain()
    settings.COVERAGE_JUDGE = "offline"
    charlie.is_superuser = True
    charlie.save()
    client = Client()
    client.force_login(charlie)
    coverage = RunCoverage.objects.get(run=run)
    response = client.post(
        "/admin/scoring/runcoverage/", {"action": "judge_again", "_selected_action": [coverage.pk]}
    )
    assert response.status_code == 302
    drain()
    assert RunCoverage.objects.get(run=run).status == RunCoverage.DONE
