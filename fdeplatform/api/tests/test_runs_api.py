"""The agent REST API end to end on the in-process background pool."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.cases.models import Case
from fdeplatform.core.background import drain
from fdeplatform.runs.models import Run

pytestmark = pytest.mark.django_db(transaction=True)
PACKAGE = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases" / "tiny-knapsack"
REFERENCE = (PACKAGE / "hidden" / "reference.csv").read_bytes()


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""


def _api(user: User) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {agent_token_issue(user=user)}")
    return api


def _start(api: APIClient, case: Case, mode: str) -> dict[str, Any]:
    response = api.post(
        "/api/runs/", {"case": case.slug, "mode": mode, "label": "test-agent / m1"}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()  # type: ignore[no-any-return]


def _upload(api: APIClient, run_id: str, content: bytes, name: str = "deliverable.csv") -> Any:
    return api.post(
        f"/api/runs/{run_id}/submissions/",
        {"file": SimpleUploadedFile(name, content)},
        format="multipart",
    )


def _settled(api: APIClient, run_id: str) -> dict[str, Any]:
    for _ in range(100):
        drain()
        body = api.get(f"/api/runs/{run_id}/").json()
        if (
            all(s["status"] not in {"queued", "scoring"} for s in body["submissions"])
            and body["status"] != "scoring"
        ):
            return body  # type: ignore[no-any-return]
        time.sleep(0.1)
    raise AssertionError("scoring did not finish")


def test_cases_list_and_detail_show_only_visible_parts(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    listing = api.get("/api/cases/").json()
    assert [c["slug"] for c in listing["results"]] == ["tiny-knapsack"]
    detail = api.get("/api/cases/tiny-knapsack/").json()
    assert detail["instruction"].strip()
    assert [f["name"] for f in detail["data_files"]] == ["items.csv"]
    text = str(detail)
    assert "reference_value" not in text and "12 kg" not in text


def test_practice_run_scores_each_upload(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "practice")
    assert run["status"] == "open" and run["mode"] == "practice"
    answer = api.post(
        f"/api/runs/{run['id']}/questions/",
        {"text": "How much weight can the van carry now?"},
        format="json",
    )
    assert answer.status_code == 200 and "12 kg" in answer.json()["text"]
    assert answer.json()["rounds_used"] == 1
    upload = _upload(api, run["id"], REFERENCE)
    assert upload.status_code == 202
    assert upload.json()["format"]["ok"] is True
    body = _settled(api, run["id"])
    result = body["submissions"][0]["result"]
    # Practice shows a band, never the exact score, the uplift or the rule keys; the business
    # value only once the run has ended (beside the band, uploads would bound R).
    assert body["submissions"][0]["score"] is None and result["score"] is None
    assert result["score_band"] == [1.0, 1.1] and "raw_value" not in result
    assert "uplift" not in result and "details" not in result
    assert "reference_value" not in result and "internal_log" not in result
    api.post(f"/api/runs/{run['id']}/close/")
    closed = _settled(api, run["id"])["submissions"][0]["result"]
    assert closed["raw_value"] == 44.0 and closed["score"] is None


def test_practice_violations_keep_the_customers_words_but_not_the_rule_keys(
    alice: User, knapsack: Case
) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "practice")
    _upload(api, run["id"], b"item_id\nI01\nI02\nI03\nI04\nI05\nI06\nI07\n")
    result = _settled(api, run["id"])["submissions"][0]["result"]
    assert result["valid"] is False and result["violations"]
    assert all("rule" not in v and v["message"] for v in result["violations"])
    assert result["score_band"] == [0.0, 0.0]


def test_ranked_run_shows_only_the_format_check_until_closed(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "ranked")
    first = _upload(api, run["id"], b"item_id\nI01\n")
    second = _upload(api, run["id"], REFERENCE)
    assert first.json()["status"] == second.json()["status"] == "received"
    drain()
    body = api.get(f"/api/runs/{run['id']}/").json()
    assert all("score" not in s and "result" not in s for s in body["submissions"])
    assert api.get(f"/api/runs/{run['id']}/result/").json()["score"] is None

    assert api.post(f"/api/runs/{run['id']}/close/").status_code == 200
    body = _settled(api, run["id"])
    assert body["status"] == "closed"
    statuses = [s["status"] for s in body["submissions"]]
    assert statuses == ["superseded", "scored"]  # the earlier upload was never scored
    assert "result" not in body["submissions"][0]
    result = api.get(f"/api/runs/{run['id']}/result/").json()
    assert result["status"] == "scored" and result["score"] == pytest.approx(1.0)


def test_a_malformed_last_upload_never_replaces_a_valid_one(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "ranked")
    _upload(api, run["id"], REFERENCE)
    assert _upload(api, run["id"], b"item_id,extra\nI01,1\n").json()["status"] == "rejected"
    closed = api.post(f"/api/runs/{run['id']}/close/").json()
    assert closed["counted_submission"] == 1 and "warning" not in closed
    result = _settled_result(api, run["id"])
    assert result["score"] == pytest.approx(1.0)


def test_closing_a_ranked_run_without_a_valid_upload_says_so(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "ranked")
    _upload(api, run["id"], b"item_id,extra\nI01,1\n")
    closed = api.post(f"/api/runs/{run['id']}/close/").json()
    assert closed["counted_submission"] is None
    assert closed["warning"] == (
        "No upload passed the format check: the run ends with score 0 and still counts on the "
        "board."
    )
    assert _settled_result(api, run["id"])["score"] == 0.0


def _settled_result(api: APIClient, run_id: str) -> dict[str, object]:
    drain()
    body: dict[str, object] = api.get(f"/api/runs/{run_id}/result/").json()
    return body


def test_bad_uploads_get_clear_errors(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "practice")
    bad = _upload(api, run["id"], b"item_id,extra\nI01,1\n").json()
    assert bad["status"] == "rejected" and bad["format"]["ok"] is False
    assert any("extra" in e for e in bad["format"]["errors"])
    binary = _upload(api, run["id"], b"\x00\x01\x02PK").json()
    assert binary["status"] == "rejected"
    empty = _upload(api, run["id"], b"")
    assert empty.status_code == 400 and empty.json()["error"]["code"] == "empty_file"
    missing = api.post(f"/api/runs/{run['id']}/submissions/", {}, format="multipart")
    assert missing.json()["error"]["code"] == "no_file"


def test_errors_use_one_shape(alice: User, bob: User, knapsack: Case) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "practice")
    assert _api(bob).get(f"/api/runs/{run['id']}/").json() == {
        "error": {"code": "not_found", "message": "No such run."}
    }
    bad = api.post("/api/runs/", {"case": "tiny-knapsack", "mode": "blitz"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    anonymous = APIClient().get("/api/cases/")
    assert anonymous.status_code == 401 and "error" in anonymous.json()


def test_an_upload_beyond_the_site_limit_is_refused_before_it_is_read(
    alice: User, knapsack: Case, settings: Any
) -> None:
    settings.MAX_UPLOAD_REQUEST_BYTES = 1024
    api = _api(alice)
    run = _start(api, knapsack, "practice")
    response = _upload(api, run["id"], b"item_id\n" + b"I01\n" * 600)
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"
    assert api.get(f"/api/runs/{run['id']}/").json()["submissions"] == []


def test_an_upload_above_the_case_limit_is_refused_and_not_stored(
    alice: User, knapsack: Case
) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "practice")  # tiny-knapsack allows 1 MB
    response = _upload(api, run["id"], b"item_id\n" + b"I01\n" * 300_000)
    assert response.status_code == 413 and "1 MB" in response.json()["error"]["message"]
    assert api.get(f"/api/runs/{run['id']}/").json()["submissions"] == []


def test_malformed_and_oversized_bodies_get_json_errors(alice: User, knapsack: Case) -> None:
    api = _api(alice)
    run = _start(api, knapsack, "practice")
    url = f"/api/runs/{run['id']}/questions/"
    broken = api.post(url, b"{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "parse_error"
    huge = api.post(url, {"text": "x" * 3_000_000}, format="json")
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"
    long = api.post(url, {"text": "y" * 5000}, format="json")
    assert long.status_code == 400 and "4000" in long.json()["error"]["message"]
    assert api.get(f"/api/runs/{run['id']}/").json()["rounds_used"] == 0


def test_a_token_started_run_is_an_agent_row_under_its_label(alice: User, knapsack: Case) -> None:
    """A run started with a token is the agent's, wherever the board shows it."""
    api = _api(alice)
    run = _start(api, knapsack, "ranked")
    _upload(api, run["id"], REFERENCE)
    api.post(f"/api/runs/{run['id']}/close/")
    _settled(api, run["id"])

    rows = api.get("/api/leaderboard/").json()["rows"]
    assert [(r["kind"], r["key"]) for r in rows] == [("agent", "test-agent / m1")]
    assert api.get("/api/leaderboard/?who=humans").json()["rows"] == []
    board_csv = api.get("/api/leaderboard/export.csv").content.decode()
    assert "agent" in board_csv and "test-agent / m1" in board_csv
    streamed = api.get("/api/runs/export.csv").streaming_content
    runs_csv = b"".join(streamed).decode().splitlines()  # type: ignore[arg-type]
    header, line = runs_csv[0].split(","), runs_csv[1].split(",")
    assert line[header.index("is_agent")] in {"True", "true", "1"}
    assert line[header.index("label")] == "test-agent / m1"


def test_the_start_response_says_when_later_ranked_runs_become_informed(
    alice: User, knapsack: Case
) -> None:
    api = _api(alice)
    practice = _start(api, knapsack, "practice")
    assert "informed" in practice["informed_after"]
    api.post(f"/api/runs/{practice['id']}/close/")
    assert _start(api, knapsack, "ranked")["informed_after"] is None


def test_a_session_started_run_stays_a_human_run(alice: User, knapsack: Case) -> None:
    api = APIClient()
    api.force_login(alice)
    run = _start(api, knapsack, "ranked")
    assert Run.objects.get(id=run["id"]).is_agent is False
