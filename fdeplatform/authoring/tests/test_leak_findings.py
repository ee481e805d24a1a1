"""Issue 24's findings reach the staff pages: a copied hidden file rejects the upload with both
files named, and a public text that asks a target's question shows on the version page with
its file and field."""

from __future__ import annotations

import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from evaluators.customer_checks import check_customer
from fdeplatform.authoring.models import PackageUpload, Validation
from fdeplatform.authoring.uploads import upload_check
from fdeplatform.cases.services import case_import

pytestmark = pytest.mark.django_db

TUTORIAL = Path(__file__).resolve().parents[3] / "cases" / "tutorial-bake-sale"


def _zipped(root: Path, archive: Path) -> Path:
    with zipfile.ZipFile(archive, "w") as bundle:
        for path in sorted(root.rglob("*")):
            if path.is_file():
                bundle.write(path, path.relative_to(root.parent).as_posix())
    return archive


def test_an_upload_with_the_reference_in_data_is_rejected_naming_both_files(
    client: Client, charlie: User, package: Callable[[str], Path], tmp_path: Path
) -> None:
    root = package("1.2.0")
    reference = (root / "hidden" / "reference.csv").read_text()
    (root / "data" / "plan.csv").write_bytes(reference.replace("\n", "\r\n").encode())
    archive = _zipped(root, tmp_path / "leaky.zip")
    upload = PackageUpload.objects.create(
        source_name=archive.name, path=str(archive), uploaded_by=charlie
    )
    upload_check(upload.pk)
    upload.refresh_from_db()
    assert upload.status == PackageUpload.Status.REJECTED
    assert any(
        p.startswith("data/plan.csv: repeats") and "hidden/reference.csv" in p
        for p in upload.problems
    ), upload.problems
    client.force_login(charlie)
    page = client.get(reverse("authoring-upload", args=[upload.pk])).content.decode()
    assert "Rejected" in page and "data/plan.csv" in page and "hidden/reference.csv" in page


def test_a_provenance_that_asks_a_rule_shows_on_the_version_page(
    client: Client, charlie: User, tmp_path: Path
) -> None:
    root = tmp_path / "tutorial-bake-sale"
    shutil.copytree(TUTORIAL, root, ignore=shutil.ignore_patterns("__pycache__"))
    toml = root / "case.toml"
    toml.write_text(
        toml.read_text().replace(
            "(hand-designed bakes,", "(bakes chosen by what may not be sold at a school,"
        )
    )
    problems, warnings, _ = check_customer(root / "hidden")
    assert any(p.startswith("case.toml: `provenance`") for p in problems), problems
    version = case_import(source=root, user=charlie, check_anchors=False, publish=False).version
    Validation.objects.create(
        version=version,
        digest=version.digest,
        status=Validation.Status.FAILED,
        report={"ok": False, "problems": problems, "warnings": warnings},
    )
    client.force_login(charlie)
    page = client.get(reverse("authoring-version", args=[version.pk])).content.decode()
    assert "<code>case.toml</code>" in page and "<code>provenance</code>" in page
    assert "reads as asking about target `nut_free_school`" in page
