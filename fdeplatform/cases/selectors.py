"""Reads of cases for pages and the API."""

from __future__ import annotations

from django.db.models import QuerySet

from fdeplatform.cases.models import Case


def published_cases() -> QuerySet[Case]:
    return (
        Case.objects.filter(published=True, current_version__isnull=False)
        .select_related("current_version")
        .order_by("family", "title")
    )
