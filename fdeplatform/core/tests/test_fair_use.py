"""Fair use: question rate, run starts and open runs, login guessing; each refusal says when
to retry (HTTP 429 with Retry-After, or an ``error`` frame with ``retry_after``)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.core.ratelimit import parse_rate
from fdeplatform.runs.services import run_start
from tests.support.sockets import ask_on_socket


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    cache.clear()


def test_rates_are_read_from_settings_text() -> None:
    assert parse_rate("10/s").count == 10
    assert parse_rate("30/min").seconds == 60
    assert parse_rate("100/15min").seconds == 900
    assert parse_rate("0") is None and parse_rate("") is None
    with pytest.raises(ValueError, match="write it like 10/s"):
        parse_rate("ten per second")


def _api(user: User) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=user)}")
    return api


@pytest.mark.django_db
def test_questions_over_the_rate_get_429_with_retry_after(
    settings: Any, alice: User, knapsack: Case
) -> None:
    settings.QUESTION_RATE = "3/min"
    api = _api(alice)
    run = api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"}, format="json").json()
    for turn in range(3):
        answered = api.post(f"/api/runs/{run['id']}/questions/", {"text": f"Question {turn}?"})
        assert answered.status_code == 200
    refused = api.post(f"/api/runs/{run['id']}/questions/", {"text": "One more?"})
    assert refused.status_code == 429
    body = refused.json()["error"]
    assert body["code"] == "rate_limited" and 0 < body["retry_after"] <= 60
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert api.get(f"/api/runs/{run['id']}/").json()["rounds_used"] == 3  # nothing spent


@pytest.mark.django_db(transaction=True)
def test_questions_over_the_rate_get_an_error_frame_and_the_socket_stays(
    settings: Any, alice: User, knapsack: Case
) -> None:
    settings.QUESTION_RATE = "2/min"
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    key = agent_token_issue(user=alice)
    asks = [(f"m{turn}", f"Q{turn}?") for turn in range(3)]
    outcomes = ask_on_socket(run.id, key, asks)  # a pong after them: the socket stayed
    assert [f["type"] for f in outcomes] == ["answer", "answer", "error"]
    assert outcomes[-1]["code"] == "rate_limited" and outcomes[-1]["retry_after"] > 0


@pytest.mark.django_db
def test_open_runs_and_run_starts_are_capped(settings: Any, alice: User, knapsack: Case) -> None:
    settings.OPEN_RUNS_PER_USER = 2
    api = _api(alice)
    for _ in range(2):
        assert (
            api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"}).status_code == 201
        )
    refused = api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_open_runs"

    settings.OPEN_RUNS_PER_USER = 0
    settings.RUN_START_RATE = "1/min"
    cache.clear()
    assert api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"}).status_code == 201
    limited = api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"})
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_password_guessing_is_locked_out_and_a_right_password_later_clears_it(
    settings: Any, path: str
) -> None:
    settings.LOGIN_FAILURE_RATE = "3/15min"
    User.objects.create_user("carol", password="right-password-123", is_staff=True)
    browser = Client()
    for guess in range(3):
        response = browser.post(path, {"username": "carol", "password": f"wrong-{guess}"})
        assert response.status_code == 200  # the form again, with an error
    locked = browser.post(path, {"username": "carol", "password": "right-password-123"})
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert int(locked["Retry-After"]) > 0
    other = browser.post(path, {"username": "dave", "password": "whatever"})
    assert other.status_code == 200  # another account is not locked
    cache.clear()  # the window ends
    assert (
        browser.post(path, {"username": "carol", "password": "right-password-123"}).status_code
        == 302
    )


def _upload(api: APIClient, run_id: str, body: bytes = b"item_id\nI01\n") -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    file = SimpleUploadedFile("plan.csv", body, content_type="text/csv")
    return api.post(f"/api/runs/{run_id}/submissions/", {"file": file}, format="multipart")


@pytest.mark.django_db
def test_uploads_per_run_and_per_minute_are_capped(
    settings: Any, alice: User, knapsack: Case
) -> None:
    settings.CELERY_BROKER_URL = ""
    settings.SUBMISSIONS_PER_RUN = 2
    api = _api(alice)
    run = api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"}).json()
    assert [_upload(api, run["id"]).status_code for _ in range(2)] == [202, 202]
    refused = _upload(api, run["id"])
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_uploads"

    settings.SUBMISSIONS_PER_RUN = 0
    settings.SUBMISSION_RATE = "1/min"
    cache.clear()
    other = api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"}).json()
    assert _upload(api, other["id"]).status_code == 202
    limited = _upload(api, other["id"])
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1


@pytest.mark.django_db
def test_a_failed_upload_leaves_no_file_behind(
    settings: Any, alice: User, knapsack: Case, tmp_path: Any, monkeypatch: Any
) -> None:
    """Fault injection: the format check crashes after the file was stored."""
    from fdeplatform.runs import submissions

    settings.MEDIA_ROOT = str(tmp_path)
    api = _api(alice)
    run = api.post("/api/runs/", {"case": knapsack.slug, "mode": "practice"}).json()

    def crash(submission: Any, run: Any) -> None:
        raise RuntimeError("format check crashed")

    monkeypatch.setattr(submissions, "_check_form", crash)
    with pytest.raises(RuntimeError):
        _upload(api, run["id"])
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


@pytest.mark.django_db(transaction=True)
def test_open_sockets_per_player_are_capped(settings: Any, alice: User, knapsack: Case) -> None:
    from fdeplatform.asgi import application

    settings.SOCKETS_PER_USER = 2
    run = run_start(
        player=alice, case_slug=knapsack.slug, condition="interact_req", mode="practice"
    )
    key = agent_token_issue(user=alice)

    async def scenario() -> tuple[dict[str, Any], Any]:
        def socket() -> WebsocketCommunicator:
            return WebsocketCommunicator(
                application,
                f"/ws/runs/{run.id}/?token={key}",
                headers=[(b"origin", b"http://127.0.0.1")],
            )

        first, second, third = socket(), socket(), socket()
        for ws in (first, second, third):
            assert (await ws.connect())[0]
        refusal = await third.receive_json_from(5)
        closing = await third.receive_output(5)
        await third.disconnect()  # leave no application instance running (Redis layer in CI)
        await second.disconnect()
        fourth = socket()
        assert (await fourth.connect())[0]
        allowed = await fourth.receive_json_from(5)
        for ws in (first, fourth):
            await ws.disconnect()
        return refusal, (closing, allowed)

    refusal, (closing, allowed) = async_to_sync(scenario)()
    assert refusal["code"] == "too_many_sockets"
    assert closing == {"type": "websocket.close", "code": 4429}
    assert allowed["type"] == "status", allowed  # a freed slot is usable again


def test_question_counts_share_one_redis_pool_across_sockets(
    redis_url: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each websocket consumer is an asyncio task with its own context, where Django's cache
    object is a fresh one: counting through it opened a Redis connection per socket."""
    import asyncio

    import redis
    from asgiref.sync import sync_to_async

    from fdeplatform.core import ratelimit

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "fair-use-pool-test",
        }
    }
    made: list[int] = []
    original = redis.connection.ConnectionPool.make_connection

    def counted(pool: Any) -> Any:
        made.append(1)
        return original(pool)

    monkeypatch.setattr(redis.connection.ConnectionPool, "make_connection", counted)
    rate = parse_rate("1000/s")
    hit = sync_to_async(ratelimit.hit, thread_sensitive=False)

    async def socket(player: int) -> list[float | None]:
        return [await hit("questions", f"pool-{player}", rate) for _ in range(5)]

    async def sockets() -> list[list[float | None]]:
        return await asyncio.gather(*(socket(player) for player in range(40)))

    waits = asyncio.run(sockets())
    assert waits == [[None] * 5] * 40  # counted, none refused
    assert len(made) <= 12, f"{len(made)} Redis connections for 40 sockets"
