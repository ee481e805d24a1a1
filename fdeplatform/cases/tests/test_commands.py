"""import_case, validate_cases and the version pinning of imported packages."""

from __future__ import annotations

import json
import shutil
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from fdeplatform.cases.models import Case, CaseVersion

FIXTURES = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases"


@pytest.fixture
def package(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny-knapsack"
    shutil.copytree(FIXTURES / "tiny-knapsack", folder)
    return folder


@pytest.mark.django_db
def test_import_case_checks_anchors_and_publishes(package: Path) -> None:
    out = StringIO()
    call_command("import_case", str(package), stdout=out)
    assert "imported tiny-knapsack" in out.getvalue()
    case = Case.objects.get(slug="tiny-knapsack")
    assert case.published and case.current_version is not None
    assert case.current_version.admission["ok"] is True
    assert case.current_version.target_count == len(
        json.loads((package / "hidden/gt.json").read_text())["targets"]
    )


@pytest.mark.django_db
def test_importing_twice_is_a_no_op_and_a_change_makes_a_new_version(package: Path) -> None:
    call_command("import_case", str(package), stdout=StringIO())
    out = StringIO()
    call_command("import_case", str(package), stdout=out)
    assert "unchanged" in out.getvalue()
    first = Case.objects.get().current_version
    (package / "instruction.md").write_text(
        (package / "instruction.md").read_text() + "\nThanks!\n"
    )
    call_command("import_case", str(package), stdout=StringIO())
    case = Case.objects.get()
    assert CaseVersion.objects.count() == 2
    assert case.current_version != first
    assert first is not None and first.package_dir.is_dir()  # old runs keep their evaluator


@pytest.mark.django_db
def test_import_case_accepts_a_zip(package: Path, tmp_path: Path) -> None:
    archive = tmp_path / "case.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in package.rglob("*"):
            zf.write(path, arcname=str(path.relative_to(package.parent)))
    call_command("import_case", str(archive), stdout=StringIO())
    assert Case.objects.filter(slug="tiny-knapsack").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("breakage", "named"),
    [
        ("missing_file", "instruction.md"),
        ("malformed_gt", "gt.json"),
        ("broken_anchor", "literal"),
    ],
)
def test_a_broken_package_is_rejected_with_the_problem_named(
    package: Path, breakage: str, named: str
) -> None:
    if breakage == "missing_file":
        (package / "instruction.md").unlink()
    elif breakage == "malformed_gt":
        (package / "hidden" / "gt.json").write_text('{"targets": [ {"key": "x",')
    else:
        # The literal-compliance anchor now equals the reference, so it scores 1.0 > 0.2.
        shutil.copy(
            package / "hidden" / "reference.csv", package / "hidden" / "anchors" / "literal.csv"
        )
    with pytest.raises(CommandError) as err:
        call_command("import_case", str(package), stdout=StringIO())
    assert named in str(err.value)
    assert not Case.objects.exists()


@pytest.mark.django_db
def test_validate_cases_json_reports_each_package(settings: object, package: Path) -> None:
    settings.CASES_DIR = package.parent  # type: ignore[attr-defined]
    out = StringIO()
    call_command("validate_cases", "--json", stdout=out)
    (report,) = json.loads(out.getvalue())
    assert report["slug"] == "tiny-knapsack" and report["ok"] is True
    assert report["anchors"]["reference"] == pytest.approx(1.0)
    assert {"version", "family", "targets"} <= set(report)


@pytest.mark.django_db
def test_validate_cases_exits_1_on_failure(settings: object, package: Path) -> None:
    settings.CASES_DIR = package.parent  # type: ignore[attr-defined]
    shutil.copy(
        package / "hidden" / "reference.csv", package / "hidden" / "anchors" / "baseline.csv"
    )
    with pytest.raises(CommandError, match="1 of 1 package"):
        call_command("validate_cases", stdout=StringIO())
