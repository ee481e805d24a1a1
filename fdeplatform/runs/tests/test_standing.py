"""Which runs count: one ranked run at a time, the first k counted, informed after exposure,
overdue runs expired by the periodic sweep, labels owned by their first account."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.utils import timezone

from fdeplatform.cases.models import Case
from fdeplatform.core.background import drain
from fdeplatform.core.periodic import run_due_jobs
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.errors import RunError
from fdeplatform.runs.models import Exposure, Run, RunStatus
from fdeplatform.runs.services import run_start
from fdeplatform.runs.standing import record_exposure
from fdeplatform.runs.submissions import submission_receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    """Scoring on the in-process pool (drain() waits for it), even where REDIS_URL is set."""
    settings.CELERY_BROKER_URL = ""


def start(player: User, mode: str = "ranked", condition: str = "interact_req", **extra: str) -> Run:
    return run_start(
        player=player, case_slug="tiny-knapsack", condition=condition, mode=mode, **extra
    )


def close(run: Run, player: User) -> None:
    run_close(run_id=run.pk, player=player)
    drain()


def test_no_other_run_on_a_case_while_a_ranked_run_is_open(alice: User, knapsack: Case) -> None:
    ranked = start(alice)
    for mode, condition in (("practice", "interact_req"), ("ranked", "full"), ("practice", "full")):
        with pytest.raises(RunError) as refused:
            start(alice, mode, condition)
        assert refused.value.code == "ranked_run_open" and refused.value.status == 409
    close(ranked, alice)
    start(alice, "practice")  # once it is closed, anything goes


def test_a_ranked_run_waits_for_an_open_practice_run_to_close(alice: User, knapsack: Case) -> None:
    start(alice, "practice")
    with pytest.raises(RunError) as refused:
        start(alice)
    assert refused.value.code == "run_open"


def test_the_first_k_ranked_runs_count_and_later_ones_are_extra(
    alice: User, knapsack: Case
) -> None:
    standings = []
    for _ in range(4):
        run = start(alice)
        standings.append(run.standing)
        close(run, alice)
    assert standings == ["counted", "counted", "counted", "extra"]
    # Another condition is another series of k.
    assert start(alice, condition="hidden").standing == "counted"


def test_a_practice_score_makes_later_ranked_runs_informed(alice: User, knapsack: Case) -> None:
    practice = start(alice, "practice")
    assert knapsack.current_version is not None
    reference = (knapsack.current_version.package_dir / "hidden" / "reference.csv").read_bytes()
    upload = SimpleUploadedFile("deliverable.csv", reference, content_type="text/csv")
    submission_receive(run_id=practice.pk, player=alice, upload=upload)
    drain()
    assert Exposure.objects.filter(player=alice, kind=Exposure.PRACTICE_SCORE).exists()
    close(practice, alice)
    assert start(alice).standing == "informed"


def test_a_full_run_informs_later_ranked_runs_except_full_ones(
    alice: User, bob: User, knapsack: Case
) -> None:
    close(start(alice, "practice", "full"), alice)
    assert start(alice, condition="full").standing == "counted"
    record_exposure(player=bob, case=knapsack, kind=Exposure.TRANSCRIPT)
    assert start(bob).standing == "informed"


def test_an_agent_label_belongs_to_the_account_that_used_it_first(
    alice: User, bob: User, knapsack: Case
) -> None:
    first = start(alice, "practice", label="react / gpt", is_agent=True)  # type: ignore[arg-type]
    second = start(bob, "practice", label="react / gpt", is_agent=True)  # type: ignore[arg-type]
    assert first.board_label == "react / gpt"
    assert second.board_label == "react / gpt [bob]"


@override_settings(CUSTOMER_BACKEND="llm", CUSTOMER_MODEL="glm-5.3", COVERAGE_JUDGE="offline")
def test_a_non_default_customer_is_part_of_the_runs_setup(alice: User, knapsack: Case) -> None:
    run = start(alice, "practice")
    assert run.setup == "customer=llm:glm-5.3 · judge=offline"
    assert run.judge == "offline"


def test_the_periodic_sweep_expires_an_abandoned_ranked_run_as_zero(
    alice: User, knapsack: Case
) -> None:
    run = start(alice)
    Run.objects.filter(pk=run.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    run_due_jobs({}, now=0.0)
    drain()
    run.refresh_from_db()
    assert run.status == RunStatus.EXPIRED and run.ended_by == "deadline"
    assert run.score == 0.0 and run.valid is False and run.standing == "counted"


def test_a_practice_start_warns_before_it_informs_later_ranked_runs(
    alice: User, knapsack: Case
) -> None:
    from fdeplatform.runs.standing import informed_after

    note = informed_after(case=knapsack, condition="interact_req", mode="practice")
    assert note is not None and "informed" in note and knapsack.title in note
    assert informed_after(case=knapsack, condition="full", mode="ranked") is not None
    assert informed_after(case=knapsack, condition="interact_req", mode="ranked") is None
    knapsack.tutorial = True  # a tutorial has no board to spoil
    assert informed_after(case=knapsack, condition="interact_req", mode="practice") is None


def test_the_browser_asks_before_a_practice_start_and_starts_once_confirmed(
    alice: User, knapsack: Case, client: Any
) -> None:
    client.force_login(alice)
    url = f"/cases/{knapsack.slug}/start/"
    asked = client.post(url, {"mode": "practice", "condition": "interact_req"})
    assert asked.status_code == 200 and b"confirm-start" in asked.content
    assert b"informed" in asked.content and not Run.objects.exists()
    started = client.post(
        url, {"mode": "practice", "condition": "interact_req", "confirmed": "yes"}
    )
    assert started.status_code == 302 and Run.objects.count() == 1


def test_the_browser_does_not_ask_a_player_already_informed(
    alice: User, knapsack: Case, client: Any
) -> None:
    record_exposure(player=alice, case=knapsack, kind=Exposure.TARGETS)
    client.force_login(alice)
    started = client.post(f"/cases/{knapsack.slug}/start/", {"mode": "practice"})
    assert started.status_code == 302 and Run.objects.count() == 1
