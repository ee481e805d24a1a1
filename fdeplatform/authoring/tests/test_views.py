"""The authoring pages: staff only, and the upload → background validation → report path."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from fdeplatform.authoring.models import PackageUpload, Validation
from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.core import background


def _routes(version: CaseVersion, upload: PackageUpload) -> list[tuple[str, str]]:
    v, slug = version.pk, version.case.slug
    return [
        ("get", reverse("authoring-home")),
        ("post", reverse("authoring-upload-new")),
        ("get", reverse("authoring-upload", args=[upload.pk])),
        ("get", reverse("authoring-upload-status", args=[upload.pk])),
        ("get", reverse("authoring-version", args=[v])),
        ("get", reverse("authoring-version-status", args=[v])),
        ("post", reverse("authoring-validate", args=[v])),
        ("post", reverse("authoring-step", args=[v])),
        ("get", reverse("authoring-export", args=[v])),
        ("get", reverse("authoring-preview", args=[v])),
        ("get", reverse("authoring-data", args=[v, "items.csv"])),
        ("get", reverse("authoring-console", args=[v])),
        ("post", reverse("authoring-console", args=[v])),
        ("get", reverse("authoring-case", args=[slug])),
        ("get", reverse("authoring-diff", args=[slug]) + f"?a={v}&b={v}"),
    ]


def test_a_player_reaches_none_of_the_authoring_pages(
    client: Client, alice: User, charlie: User, draft: CaseVersion
) -> None:
    upload = PackageUpload.objects.create(
        source_name="x.zip", path="/nonexistent", uploaded_by=charlie
    )
    client.force_login(alice)
    for method, url in _routes(draft, upload):
        response = getattr(client, method)(url, {"step": "submit", "text": "hi"})
        assert response.status_code in (403, 404), (method, url, response.status_code)
    assert CaseVersion.objects.get(pk=draft.pk).state == CaseVersion.State.DRAFT
    assert not Validation.objects.filter(version=draft, status="queued").exists()


def test_a_visitor_is_sent_to_log_in(client: Client, draft: CaseVersion) -> None:
    response = client.get(reverse("authoring-version", args=[draft.pk]))
    assert response.status_code == 302 and "/login" in response["Location"]


def test_staff_reach_every_page(client: Client, charlie: User, draft: CaseVersion) -> None:
    upload = PackageUpload.objects.create(
        source_name="x.zip", path="/nonexistent", uploaded_by=charlie
    )
    client.force_login(charlie)
    for method, url in _routes(draft, upload):
        if method == "get":
            assert client.get(url).status_code == 200, url


def test_a_draft_is_not_visible_to_players_through_the_site_or_api(
    client: Client, alice: User, charlie: User, draft: CaseVersion
) -> None:
    client.force_login(alice)
    assert client.get(reverse("case-detail", args=["tiny-knapsack"])).status_code == 404
    assert client.get("/api/cases/").json() in (
        [],
        {"count": 0, "next": None, "previous": None, "results": []},
    )


def test_only_a_superuser_imports_a_server_folder(
    client: Client, charlie: User, package: Callable[[str], Path]
) -> None:
    client.force_login(charlie)
    response = client.post(reverse("authoring-upload-new"), {"folder": str(package("1.4.0"))})
    assert response.status_code == 403
    assert not PackageUpload.objects.exists()


def test_the_list_page_stays_within_a_fixed_query_budget(
    client: Client,
    charlie: User,
    draft: CaseVersion,
    knapsack: Case,
    django_assert_max_num_queries: object,
) -> None:
    client.force_login(charlie)
    with django_assert_max_num_queries(12):  # type: ignore[operator]
        assert client.get(reverse("authoring-home")).status_code == 200


def test_the_preview_shows_what_a_player_sees_and_nothing_hidden(
    client: Client, charlie: User, draft: CaseVersion
) -> None:
    client.force_login(charlie)
    page = client.get(reverse("authoring-preview", args=[draft.pk])).content.decode()
    assert "items.csv" in page
    assert "reference.csv" not in page and "evaluator" not in page
    hidden = client.get(reverse("authoring-data", args=[draft.pk, "..%2Fhidden%2Fgt.json"]))
    assert hidden.status_code == 404


def test_the_console_shows_the_disclosed_facts_and_targets(
    client: Client, charlie: User, draft: CaseVersion
) -> None:
    client.force_login(charlie)
    url = reverse("authoring-console", args=[draft.pk])
    client.post(url, {"text": "How much weight can the van carry now?"})
    page = client.get(url).content.decode()
    assert "12 kg" in page
    assert "van_capacity" in page and "capacity_reduced" in page


@pytest.mark.django_db(transaction=True)
def test_an_upload_is_validated_in_the_background_and_reported(
    client: Client, settings: object, tmp_path: Path, package: Callable[[str], Path]
) -> None:
    settings.CELERY_BROKER_URL = ""  # type: ignore[attr-defined]
    staff = User.objects.create_user("erin", password="erin-password-1", is_staff=True)
    root = package("1.5.0")
    shutil.copy(root / "hidden" / "anchors" / "literal.csv", root / "hidden" / "reference.csv")
    archive = Path(
        shutil.make_archive(str(tmp_path / "tiny-knapsack"), "zip", root.parent, root.name)
    )
    client.force_login(staff)
    with archive.open("rb") as handle:
        response = client.post(reverse("authoring-upload-new"), {"package": handle})
    upload = PackageUpload.objects.get()
    assert response["Location"] == reverse("authoring-upload", args=[upload.pk])
    background.drain(timeout=120)
    upload.refresh_from_db()
    assert upload.status == PackageUpload.Status.DONE and upload.version is not None
    validation = Validation.objects.get(version=upload.version)
    assert validation.status == Validation.Status.FAILED
    assert validation.report["anchor_results"]["reference"]["broke"]
    page = client.get(reverse("authoring-version", args=[upload.version.pk])).content.decode()
    assert 'data-anchor="reference"' in page and "Validation failed" in page

    with archive.open("rb") as handle:  # the same bytes again: nothing new
        client.post(reverse("authoring-upload-new"), {"package": handle})
    background.drain(timeout=60)
    assert PackageUpload.objects.filter(status=PackageUpload.Status.DUPLICATE).count() == 1
    assert CaseVersion.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("isolation", ["process", "process+landlock"])
def test_a_version_admitted_without_bubblewrap_is_marked_on_the_staff_pages(
    client: Client, charlie: User, draft: CaseVersion, isolation: str
) -> None:
    Validation.objects.filter(version=draft).update(report={"ok": True, "isolation": isolation})
    CaseVersion.objects.filter(pk=draft.pk).update(state=CaseVersion.State.PUBLISHED)
    client.force_login(charlie)
    badge = f'data-isolation="{isolation}"'
    for url in (
        reverse("authoring-home"),
        reverse("authoring-case", args=[draft.case.slug]),
        reverse("authoring-version", args=[draft.pk]),
    ):
        page = client.get(url).content.decode()
        assert badge in page and f"admitted under {isolation}" in page, url
    version_page = client.get(reverse("authoring-version", args=[draft.pk])).content.decode()
    assert f"Evaluator sandbox: <strong>{isolation}</strong> — weaker than bubblewrap" in (
        version_page
    )


@pytest.mark.django_db
def test_a_version_admitted_in_bubblewrap_carries_no_mark(
    client: Client, charlie: User, draft: CaseVersion
) -> None:
    Validation.objects.filter(version=draft).update(report={"ok": True, "isolation": "bwrap"})
    client.force_login(charlie)
    page = client.get(reverse("authoring-version", args=[draft.pk])).content.decode()
    assert "data-isolation" not in page
    assert "Evaluator sandbox: <strong>bwrap</strong>." in page


@pytest.mark.django_db
def test_a_command_line_import_shows_its_admission_isolation(
    client: Client, charlie: User, draft: CaseVersion
) -> None:
    # Bundled cases are admitted at import (no validation row): their report is the version's.
    Validation.objects.filter(version=draft).delete()
    CaseVersion.objects.filter(pk=draft.pk).update(admission={"ok": True, "isolation": "process"})
    client.force_login(charlie)
    page = client.get(reverse("authoring-home")).content.decode()
    assert 'data-isolation="process"' in page
