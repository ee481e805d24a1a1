"""An upload refused by the package checks is "Rejected" with its reasons; "Failed" is ours."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from fdeplatform.authoring.models import PackageUpload
from fdeplatform.authoring.uploads import upload_check

pytestmark = pytest.mark.django_db


def _uploaded(path: Path, staff: User) -> PackageUpload:
    upload = PackageUpload.objects.create(source_name=path.name, path=str(path), uploaded_by=staff)
    upload_check(upload.pk)
    upload.refresh_from_db()
    return upload


def test_a_file_that_is_not_a_zip_is_rejected_with_the_reason(
    client: Client, charlie: User, tmp_path: Path
) -> None:
    (tmp_path / "u1").mkdir()
    bogus = tmp_path / "u1" / "package.zip"
    bogus.write_text("not a zip at all")
    upload = _uploaded(bogus, charlie)
    assert upload.status == PackageUpload.Status.REJECTED
    assert upload.problems == ["package.zip: neither a package folder nor a zip archive"]
    client.force_login(charlie)
    page = client.get(reverse("authoring-upload", args=[upload.pk])).content.decode()
    assert "Rejected" in page and "neither a package folder nor a zip archive" in page
    assert ">Failed<" not in page


def test_a_zip_with_an_unsafe_member_is_rejected(charlie: User, tmp_path: Path) -> None:
    (tmp_path / "u2").mkdir()
    archive = tmp_path / "u2" / "evil.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("../outside.txt", "escape")
    upload = _uploaded(archive, charlie)
    assert upload.status == PackageUpload.Status.REJECTED
    assert upload.problems and upload.problems[0].startswith("evil.zip: ")


def test_an_internal_error_is_failed(
    charlie: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: object) -> None:
        raise RuntimeError("the case store is not writable")

    monkeypatch.setattr("fdeplatform.authoring.uploads.case_import", broken)
    (tmp_path / "u3").mkdir()
    upload = PackageUpload.objects.create(
        source_name="p.zip", path=str(tmp_path / "u3" / "p.zip"), uploaded_by=charlie
    )
    with pytest.raises(RuntimeError):
        upload_check(upload.pk)
    upload.refresh_from_db()
    assert upload.status == PackageUpload.Status.FAILED
    assert upload.problems == ["RuntimeError: the case store is not writable"]
