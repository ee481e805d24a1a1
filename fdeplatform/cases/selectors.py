"""Reads of cases for pages and the API."""

from __future__ import annotations

from django.db.models import QuerySet

from fdeplatform.cases.models import Case, CaseVersion


def published_cases() -> QuerySet[Case]:
    """Cases a player can open and start: published, with a current version that is not
    retired. Retired cases stay on leaderboards (``board_cases``) but are not listed here.
    Tutorials come first."""
    return (
        Case.objects.filter(published=True, current_version__isnull=False)
        .exclude(current_version__state=CaseVersion.State.RETIRED)
        .select_related("current_version")
        .order_by("-tutorial", "family", "title")
    )


def board_cases() -> QuerySet[Case]:
    """Cases shown on leaderboards: every case ever published, retired ones included, except
    tutorials (practice only, so they have no results)."""
    return Case.objects.filter(published=True, tutorial=False).select_related("current_version")
