from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.models import Case
from fdeplatform.runs.services import run_ask, run_start


@pytest.mark.django_db
def test_staff_can_review_a_run_with_its_exchanges(
    charlie: User, alice: User, knapsack: Case
) -> None:
    run = run_start(player=alice, case_slug=knapsack.slug, condition="interact_req", mode="ranked")
    run_ask(run_id=run.pk, player=alice, text="How much weight can the van carry now?")
    client = Client()
    client.force_login(charlie)
    charlie.is_superuser = True
    charlie.save()
    assert client.get("/admin/runs/run/").status_code == 200
    page = client.get(f"/admin/runs/run/{run.pk}/change/")
    assert page.status_code == 200 and b"12 kg" in page.content


@pytest.mark.django_db
def test_players_cannot_open_the_admin(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    assert client.get("/admin/runs/run/").status_code == 302
