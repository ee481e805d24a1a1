"""What agent harnesses read from the API (issue 29): tool definitions, the tutorial flag,
contact costs, the ended run's Recall, the default mode, and the frame of a rejected upload."""

from __future__ import annotations

import time
from typing import Any

import jsonschema
import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.asgi import application
from fdeplatform.cases.models import Case
from fdeplatform.core.background import drain

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


def _api(user: User) -> tuple[APIClient, str]:
    api = APIClient()
    key = agent_token_issue(user=user)
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api, key


def test_the_agent_tools_are_public_json_schema() -> None:
    body = APIClient().get("/api/agent-tools/").json()
    names = [tool["function"]["name"] for tool in body["tools"]]
    assert names == ["ask_customer", "list_files", "read_file", "submit"]
    for tool in body["tools"]:
        jsonschema.Draft202012Validator.check_schema(tool["function"]["parameters"])
    assert set(body["routes"]) == set(names)


def test_a_run_started_without_a_mode_is_practice_like_fde_start(
    alice: User, knapsack: Case
) -> None:
    api, _ = _api(alice)
    assert api.get("/api/cases/").json()["results"][0]["tutorial"] is False
    run = api.post("/api/runs/", {"case": knapsack.slug}, format="json").json()
    assert run["mode"] == "practice"


def test_answers_carry_their_contact_cost_and_the_ended_run_its_recall(
    alice: User, knapsack: Case
) -> None:
    api, _ = _api(alice)
    run = api.post("/api/runs/", {"case": knapsack.slug, "mode": "ranked"}, format="json").json()
    asked = api.post(
        f"/api/runs/{run['id']}/questions/",
        {"text": "How much weight can the van carry now?"},
        format="json",
    ).json()
    listed = api.get(f"/api/runs/{run['id']}/questions/").json()
    assert isinstance(asked["contact_cost"], float)
    assert [e["contact_cost"] for e in listed] == [asked["contact_cost"]]
    api.post(f"/api/runs/{run['id']}/close/")
    for _ in range(100):
        drain()
        result = api.get(f"/api/runs/{run['id']}/result/").json()
        if result["status"] == "scored" and result["recall"] is not None:
            break
        time.sleep(0.1)
    assert result["rounds_used"] == 1
    assert 0.0 < result["recall"] <= 1.0  # the weight limit is one of the case's targets


def test_a_rejected_upload_is_announced_on_the_runs_socket(alice: User, knapsack: Case) -> None:
    api, key = _api(alice)
    run = api.post("/api/runs/", {"case": knapsack.slug, "mode": "ranked"}, format="json").json()

    async def watch() -> dict[str, Any]:
        socket = WebsocketCommunicator(application, f"/ws/runs/{run['id']}/?token={key}")
        connected, _ = await socket.connect()
        assert connected
        assert (await socket.receive_json_from(20))["type"] == "status"
        await _upload_in_thread(api, run["id"])
        frame = await socket.receive_json_from(20)
        await socket.disconnect()
        return frame  # type: ignore[no-any-return]

    frame = async_to_sync(watch)()
    assert frame["type"] == "submission"
    assert frame["submission"]["status"] == "rejected"
    assert frame["submission"]["format"]["ok"] is False
    assert frame["submission"]["format"]["errors"]


async def _upload_in_thread(api: APIClient, run_id: str) -> None:
    from asgiref.sync import sync_to_async

    def upload() -> None:
        bad = SimpleUploadedFile("deliverable.csv", b"weight\n3\n")
        response = api.post(f"/api/runs/{run_id}/submissions/", {"file": bad}, format="multipart")
        assert response.status_code == 202, response.content

    await sync_to_async(upload, thread_sensitive=False)()
