"""Background work runs off the request path, in-process or on a real Celery worker."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from fdeplatform.core.models import WorkerProbe


@pytest.mark.django_db(transaction=True)
def test_in_process_pool_answers_a_probe(
    settings: object, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.CELERY_BROKER_URL = ""  # type: ignore[attr-defined]
    call_command("check_worker", timeout=20)
    probe = WorkerProbe.objects.get()
    assert probe.processed_at is not None
    assert "background" in probe.processed_by or "pid" in probe.processed_by
    assert "in-process pool" in capsys.readouterr().out


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_celery_worker_answers_a_probe(
    celery_worker: None, redis_url: str, settings: object, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.CELERY_BROKER_URL = redis_url  # type: ignore[attr-defined]
    call_command("check_worker", timeout=60)
    out = capsys.readouterr().out
    assert "Celery worker" in out
    probe = WorkerProbe.objects.get()
    assert probe.processed_at is not None
    print(f"CI: probe answered by a real Celery worker on {redis_url}: {probe.processed_by}")
