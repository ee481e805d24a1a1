"""FDE-Gym instruction levels: L0 tells the rules and scoring, L1 the scoring only; the customer
stays; being told is seeing the hidden side, and L2 exists only where the author wrote it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.levels import level_brief_md, offered_levels
from fdeplatform.cases.models import Case
from fdeplatform.runs.models import Exposure, Run, Standing

FIXTURE = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases" / "tiny-knapsack"
SCORING = "Earn means margin, not sales price."
RULES = ["The van now takes 12 kg, not 15 kg.", "Hazmat lines may not be loaded."]


def test_l0_tells_rules_and_scoring_l1_only_the_scoring() -> None:
    hidden = FIXTURE / "hidden"
    l0, l1 = level_brief_md(hidden, "gym_l0"), level_brief_md(hidden, "gym_l1")
    assert SCORING in l0 and all(rule in l0 for rule in RULES)
    assert SCORING in l1 and not any(rule in l1 for rule in RULES)
    assert "capacity_reduced" not in l0  # rules in words, never target keys
    assert offered_levels(hidden) == ["gym_l0", "gym_l1"]


def test_l2_is_offered_only_where_the_author_wrote_it(tmp_path: Path) -> None:
    hidden = tmp_path / "hidden"
    shutil.copytree(FIXTURE / "hidden", hidden)
    (hidden / "levels").mkdir()
    (hidden / "levels" / "L2.md").write_text("The real problem is the late vans, not the load.")
    assert offered_levels(hidden) == ["gym_l0", "gym_l1", "gym_l2"]
    assert "late vans" in level_brief_md(hidden, "gym_l2")


def _api(user: User) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=user)}")
    return api


def _start(api: APIClient, condition: str, mode: str = "ranked") -> Any:
    return api.post(
        "/api/runs/",
        {"case": "tiny-knapsack", "condition": condition, "mode": mode, "label": "bot"},
        format="json",
    )


@pytest.mark.django_db
def test_a_level_run_gets_its_brief_and_keeps_the_customer(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    body = _start(api, "gym_l1").json()
    assert SCORING in body["information"] and RULES[0] not in body["information"]
    asked = api.post(f"/api/runs/{body['id']}/questions/", {"text": "Any rules?"}, format="json")
    assert asked.status_code == 200
    run = Run.objects.get(pk=body["id"])
    assert run.standing == Standing.COUNTED  # told is the condition, not a replay
    assert Exposure.objects.filter(player=alice, kind=Exposure.LEVEL_L1).exists()


@pytest.mark.django_db
def test_being_told_the_rules_informs_later_ranked_runs_of_other_conditions(
    alice: User, knapsack: Case
) -> None:
    api = _api(alice)
    first = _start(api, "gym_l0").json()
    api.post(f"/api/runs/{first['id']}/close/", {"confirm": True}, format="json")
    Run.objects.filter(pk=first["id"]).update(status="closed")
    again = Run.objects.get(pk=_start(api, "gym_l0").json()["id"])
    assert again.standing == Standing.COUNTED  # a second L0 run is told the same, no more
    Run.objects.filter(pk=again.pk).update(status="closed")
    later = Run.objects.get(pk=_start(api, "interact_req").json()["id"])
    assert later.standing == Standing.INFORMED


@pytest.mark.django_db
def test_a_level_the_case_does_not_offer_is_refused(alice: User, knapsack: Case) -> None:
    response = _start(_api(alice), "gym_l2", mode="practice")
    assert response.status_code == 400
    assert "does not offer instruction level L2" in response.json()["error"]["message"]
    assert not Run.objects.exists()


@pytest.mark.django_db
def test_the_case_page_offers_the_levels(client: Client, alice: User, knapsack: Case) -> None:
    client.force_login(alice)
    html = client.get("/cases/tiny-knapsack/").content.decode()
    assert 'value="gym_l0"' in html and 'value="gym_l1"' in html and 'value="gym_l2"' not in html
