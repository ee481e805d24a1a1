"""Scoring on a real Celery worker and Redis: results arrive over the websocket, exactly once."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from fde_client.api import Client
from websockets.sync.client import connect

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.services import case_import
from fdeplatform.runs.models import Submission, SubmissionStatus
from fdeplatform.runs.services import run_start
from fdeplatform.runs.submissions import submission_receive
from tests.support import processes
from tests.support.frames import wait_for_frame

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def _reference(run_id: str) -> Path:
    """The reference of the variant the run plays (docs/variants.md): a run's data, customer
    and evaluator are its variant's, and the API does not name it while the run is open."""
    from fdeplatform.runs.models import Run

    package = Run.objects.get(pk=run_id).package_dir
    return next((package / "hidden").glob("reference.*"))


def test_reference_of_every_bundled_case_scores_one_over_the_websocket(
    live_url_redis: str, celery_worker: None, alice: User, bundled_cases: list[Any]
) -> None:
    assert bundled_cases, "no bundled cases to score"
    client = Client(live_url_redis, token=agent_token_issue(user=alice))
    for case in bundled_cases:
        run = client.start_run(
            case=case.slug, condition="interact_req", mode="practice", label="ci"
        )
        url = (
            live_url_redis.replace("http://", "ws://")
            + f"/ws/runs/{run['id']}/?token={client.token}"
        )
        with connect(url, origin=live_url_redis, open_timeout=20) as ws:
            wait_for_frame(ws, "status")
            started = time.monotonic()
            client.submit(str(run["id"]), _reference(str(run["id"])))
            frame = wait_for_frame(ws, "score")
        band = frame["submission"]["result"]["score_band"]  # practice: a band, not the score
        print(
            f"CI: {case.slug}: reference scored in the band {band} by the Celery worker, pushed over Redis in {time.monotonic() - started:.2f}s"
        )
        assert band == [1.0, 1.1] and frame["submission"]["result"]["valid"] is True


@pytest.fixture
def slow_case(tmp_path: Path, db: None) -> Any:
    """tiny-knapsack with an evaluator that takes 8 s, long enough to kill a worker mid-way."""
    folder = tmp_path / "tiny-knapsack"
    shutil.copytree(ROOT / "tests" / "fixtures" / "cases" / "tiny-knapsack", folder)
    evaluator = folder / "hidden" / "evaluator.py"
    evaluator.write_text(evaluator.read_text() + "\n\nimport time as _t\n_t.sleep(8)\n")
    return case_import(source=folder, check_anchors=False).version.case


def test_a_killed_worker_loses_nothing_and_scores_once(
    redis_url: str, alice: User, slow_case: Any, settings: Any
) -> None:
    settings.CELERY_BROKER_URL = redis_url
    settings.SCORING_QUEUE = "scoring-fault-test"
    from django.core.files.uploadedfile import SimpleUploadedFile

    run = run_start(
        player=alice, case_slug=slow_case.slug, condition="interact_req", mode="practice"
    )
    env = {"REDIS_URL": redis_url, "SCORING_QUEUE": "scoring-fault-test", "STALE_SCORING_S": "0"}
    processes.purge_queues(redis_url)
    with processes.celery_worker(queues="scoring-fault-test", **env) as first:
        upload = SimpleUploadedFile(
            "d.csv", (ROOT / "tests/fixtures/cases/tiny-knapsack/hidden/reference.csv").read_bytes()
        )
        submission = submission_receive(run_id=run.pk, player=alice, upload=upload)
        _poll(lambda: Submission.objects.get(pk=submission.pk).status == SubmissionStatus.SCORING)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
    killed = Submission.objects.get(pk=submission.pk)
    assert killed.status == SubmissionStatus.SCORING and killed.result is None

    with processes.celery_worker(queues="scoring-fault-test", **env):
        _poll(
            lambda: Submission.objects.get(pk=submission.pk).status == SubmissionStatus.SCORED, 90
        )
        scored = Submission.objects.get(pk=submission.pk)
        time.sleep(3)  # a late redelivery must not store a second result
    again = Submission.objects.get(pk=submission.pk)
    assert again.scored_at == scored.scored_at and again.result == scored.result
    assert scored.score == pytest.approx(1.0) and scored.attempts == 2
    print(
        f"CI: worker killed mid-scoring; submission {scored.pk} scored once after restart (attempts={scored.attempts})"
    )


def _poll(condition: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError("condition not reached in time")


def test_one_players_burst_does_not_hold_up_another_players_upload(
    redis_url: str, alice: User, bob: User, tmp_path: Path, settings: Any
) -> None:
    """Fairness on a real worker: Alice queues four slow uploads, then Bob one; Bob's is
    scored second (right after the job the worker already had), not fifth."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    folder = tmp_path / "tiny-knapsack"
    shutil.copytree(ROOT / "tests" / "fixtures" / "cases" / "tiny-knapsack", folder)
    evaluator = folder / "hidden" / "evaluator.py"
    evaluator.write_text(evaluator.read_text() + "\n\nimport time as _t\n_t.sleep(1.5)\n")
    case = case_import(source=folder, check_anchors=False).version.case
    settings.CELERY_BROKER_URL = redis_url
    settings.SCORING_QUEUE = "scoring-fault-test"
    reference = (folder / "hidden" / "reference.csv").read_bytes()
    runs = {
        player: run_start(
            player=player, case_slug=case.slug, condition="interact_req", mode="practice"
        )
        for player in (alice, bob)
    }

    def upload(player: User) -> Submission:
        file = SimpleUploadedFile("d.csv", reference)
        return submission_receive(run_id=runs[player].pk, player=player, upload=file)

    processes.purge_queues(redis_url)
    env = {"REDIS_URL": redis_url, "SCORING_QUEUE": "scoring-fault-test"}
    alices = [upload(alice) for _ in range(4)]
    bobs = upload(bob)
    with processes.celery_worker(queues="scoring-fault-test", **env):
        _poll(lambda: Submission.objects.filter(status=SubmissionStatus.SCORED).count() == 5, 120)
    order = list(
        Submission.objects.filter(pk__in=[s.pk for s in [*alices, bobs]])
        .order_by("started_at")
        .values_list("pk", flat=True)
    )
    assert order.index(bobs.pk) <= 1, order  # first or second, never behind Alice's backlog
