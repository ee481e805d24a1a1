"""The staff version report and the compare page show a case's variants (issue 26)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from fdeplatform.authoring.models import Validation
from fdeplatform.cases.models import CaseVersion
from fdeplatform.cases.services import case_import

FIXTURE = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases" / "tiny-variants"


def _row(variant: str, title: str, reference: float, ok: bool = True) -> dict[str, Any]:
    return {
        "id": variant,
        "title": title,
        "summary": "",
        "scoring": {"reference_value": reference, "baseline_value": 0.0},
        "anchors": {"reference": 1.0, "baseline": 0.0, "literal": 0.0, "shortcuts": [0.5]},
        "counterfactuals": {"capacity_reduced": "invalid", "handling_fee": 0.7},
        "ok": ok,
    }


def _report(*rows: dict[str, Any]) -> dict[str, Any]:
    cross = [
        {"reference_of": "base", "scored_on": "light-van", "valid": False, "score": None,
         "broke": ["capacity_reduced"], "ok": True},
    ]  # fmt: skip
    return {"ok": True, "variants": list(rows), "cross_variant": cross, "problems": []}


def _version(tmp_path: Path, charlie: User, version: str, drop: str = "") -> CaseVersion:
    root = tmp_path / version / "tiny-variants"
    shutil.copytree(FIXTURE, root)
    toml = root / "case.toml"
    toml.write_text(toml.read_text().replace('version = "1.0.0"', f'version = "{version}"'))
    if drop:
        shutil.rmtree(root / "hidden" / "variants" / drop)
    imported = case_import(source=root, user=charlie, check_anchors=False, publish=False)
    return imported.version


def test_the_version_page_shows_the_variant_table(
    client: Client, charlie: User, tmp_path: Path
) -> None:
    version = _version(tmp_path, charlie, "1.1.0")
    report = _report(_row("base", "", 44.0), _row("light-van", "Lighter van", 40.0, ok=False))
    Validation.objects.create(
        version=version, digest=version.digest, status=Validation.Status.PASSED, report=report
    )
    client.force_login(charlie)
    page = client.get(reverse("authoring-version", args=[version.pk])).content.decode()
    assert 'id="variants"' in page and 'data-variant="light-van"' in page
    assert "Lighter van" in page and 'id="cross-variant"' in page
    # The base variant's answers are shown with their figures, not the placeholders.
    assert "the van only takes 12 kg" in page and "{{van_capacity}}" not in page


def test_the_compare_page_lists_variants_added_and_changed(
    client: Client, charlie: User, tmp_path: Path
) -> None:
    old = _version(tmp_path, charlie, "1.1.0", drop="big-fee")
    new = _version(tmp_path, charlie, "1.2.0")
    for version, rows in (
        (old, [_row("base", "", 44.0), _row("light-van", "Lighter van", 40.0)]),
        (new, [_row("base", "", 44.0), _row("light-van", "Lighter van", 39.0),
               _row("big-fee", "Roomier van", 30.0)]),
    ):  # fmt: skip
        Validation.objects.create(
            version=version, digest=version.digest, status=Validation.Status.PASSED,
            report=_report(*rows),
        )  # fmt: skip
    client.force_login(charlie)
    url = reverse("authoring-diff", args=["tiny-variants"]) + f"?a={old.pk}&b={new.pk}"
    page = client.get(url).content.decode()
    section = page[page.index('id="diff-variants"') :]
    assert "<code>big-fee</code>" in section and "absent" in section
    assert "R 39.0" in section and "changed" in section
