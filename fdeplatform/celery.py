"""The Celery application.

With a broker (``REDIS_URL`` or ``CELERY_BROKER_URL``) tasks go to real workers started with
``celery -A fdeplatform worker``. Without one, ``fdeplatform.core.background`` runs the same task
functions on a thread pool inside the web process, so the single-machine default needs no Redis.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fdeplatform.settings")

app = Celery("fdeplatform")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
