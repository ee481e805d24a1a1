from __future__ import annotations

import pytest
from django.test import Client

from evaluators import isolation, landlock
from fdeplatform.core.health import check_broker


@pytest.mark.django_db
def test_it_reports_each_dependency(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["channel_layer"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["evaluator_isolation"]["isolation"] in ("bwrap", "process+landlock", "process")


@pytest.mark.django_db
@pytest.mark.parametrize(("landlock_abi", "expected"), [(7, "process+landlock"), (0, "process")])
def test_it_names_a_fallback_sandbox_loudly(
    client: Client, monkeypatch: pytest.MonkeyPatch, landlock_abi: int, expected: str
) -> None:
    monkeypatch.setenv("EVALUATOR_ISOLATION", "process")
    monkeypatch.setattr(landlock, "abi", lambda: landlock_abi)
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["evaluator_isolation"]["isolation"] == expected
    assert "EVALUATOR_ISOLATION=process" in body["evaluator_isolation"]["warning"]
    if expected == "process":
        assert "NO Landlock" in body["evaluator_isolation"]["warning"]


@pytest.mark.django_db
def test_required_bubblewrap_that_cannot_run_makes_it_unhealthy(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVALUATOR_ISOLATION", "bwrap")
    monkeypatch.setattr(isolation, "bwrap_problem", lambda: "bubblewrap (bwrap) is not installed")
    response = client.get("/healthz")
    assert response.status_code == 503
    report = response.json()["evaluator_isolation"]
    assert report["ok"] is False and report["isolation"] is None
    assert "not installed" in report["error"]


def test_an_unreachable_broker_is_reported_not_raised() -> None:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    report = check_broker(url="redis://127.0.0.1:1/0")
    assert report["ok"] is False
    assert report["backend"] == "redis"
    assert report["error"]


@pytest.mark.django_db
def test_a_missing_page_uses_the_site_layout(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Not found" in response.content and b'aria-label="Main"' in response.content
