"""Operational rows of the platform itself."""

from __future__ import annotations

from django.db import models


class WorkerProbe(models.Model):
    """A round trip through the background workers, written by ``manage.py check_worker``.

    It proves that a worker (or the in-process pool) picks up tasks and can write to the same
    database as the site, which a broker ping alone does not show.
    """

    nonce = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    processed_by = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"probe {self.nonce}"
