from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_it_reports_each_dependency(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["channel_layer"]["ok"] is True
    assert body["broker"]["ok"] is True


@pytest.mark.django_db
def test_it_says_error_when_the_broker_is_unreachable(client: Client, settings: object) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # type: ignore[attr-defined]
    from fdeplatform.celery import app

    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = previous
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["broker"]["ok"] is False
