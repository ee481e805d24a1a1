"""Which runs count, end to end through the real services, on both papers' scales.

tiny-restock minimises cost with R = 1378 and B = 2060 (its do-nothing plan). Ada plays four
ranked runs: the reference (x = 1378), a shortcut (x = 2093) followed by a malformed upload that
must not replace it, a run she abandons (expired by the periodic sweep), and a fourth run that
comes after her first three and so is extra. Bea scores a practice upload first, so her ranked
run is informed. By hand:

- Quality (FDE-Bench, ratio R/x): 1378/1378 = 1, 1378/2093 = 0.658385..., 0 (expired) -> mean
  0.552795; DSR 1/3; pass@3 = 1 (a valid run among three), pass^3 = 0.
- FDE-Gym uplift (x - B)/(R - B): 1, (2093 - 2060)/(1378 - 2060) = -0.048387, 0 (nothing
  delivered) -> gym mean 0.317204 (no contact cost), resolved tasks 0 (the task mean < 0.8).
- The extra and the informed runs are not on the main board; the informed one is on the
  informed board.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from fdeplatform.core.background import drain
from fdeplatform.core.periodic import run_due_jobs
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.models import Run
from fdeplatform.runs.services import run_start
from fdeplatform.runs.submissions import submission_receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    """Scoring on the in-process pool (drain() waits for it), even where REDIS_URL is set."""
    settings.CELERY_BROKER_URL = ""


FIXTURE = Path(__file__).resolve().parent / "fixtures" / "cases" / "tiny-restock"
REFERENCE = (FIXTURE / "hidden" / "reference.json").read_bytes()
SHORTCUT = (FIXTURE / "hidden" / "anchors" / "shortcut-one-case-each.json").read_bytes()


@pytest.fixture
def restock(db: None) -> Any:
    from fdeplatform.cases.services import case_import

    return case_import(source=FIXTURE, check_anchors=False).version.case


def ranked(player: User) -> Run:
    return run_start(
        player=player, case_slug="tiny-restock", condition="interact_req", mode="ranked"
    )


def upload(run: Run, player: User, content: bytes) -> None:
    file = SimpleUploadedFile("plan.json", content, content_type="application/json")
    submission_receive(run_id=run.pk, player=player, upload=file)
    drain()


def close(run: Run, player: User) -> None:
    run_close(run_id=run.pk, player=player)
    drain()


def board(client: Client, **query: str) -> dict[str, dict[str, Any]]:
    params = "&".join(f"{k}={v}" for k, v in {"case": "tiny-restock", **query}.items())
    body = client.get(f"/api/leaderboard/?{params}").json()
    return {row["config"]: row for row in body["rows"]}


def test_every_planned_run_counts_once_on_both_scales(
    client: Client, restock: Any, alice: User, bob: User
) -> None:
    first = ranked(alice)
    upload(first, alice, REFERENCE)
    close(first, alice)
    second = ranked(alice)
    upload(second, alice, SHORTCUT)
    upload(second, alice, b'{"not": "a plan"}')  # fails the format check
    close(second, alice)
    third = ranked(alice)
    Run.objects.filter(pk=third.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    run_due_jobs({}, now=0.0)  # the periodic sweep, as the beat or the upkeep thread runs it
    drain()
    extra = ranked(alice)
    upload(extra, alice, REFERENCE)
    close(extra, alice)

    practice = run_start(
        player=bob, case_slug="tiny-restock", condition="interact_req", mode="practice"
    )
    upload(practice, bob, REFERENCE)
    close(practice, bob)
    informed = ranked(bob)
    upload(informed, bob, REFERENCE)
    close(informed, bob)

    standings = [r.standing for r in Run.objects.filter(player=alice).order_by("started_at")]
    assert standings == ["counted", "counted", "counted", "extra"]
    second.refresh_from_db()
    assert second.final_submission is not None and second.final_submission.number == 1
    assert second.score == pytest.approx(1378 / 2093)
    assert second.uplift == pytest.approx((2093 - 2060) / (1378 - 2060))

    rows = board(client)
    assert set(rows) == {"human:alice@interact_req"}  # no extra run, no informed run
    row = rows["human:alice@interact_req"]
    assert row["runs"] == 3
    assert row["quality"] == pytest.approx((1 + 1378 / 2093 + 0) / 3)
    assert row["dsr"] == pytest.approx(1 / 3)
    assert row["pass_at_k"] == pytest.approx(1.0) and row["pass_hat_k"] == pytest.approx(0.0)
    assert row["gym"] == pytest.approx((1 + (2093 - 2060) / (1378 - 2060) + 0) / 3)
    assert row["resolved"] == 0

    informed_rows = board(client, standing="informed")
    assert set(informed_rows) == {"human:bob@interact_req"}
    assert informed_rows["human:bob@interact_req"]["quality"] == pytest.approx(1.0)
