"""Reads for the authoring pages (staff only)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from fdeplatform.authoring.models import AuthoringEvent, PackageUpload, Validation
from fdeplatform.cases.models import Case, CaseVersion


def _versions() -> QuerySet[CaseVersion]:
    validations = Validation.objects.order_by("-created_at", "-pk")
    return (
        CaseVersion.objects.select_related("imported_by")
        .prefetch_related(Prefetch("validations", queryset=validations))
        .order_by("-imported_at", "-pk")
    )


def authoring_cases() -> QuerySet[Case]:
    """Every case with its versions (newest first) and their validations, in a fixed number of
    queries however many there are."""
    return (
        Case.objects.select_related("current_version")
        .prefetch_related(Prefetch("versions", queryset=_versions()))
        .order_by("title")
    )


def recent_uploads(limit: int = 8) -> list[PackageUpload]:
    return list(
        PackageUpload.objects.select_related("uploaded_by", "version__case").order_by(
            "-created_at", "-pk"
        )[:limit]
    )


def case_versions(case: Case) -> list[CaseVersion]:
    return list(_versions().filter(case=case))


def events_of(
    *, case: Case | None = None, version: CaseVersion | None = None
) -> list[AuthoringEvent]:
    events = AuthoringEvent.objects.select_related("actor", "version")
    if version is not None:
        events = events.filter(version=version)
    elif case is not None:
        events = events.filter(case=case)
    return list(events.order_by("-created_at", "-pk")[:100])
