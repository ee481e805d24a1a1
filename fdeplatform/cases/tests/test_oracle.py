"""The oracle-coverage condition: nested, seeded shares of the registered answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.cases.oracle import LEVELS, chosen_targets

KEYS = [f"t{i}" for i in range(8)]


def test_the_shares_are_nested_seeded_and_in_registry_order() -> None:
    chosen = {
        name: chosen_targets(KEYS, level=level, seed="case") for name, level in LEVELS.items()
    }
    assert [len(chosen[name]) for name in LEVELS] == [0, 2, 4, 6, 8]
    for smaller, larger in zip(list(LEVELS)[:-1], list(LEVELS)[1:], strict=True):
        assert set(chosen[smaller]) <= set(chosen[larger])
    assert chosen["oracle_50"] == sorted(chosen["oracle_50"], key=KEYS.index)
    assert chosen_targets(KEYS, level=0.5, seed="case") == chosen["oracle_50"]
    assert chosen_targets(KEYS, level=0.5, seed="other") != chosen["oracle_50"]


@pytest.mark.django_db
def test_an_oracle_run_gets_its_answers_and_no_customer(alice: User, knapsack: Case) -> None:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=alice)}")
    body = api.post(
        "/api/runs/",
        {"case": "tiny-knapsack", "condition": "oracle_100", "mode": "practice"},
        format="json",
    ).json()
    assert knapsack.current_version is not None
    hidden: Path = knapsack.current_version.package_dir / "hidden"
    script = json.loads((hidden / "customer.json").read_text())
    gt = json.loads((hidden / "gt.json").read_text())
    target_facts = {f for t in gt["targets"] for f in t["facts"]}
    for fact in script["facts"]:
        assert (fact["answer"] in body["information"]) == (fact["key"] in target_facts)
    assert all(t["key"] not in body["information"] for t in gt["targets"])  # no keys
    asked = api.post(f"/api/runs/{body['id']}/questions/", {"text": "Any rules?"}, format="json")
    assert asked.status_code == 409
    none = api.post(
        "/api/runs/",
        {"case": "tiny-knapsack", "condition": "oracle_0", "mode": "practice"},
        format="json",
    ).json()
    assert none["information"].endswith("(none)\n")
