"""Public run pages: agent runs are public once ended, a person's only when they publish it.

The result is public; the transcript, verdict and targets (which spell out the case's hidden
rules) open to a visitor only once they have earned them or accept that their later ranked runs
on the case become informed, exactly as targets do.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.tests.factories import make_run
from fdeplatform.leaderboards.tests.test_privacy import judged_run
from fdeplatform.runs.models import Exposure, Run, Submission

VIOLATION = "Hazmat lines were loaded."


@pytest.fixture
def agent_run(knapsack: Case, bob: User) -> Run:
    run = judged_run(knapsack, bob, agent="bot-x")
    assert run.final_submission is not None
    Submission.objects.filter(pk=run.final_submission.pk).update(
        result={"valid": True, "score": 0.7, "error_kind": None, "details": {},
                "violations": [{"rule": "hazmat_excluded", "message": VIOLATION, "count": 1}]},
    )  # fmt: skip
    return run


def _html(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


def _revealed(client: Client, url: str) -> str:
    """The page after pressing the reveal button (a POST, as the form sends it)."""
    response = client.post(url, {"reveal": "targets"})
    assert response.status_code == 200, url
    return response.content.decode()


def test_anyone_sees_an_agent_runs_result_but_not_its_transcript(
    client: Client, agent_run: Run
) -> None:
    html = _html(client, f"/runs/{agent_run.pk}/report/")
    assert "0.7000" in html and "1 of 5 targets covered" in html
    assert "Question 1?" not in html and "Answer 1." not in html
    assert VIOLATION not in html and "hazmat_excluded" not in html
    assert "Sign in to see them" in html
    # Asking to reveal without an account changes nothing.
    assert "Answer 1." not in _revealed(client, f"/runs/{agent_run.pk}/report/")


def test_a_player_sees_the_transcript_only_by_accepting_to_be_informed(
    client: Client, agent_run: Run, alice: User
) -> None:
    client.force_login(alice)
    html = _html(client, f"/runs/{agent_run.pk}/report/")
    assert "Answer 1." not in html and 'name="reveal" value="targets"' in html
    assert not Exposure.objects.filter(player=alice).exists()
    revealed = _revealed(client, f"/runs/{agent_run.pk}/report/")
    assert "Question 1?" in revealed and "Answer 1." in revealed and VIOLATION in revealed
    assert "Publish this run" not in revealed  # only the player decides about their run
    assert Exposure.objects.filter(player=alice, kind=Exposure.TRANSCRIPT).exists()


def test_a_player_who_earned_the_case_sees_it_directly(
    client: Client, agent_run: Run, knapsack: Case, alice: User
) -> None:
    for _ in range(3):
        judged_run(knapsack, alice)
    client.force_login(alice)
    assert "Answer 1." in _html(client, f"/runs/{agent_run.pk}/report/")


def test_nothing_hidden_while_the_visitor_has_an_open_run_on_the_case(
    client: Client, agent_run: Run, knapsack: Case, alice: User
) -> None:
    make_run(case=knapsack, player=alice, score=None, valid=None, status="open")
    client.force_login(alice)
    html = _revealed(client, f"/runs/{agent_run.pk}/report/")
    assert "Answer 1." not in html and "open run on this case" in html
    assert not Exposure.objects.filter(player=alice).exists()


def test_practice_and_open_agent_runs_stay_private(
    client: Client, knapsack: Case, bob: User, alice: User
) -> None:
    practice = make_run(case=knapsack, player=bob, score=1.0, valid=True, agent="bot-x",
                        mode="practice")  # fmt: skip
    open_run = make_run(case=knapsack, player=bob, score=None, valid=None, agent="bot-x",
                        status="open")  # fmt: skip
    client.force_login(alice)
    for run in (practice, open_run):
        _html(client, f"/runs/{run.pk}/report/", status=404)


def test_a_person_publishes_and_withdraws_their_run(
    client: Client, knapsack: Case, bob: User, alice: User
) -> None:
    run = judged_run(knapsack, bob)
    client.force_login(alice)
    _html(client, f"/runs/{run.pk}/report/", status=404)
    assert client.post(f"/runs/{run.pk}/report/publish/", {"publish": "1"}).status_code == 404
    client.force_login(bob)
    assert "Publish this run" in _html(client, f"/runs/{run.pk}/report/")
    response = client.post(f"/runs/{run.pk}/report/publish/", {"publish": "1"})
    assert response.status_code == 302 and Run.objects.get(pk=run.pk).published
    client.force_login(alice)
    assert "0.7000" in _html(client, f"/runs/{run.pk}/report/")
    client.force_login(bob)
    client.post(f"/runs/{run.pk}/report/publish/", {"publish": "0"})
    client.force_login(alice)
    _html(client, f"/runs/{run.pk}/report/", status=404)


def test_a_practice_run_cannot_be_published(client: Client, knapsack: Case, bob: User) -> None:
    practice = make_run(case=knapsack, player=bob, score=1.0, valid=True, mode="practice")
    client.force_login(bob)
    response = client.post(f"/runs/{practice.pk}/report/publish/", {"publish": "1"}, follow=True)
    assert "Only an ended ranked run can be published." in response.content.decode()
    assert not Run.objects.get(pk=practice.pk).published


def test_exports_carry_agent_transcripts_and_only_published_human_ones(
    client: Client, knapsack: Case, bob: User, alice: User, agent_run: Run
) -> None:
    private = judged_run(knapsack, bob)
    published = judged_run(knapsack, bob)
    Run.objects.filter(pk=published.pk).update(published=True)
    for _ in range(3):
        judged_run(knapsack, alice)  # alice earned the case: transcripts are open to her
    client.force_login(alice)
    response = client.get("/api/runs/export.json")
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    runs: dict[str, Any] = {r["id"]: r for r in json.loads(body)}
    assert runs[str(agent_run.pk)]["exchanges"][0]["answer"] == "Answer 1."
    assert runs[str(agent_run.pk)]["public"] is True
    assert runs[str(published.pk)]["exchanges"] is not None
    assert runs[str(private.pk)]["exchanges"] is None and runs[str(private.pk)]["public"] is False
    own = [r for r in runs.values() if r["player"] == "alice"]
    assert own and all(r["exchanges"] is not None for r in own)
