"""Shipped admission reports: a fresh start verifies digests instead of re-admitting, and a
report is used only for the exact bytes it was made for."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.cases.shipped_admission import shipped_path, shipped_report

FIXTURES = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases"


@pytest.fixture
def bundled(settings: object, tmp_path: Path) -> Path:
    root = tmp_path / "bundled"
    shutil.copytree(FIXTURES / "tiny-knapsack", root / "tiny-knapsack")
    settings.CASES_DIR = root  # type: ignore[attr-defined]
    return root / "tiny-knapsack"


def _load(*args: str) -> str:
    out, err = StringIO(), StringIO()
    call_command("load_bundled_cases", *args, stdout=out, stderr=err)
    assert not err.getvalue(), err.getvalue()
    return out.getvalue()


@pytest.mark.django_db
def test_a_refresh_writes_the_report_and_a_fresh_site_only_verifies_it(bundled: Path) -> None:
    printed = _load("--refresh-shipped")
    assert "admitted: tiny-knapsack after" in printed and "shipped:" in printed
    record = json.loads(shipped_path(bundled).read_text())
    assert record["report"]["ok"] is True and len(record["digest"]) == 64
    admitted = Case.objects.get().current_version.admission

    CaseVersion.objects.all().delete()  # a new install: the database knows nothing
    Case.objects.all().delete()
    printed = _load()
    assert "verified: tiny-knapsack" in printed and "admitting" not in printed
    version = Case.objects.get().current_version
    assert version.admission["anchors"] == admitted["anchors"]


@pytest.mark.django_db
def test_a_report_made_for_other_bytes_is_ignored_and_the_case_admitted(bundled: Path) -> None:
    _load("--refresh-shipped")
    CaseVersion.objects.all().delete()
    Case.objects.all().delete()
    (bundled / "instruction.md").write_text((bundled / "instruction.md").read_text() + "\nP.S.\n")
    assert shipped_report(bundled) is None
    printed = _load()
    assert "verified" not in printed and "admitting 1 package(s): tiny-knapsack" in printed
    assert Case.objects.get().current_version.admission["ok"] is True


def test_a_failed_or_unreadable_record_is_never_used(bundled: Path) -> None:
    path = shipped_path(bundled)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert shipped_report(bundled) is None
    path.write_text(json.dumps({"digest": "x", "report": {"ok": False}}))
    assert shipped_report(bundled) is None
