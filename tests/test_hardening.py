"""Issue 14 items: bad input gets a clear error (never a 500 or a dropped socket), exports are
safe to open in a spreadsheet, and a missing cache or worker task registry breaks nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from evaluators.runtime import score_file
from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.leaderboards.exports import spreadsheet_safe
from fdeplatform.runs.services import run_start
from tests.support.sockets import ask_on_socket

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "cases"


def _api(user: User) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=user)}")
    return api


@pytest.mark.django_db
def test_a_nul_character_in_a_question_is_a_clear_400(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    run = api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"}, format="json").json()
    response = api.post(f"/api/runs/{run['id']}/questions/", {"text": "unit?\x00"}, format="json")
    assert response.status_code == 400
    assert "Null characters are not allowed" in response.json()["error"]["message"]


@pytest.mark.django_db(transaction=True)
def test_a_nul_character_over_the_websocket_gets_an_error_frame(
    alice: User, knapsack: Case
) -> None:
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    key = agent_token_issue(user=alice)
    outcomes = ask_on_socket(
        run.id, key, [("n1", "weight\x00unit?"), ("n2", "Which unit is the weight in?")]
    )
    assert [(f["type"], f.get("code")) for f in outcomes] == [
        ("error", "bad_text"),
        ("answer", None),
    ]


@pytest.mark.django_db
def test_deeply_nested_json_bodies_are_a_400(alice: User) -> None:
    nested = "[" * 100_000 + "]" * 100_000
    response = _api(alice).post("/api/runs/", nested, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["error"]["message"]


def test_a_deeply_nested_json_deliverable_is_a_format_error(tmp_path: Path) -> None:
    upload = tmp_path / "order.json"
    upload.write_text('{"orders": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = score_file(FIXTURES / "tiny-restock", upload)
    assert result.error_kind == "schema"
    assert any("nested too deeply" in error for error in result.format_errors)


def test_export_cells_a_spreadsheet_would_run_are_neutralised() -> None:
    row = spreadsheet_safe({"label": '=HYPERLINK("http://x")', "player": "@bob", "score": -0.5})
    assert row == {"label": '\'=HYPERLINK("http://x")', "player": "'@bob", "score": -0.5}
    assert spreadsheet_safe({"label": "gpt / scaffold"}) == {"label": "gpt / scaffold"}


@pytest.mark.django_db
def test_the_board_is_served_when_the_cache_is_unreachable(settings: Any, client: Client) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }
    assert client.get("/leaderboard/").status_code == 200
    api = _api(User.objects.create_user("reader"))
    assert api.get("/api/leaderboard/").status_code == 200


def test_the_board_warm_up_task_is_registered_with_celery() -> None:
    from fdeplatform.celery import app

    app.loader.import_default_modules()
    assert "leaderboards.warm_boards" in app.tasks


@pytest.mark.django_db
def test_an_upload_response_shows_its_queue_position(alice: User, knapsack: Case) -> None:
    from fdeplatform.runs.models import Submission
    from fdeplatform.scoring.services import queue_position, submission_queue

    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    submission = Submission.objects.create(
        run=run, number=1, original_name="x.csv", size=1, uploaded_by=alice
    )
    submission_queue(submission)
    assert queue_position(submission) == 1
    cache.clear()
