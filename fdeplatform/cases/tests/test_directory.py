"""The staff directory (FDE-Gym): who can be asked, what they speak to, what a message costs —
shown in the workspace and handed to agents, never a stakeholder's facts or replies."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.runs.services import run_start

pytestmark = pytest.mark.django_db


def _script(case: Case) -> dict:  # type: ignore[type-arg]
    assert case.current_version is not None
    path = case.current_version.package_dir / "hidden" / "customer.json"
    return json.loads(path.read_text())


def test_the_workspace_lists_who_can_be_asked(client: Client, alice: User, knapsack: Case) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    client.force_login(alice)
    html = client.get(f"/runs/{run.pk}/").content.decode()
    assert 'id="staff-directory"' in html
    assert "Sam Okafor" in html and "@sam" in html and "Shop owner" in html
    assert "costs 0.010 of the FDE-Gym score" in html
    script = _script(knapsack)
    for fact in script["facts"]:
        assert fact["answer"] not in html  # the directory is people, not what they know
    assert script["stakeholders"][0]["non_answer"] not in html


def test_no_directory_without_a_customer(client: Client, alice: User, knapsack: Case) -> None:
    run = run_start(player=alice, case_slug=knapsack.slug, condition="hidden", mode="practice")
    client.force_login(alice)
    assert 'id="staff-directory"' not in client.get(f"/runs/{run.pk}/").content.decode()


def test_agents_get_the_directory_when_they_start(alice: User, knapsack: Case) -> None:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=alice)}")
    body = api.post(
        "/api/runs/", {"case": knapsack.slug, "condition": "interact", "mode": "practice"},
        format="json",
    ).json()  # fmt: skip
    assert body["stakeholders"] == [
        {"handle": "sam", "name": "Sam Okafor", "role": "Shop owner", "areas": [],
         "contact_cost": 0.01, "default": True}
    ]  # fmt: skip
    hidden = api.post(
        "/api/runs/", {"case": knapsack.slug, "condition": "hidden", "mode": "practice"},
        format="json",
    ).json()  # fmt: skip
    assert "stakeholders" not in hidden
