from __future__ import annotations

import pytest
from django.test import Client

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
