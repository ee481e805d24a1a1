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
def test_validate_cases_lists_the_value_probes_and_the_fuzz_step(
    settings: object, package: Path
) -> None:
    settings.CASES_DIR = package.parent  # type: ignore[attr-defined]
    out = StringIO()
    call_command("validate_cases", "--json", stdout=out)
    (report,) = json.loads(out.getvalue())
    assert [probe["got"] for probe in report["value_probes"]] == [
        "valid",
        "breaks capacity_reduced",
    ]
    assert report["fuzz"][0]["variant"] == "rows in reverse order"
    out = StringIO()
    call_command("validate_cases", stdout=out)
    assert "value probes 2/2 as expected; fuzz 4 variations, 1 scored" in out.getvalue()


@pytest.mark.django_db
def test_validate_cases_names_the_isolation_the_evaluator_ran_under(
    settings: object, package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CASES_DIR = package.parent  # type: ignore[attr-defined]
    monkeypatch.setenv("EVALUATOR_ISOLATION", "process")
    out = StringIO()
    call_command("validate_cases", "--json", stdout=out)
    (report,) = json.loads(out.getvalue())
    assert report["isolation"] in ("process+landlock", "process")
    out = StringIO()
    call_command("validate_cases", stdout=out)
    assert f"! the evaluator ran under {report['isolation']} isolation" in out.getvalue()


@pytest.mark.django_db
def test_validate_cases_exits_1_on_failure(settings: object, package: Path) -> None:
    settings.CASES_DIR = package.parent  # type: ignore[attr-defined]
    shutil.copy(
        package / "hidden" / "reference.csv", package / "hidden" / "anchors" / "baseline.csv"
    )
    with pytest.raises(CommandError, match="1 of 1 package"):
        call_command("validate_cases", stdout=StringIO())


@pytest.mark.django_db
def test_server_start_admits_bundled_cases_and_refuses_a_failing_one(
    settings: object, tmp_path: Path
) -> None:
    bundled = tmp_path / "bundled"
    shutil.copytree(FIXTURES / "tiny-knapsack", bundled / "tiny-knapsack")
    broken = bundled / "tiny-restock"
    shutil.copytree(FIXTURES / "tiny-restock", broken)
    # The evaluator crashes on every file: format checks pass, admission does not.
    (broken / "hidden" / "evaluator.py").write_text(
        "def evaluate(submission, data_dir, hidden_dir):\n    raise ValueError('boom')\n"
    )
    settings.CASES_DIR = bundled  # type: ignore[attr-defined]
    out, err = StringIO(), StringIO()
    call_command("load_bundled_cases", stdout=out, stderr=err)
    assert "imported: tiny-knapsack" in out.getvalue()
    assert "not published: tiny-restock failed admission: reference: the evaluator failed" in (
        err.getvalue()
    )
    assert "ValueError: boom" in err.getvalue()
    assert list(Case.objects.values_list("slug", flat=True)) == ["tiny-knapsack"]
    assert Case.objects.get().current_version.admission["ok"] is True


@pytest.mark.django_db
def test_changed_content_under_the_same_version_number_is_imported_with_a_warning(
    package: Path,
) -> None:
    call_command("import_case", str(package), stdout=StringIO())
    (package / "instruction.md").write_text((package / "instruction.md").read_text() + "\nP.S.\n")
    call_command("import_case", str(package), stdout=StringIO())
    latest = Case.objects.get().current_version
    assert any(
        "is already on the site with other content; raise `version`" in warning
        for warning in latest.admission["warnings"]
    )


@pytest.mark.django_db
def test_a_case_cannot_point_at_another_cases_version(package: Path, tmp_path: Path) -> None:
    from django.contrib.auth.models import User
    from django.core.exceptions import ValidationError
    from django.test import Client

    call_command("import_case", str(package), stdout=StringIO())
    other = tmp_path / "tiny-restock"
    shutil.copytree(FIXTURES / "tiny-restock", other)
    call_command("import_case", str(other), stdout=StringIO())
    knapsack = Case.objects.get(slug="tiny-knapsack")
    restock_version = Case.objects.get(slug="tiny-restock").current_version
    knapsack.current_version = restock_version
    with pytest.raises(ValidationError, match="belongs to another case"):
        knapsack.save()

    admin = User.objects.create_superuser("root", password="pw-long-enough-1")
    client = Client()
    client.force_login(admin)
    page = client.get(f"/admin/cases/case/{knapsack.pk}/change/").content.decode()
    assert f'value="{restock_version.pk}"' not in page
    knapsack.refresh_from_db()
    assert f'value="{knapsack.current_version_id}"' in page


@pytest.mark.django_db
def test_validate_cases_takes_a_package_folder_or_zip_anywhere(
    package: Path, tmp_path: Path
) -> None:
    archive = tmp_path / "proposal.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in package.rglob("*"):
            zf.write(path, Path("tiny-knapsack") / path.relative_to(package))
    out = StringIO()
    call_command("validate_cases", "--json", str(package), str(archive), stdout=out)
    reports = json.loads(out.getvalue())
    assert [(r["slug"], r["ok"]) for r in reports] == [("tiny-knapsack", True)] * 2
