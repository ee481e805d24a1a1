"""Redis unreachable (a wrong REDIS_URL): the site answers consistently and loses nothing.

A daphne whose REDIS_URL points at a closed port serves an agent through the REST API: the
run starts, questions are answered, the upload is accepted (202, pending), the close succeeds,
the leaderboard renders; nothing answers 500 after committing, so a retrying client never
duplicates work. When the broker is back, the periodic sweep re-sends the pending scoring and
coverage judging, and a real Celery worker finishes both.
"""

from __future__ import annotations

import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from fde_client.api import Client

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.runs.models import Submission, SubmissionStatus
from fdeplatform.scoring.coverage_service import requeue_stale_coverage
from fdeplatform.scoring.models import RunCoverage
from fdeplatform.scoring.services import requeue_stale
from tests.support import processes
from tests.support.services import require_redis

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "redis://127.0.0.1:1/0"


def test_an_outage_answers_consistently_and_the_sweep_finishes_the_work(
    django_db_setup: None, alice: User, knapsack: Case
) -> None:
    require_redis()
    with processes.daphne(unhealthy_ok=True, REDIS_URL=NOWHERE, CELERY_BROKER_URL=NOWHERE) as url:
        client = Client(url, token=agent_token_issue(user=alice))
        run = client.start_run(
            case=knapsack.slug, condition="interact_req", mode="practice", label="o"
        )
        assert client.ask(str(run["id"]), "Which unit is the weight in?")["text"]
        reference = (
            ROOT / "tests" / "fixtures" / "cases" / "tiny-knapsack" / "hidden" / "reference.csv"
        )
        uploaded = client.submit(str(run["id"]), reference)
        assert uploaded["status"] == "queued"
        closed = client.close(str(run["id"]))
        assert closed["status"] in ("closed", "scoring")
        with urllib.request.urlopen(f"{url}/leaderboard/", timeout=30) as page:
            assert page.status == 200
    submission = Submission.objects.get(run_id=run["id"])
    assert submission.status == SubmissionStatus.QUEUED  # committed, waiting for a broker
    assert RunCoverage.objects.get(run_id=run["id"]).status == RunCoverage.PENDING

    redis_url = require_redis()
    processes.purge_queues(redis_url)
    with processes.celery_worker(REDIS_URL=redis_url):
        assert requeue_stale(older_than=timedelta(0)) == 1
        assert requeue_stale_coverage(older_than=timedelta(0)) == 1
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not _finished(submission.pk, run["id"]):
            time.sleep(0.5)
    assert _finished(submission.pk, run["id"])
    assert Submission.objects.get(pk=submission.pk).result["valid"] is True


def _finished(submission_id: int, run_id: str) -> bool:
    scored = Submission.objects.get(pk=submission_id).status == SubmissionStatus.SCORED
    return scored and RunCoverage.objects.get(run_id=run_id).status == RunCoverage.DONE
