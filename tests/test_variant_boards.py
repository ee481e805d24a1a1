"""Boards over a case's variants (issue 26), end to end through the real services.

Alice plays three counted ranked runs on tiny-variants and hands in the base variant's
reference each time; the assignment gives her the three variants, so by hand (each run
normalised by its own variant's R, baseline 0):

- base (R = 44): x = 44 -> s = 1, uplift 1.
- light-van (10 kg): the 12 kg load breaks the capacity rule -> s = 0, an incident: -1.
- big-fee (R = 30, 15 EUR a line): x = 84 - 4 x 15 = 24 -> s = 0.8, uplift 0.8.

Quality (1 + 0 + 0.8) / 3 = 0.6, DSR 1/3, pass@3 = 1, pass^3 = 0, Gym (1 - 1 + 0.8) / 3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fdeplatform.core.background import drain
from fdeplatform.runs.closing import run_close
from fdeplatform.runs.services import run_start
from fdeplatform.runs.submissions import submission_receive

pytestmark = pytest.mark.django_db(transaction=True)
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "cases" / "tiny-variants"
BASE_REFERENCE = (FIXTURE / "hidden" / "reference.csv").read_bytes()
EXPECTED = {"base": 1.0, "light-van": 0.0, "big-fee": 0.8}


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


@pytest.fixture
def played(db: None, alice: User) -> dict[str, float]:
    from fdeplatform.cases.services import case_import

    case_import(source=FIXTURE, check_anchors=False)
    scores = {}
    for _ in range(3):
        run = run_start(
            player=alice, case_slug="tiny-variants", condition="interact_req", mode="ranked"
        )
        upload = SimpleUploadedFile("load.csv", BASE_REFERENCE, content_type="text/csv")
        submission_receive(run_id=run.pk, player=alice, upload=upload)
        drain()
        run_close(run_id=run.pk, player=alice)
        drain()
        run.refresh_from_db()
        scores[run.variant] = run.score
    return scores


def test_each_variant_is_scored_against_its_own_reference(played: dict[str, float]) -> None:
    assert played == pytest.approx(EXPECTED)


def test_the_board_aggregates_the_case_over_the_variants_played(
    client: Client, played: dict[str, float]
) -> None:
    body = client.get("/api/leaderboard/?case=tiny-variants").json()
    row = {r["config"]: r for r in body["rows"]}["human:alice@interact_req"]
    assert row["runs"] == 3
    assert row["quality"] == pytest.approx((1.0 + 0.0 + 0.8) / 3)
    assert row["dsr"] == pytest.approx(1 / 3)
    assert row["pass_at_k"] == pytest.approx(1.0) and row["pass_hat_k"] == pytest.approx(0.0)
    assert row["gym"] == pytest.approx((1.0 - 1.0 + 0.8) / 3)


def test_the_case_and_analyses_pages_show_per_variant_solve_rates(
    client: Client, played: dict[str, float]
) -> None:
    case_page = client.get("/leaderboard/case/tiny-variants/")
    page = case_page.content.decode()
    assert 'id="variant-rates"' in page
    assert (
        'data-variant="tiny-variants:base"' in page
        and 'data-variant="tiny-variants:light-van"' in page
    )
    analyses = client.get("/leaderboard/analyses/").content.decode()
    assert 'data-variant="tiny-variants:big-fee"' in analyses
