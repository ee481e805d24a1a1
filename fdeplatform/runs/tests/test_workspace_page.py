"""The workspace page before any upload: the upload limit, the case's unit for business values,
and the report link (hidden until the run ends; workspace.js shows it live)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from fdeplatform.cases.models import Case
from fdeplatform.runs.models import Run
from fdeplatform.runs.services import run_start

pytestmark = pytest.mark.django_db


def test_the_upload_limit_is_shown_before_the_first_upload(
    client: Client, alice: User, knapsack: Case
) -> None:
    run = run_start(player=alice, case_slug=knapsack.slug, condition="interact_req", mode="ranked")
    client.force_login(alice)
    with override_settings(SUBMISSIONS_PER_RUN=7):
        html = client.get(f"/runs/{run.pk}/").content.decode()
    assert 'Up to 7 uploads in this run (<span id="upload-used">0</span> used)' in html
    assert "each at most 1 MB" in html
    assert 'data-unit="EUR net margin"' in html


def test_the_report_link_waits_for_the_run_to_end(
    client: Client, alice: User, knapsack: Case
) -> None:
    run = run_start(player=alice, case_slug=knapsack.slug, condition="interact_req", mode="ranked")
    client.force_login(alice)
    link = f'id="report-link" href="/runs/{run.pk}/report/" hidden'
    assert link in client.get(f"/runs/{run.pk}/").content.decode()
    Run.objects.filter(pk=run.pk).update(status="closed")
    html = client.get(f"/runs/{run.pk}/").content.decode()
    assert f'id="report-link" href="/runs/{run.pk}/report/" >' in html


def test_my_runs_shows_a_practice_score_as_its_band(client: Client, alice: User) -> None:
    from fdeplatform.leaderboards.tests.factories import make_case, make_run

    case = make_case("alpha")
    make_run(case=case, player=alice, score=0.8125, valid=True, mode="practice")
    make_run(case=case, player=alice, score=0.6875, valid=True)
    client.force_login(alice)
    html = client.get("/runs/").content.decode()
    assert "0.8–0.9 of the reference" in html and "0.8125" not in html  # practice: the band
    assert "0.6875" in html  # an ended ranked run: the exact score
