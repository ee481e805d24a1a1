"""A player with an open run on a case cannot learn its targets from any page or API.

Target keys and requirement texts of the tiny-knapsack fixture are looked for in every response
a player can get; positive controls show the same responses do carry them for a player who has
ended a run on the case (and for staff), so the absence is not an accident of the fixture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.tests.factories import make_run
from fdeplatform.runs.models import Exposure, Run

GT = json.loads(
    (Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases" / "tiny-knapsack"
     / "hidden" / "gt.json").read_text()
)["targets"]  # fmt: skip
KEYS = [t["key"] for t in GT]
REQUIREMENTS = [t["requirement"] for t in GT]
SECRETS = KEYS + REQUIREMENTS


def _units() -> list[dict[str, Any]]:
    return [
        {"index": 1, "turn": 1, "text": "How much can the van carry?"},
        {"index": 2, "turn": 2, "text": "Is there a fee per line?"},
    ]


def _items() -> list[dict[str, Any]]:
    votes = [{"judge": "offline-v1", "covered": True, "units": [1], "error": None}]
    return [
        {"target": t["key"], "domain": t["domain"], "issue_type": t["issue_type"],
         "covered": i == 0, "matched_units": [1] if i == 0 else [], "first_turn": 1 if i == 0 else None,
         "votes": votes if i == 0 else []}
        for i, t in enumerate(GT)
    ]  # fmt: skip


def judged_run(case: Case, player: User, **extra: Any) -> Run:
    coverage = {"targets": 5, "covered": 1, "recall": 0.2, "precision": 0.5, "ask_f1": 2 / 7,
                "kqc1": 0.2, "atc": 1.0, "redundant": 1, "units": _units()}  # fmt: skip
    return make_run(case=case, player=player, score=0.7, valid=True, costs=[0.01, 0.01],
                    coverage=coverage, items=_items(), error_kind="", **extra)  # fmt: skip


@pytest.fixture
def played(knapsack: Case, alice: User, bob: User) -> dict[str, Any]:
    bob_runs = [judged_run(knapsack, bob) for _ in range(3)]
    open_run = make_run(case=knapsack, player=alice, score=None, valid=None, status="open")
    return {"bob_run": bob_runs[0], "open_run": open_run}


def _pages(case: Case, played: dict[str, Any]) -> list[str]:
    bob_run, open_run = played["bob_run"].pk, played["open_run"].pk
    return [
        "/leaderboard/",
        f"/leaderboard/?case={case.slug}",
        f"/leaderboard/case/{case.slug}/",
        "/leaderboard/config/human/bob/",
        "/leaderboard/conditions/",
        "/leaderboard/compare/?a=human:bob@interact_req&b=human:alice@interact_req",
        "/api/leaderboard/",
        "/api/leaderboard/export.csv",
        "/api/runs/export.json",
        "/api/runs/export.csv",
        f"/cases/{case.slug}/",
        f"/runs/{bob_run}/report/",
        f"/runs/{open_run}/report/",
        f"/api/runs/{bob_run}/",
        f"/api/runs/{open_run}/",
    ]


def _body(client: Client, url: str) -> str:
    response = client.get(url)
    content = b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
    return content.decode()


def _leaks(client: Client, urls: list[str]) -> dict[str, list[str]]:
    found = {url: [s for s in SECRETS if s in _body(client, url)] for url in urls}
    return {url: secrets for url, secrets in found.items() if secrets}


def test_player_with_an_open_run_learns_no_target(
    client: Client, knapsack: Case, alice: User, played: dict[str, Any]
) -> None:
    client.force_login(alice)
    assert _leaks(client, _pages(knapsack, played)) == {}


def test_an_open_run_report_only_says_when_it_opens_and_others_reports_are_404(
    client: Client, knapsack: Case, alice: User, played: dict[str, Any]
) -> None:
    client.force_login(alice)
    own = client.get(f"/runs/{played['open_run'].pk}/report/")
    assert (
        own.status_code == 200 and "This report opens when the run closes" in own.content.decode()
    )
    assert _leaks(client, [f"/runs/{played['open_run'].pk}/report/"]) == {}
    assert client.get(f"/runs/{played['bob_run'].pk}/report/").status_code == 404


def test_anonymous_visitors_learn_no_target(
    client: Client, knapsack: Case, played: dict[str, Any]
) -> None:
    assert _leaks(client, _pages(knapsack, played)) == {}


def test_a_closed_run_does_not_unlock_targets_while_another_is_open(
    client: Client, knapsack: Case, alice: User, played: dict[str, Any]
) -> None:
    own_closed = judged_run(knapsack, alice)
    client.force_login(alice)
    response = client.get(f"/runs/{own_closed.pk}/report/")
    assert response.status_code == 200
    assert "its targets stay hidden until that run ends" in response.content.decode()
    assert _leaks(client, [*_pages(knapsack, played), f"/runs/{own_closed.pk}/report/"]) == {}


def test_player_who_ended_a_run_sees_target_keys_but_not_others_requirements(
    client: Client, knapsack: Case, bob: User, played: dict[str, Any]
) -> None:
    client.force_login(bob)
    case_page = _body(client, f"/leaderboard/case/{knapsack.slug}/")
    assert KEYS[0] in case_page  # the positive control: names shown to those who played
    export = json.loads(_body(client, "/api/runs/export.json"))
    items = export[0]["coverage"]["items"]
    assert {i["target"] for i in items} == set(KEYS)
    assert all("requirement" not in i for i in items)  # requirement texts are staff-only
    assert export[0]["exchanges"][0]["answer"] == "Answer 1."


def test_staff_export_carries_requirement_texts(
    client: Client, knapsack: Case, charlie: User, played: dict[str, Any]
) -> None:
    client.force_login(charlie)
    export = json.loads(_body(client, "/api/runs/export.json"))
    requirements = {i["requirement"] for i in export[0]["coverage"]["items"]}
    assert requirements == set(REQUIREMENTS)


def test_targets_are_revealed_once_the_counted_ranked_runs_are_done(
    client: Client, knapsack: Case, alice: User, played: dict[str, Any]
) -> None:
    judged_run(knapsack, alice)
    judged_run(knapsack, alice)
    client.force_login(alice)
    assert KEYS[0] not in _body(client, f"/leaderboard/case/{knapsack.slug}/")  # one still open
    Run.objects.filter(pk=played["open_run"].pk).update(status="closed", score=0.0, valid=False)
    assert KEYS[0] in _body(client, f"/leaderboard/case/{knapsack.slug}/")
    # Seeing them is remembered: a later ranked run on the case would be informed.
    assert Exposure.objects.filter(player=alice, case=knapsack, kind="targets").exists()


def test_an_ended_practice_run_unlocks_nothing(client: Client, knapsack: Case) -> None:
    carol = User.objects.create_user("carol", "carol@example.org", "carol-password-1")
    make_run(case=knapsack, player=carol, score=0.0, valid=False, mode="practice")
    client.force_login(carol)
    assert KEYS[0] not in _body(client, f"/leaderboard/case/{knapsack.slug}/")
    assert not Exposure.objects.filter(player=carol).exists()
