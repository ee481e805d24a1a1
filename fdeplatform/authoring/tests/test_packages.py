"""Versions are immutable; an export re-imports to the same digest; the diff names changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from evaluators.package import package_digest
from fdeplatform.authoring.packages import ExportError, version_diff, version_export_zip
from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.cases.services import case_import


def test_a_stored_versions_digest_and_files_cannot_be_edited(knapsack: Case) -> None:
    version = knapsack.current_version
    assert version is not None
    version.digest = "f" * 64
    with pytest.raises(ValidationError, match="immutable"):
        version.save()
    version.refresh_from_db()
    version.storage_dir = "elsewhere"
    with pytest.raises(ValidationError, match="immutable"):
        version.save()


def test_the_lifecycle_state_may_change(knapsack: Case) -> None:
    version = knapsack.current_version
    assert version is not None
    version.state = CaseVersion.State.RETIRED
    version.save(update_fields=["state"])


def test_the_same_package_again_is_a_no_op(
    knapsack: Case, charlie: User, package: Callable[[str], Path]
) -> None:
    root = package("1.1.0")
    first = case_import(source=root, user=charlie, check_anchors=False, publish=False)
    again = case_import(source=root, check_anchors=False, publish=False)
    assert not again.created and again.version == first.version
    assert CaseVersion.objects.filter(case=knapsack).count() == 2


def test_an_export_reimports_to_the_same_digest(
    tmp_path: Path, knapsack: Case, charlie: User, package: Callable[[str], Path]
) -> None:
    version = case_import(
        source=package("1.2.0"), user=charlie, check_anchors=False, publish=False
    ).version
    archive = tmp_path / "export.zip"
    archive.write_bytes(version_export_zip(version))
    assert package_digest(archive) == version.digest
    outcome = case_import(source=archive, check_anchors=False, publish=False)
    assert not outcome.created and outcome.version.pk == version.pk


def test_an_export_of_a_tampered_copy_is_refused(
    knapsack: Case, charlie: User, package: Callable[[str], Path]
) -> None:
    version = case_import(
        source=package("1.3.0"), user=charlie, check_anchors=False, publish=False
    ).version
    (version.package_dir / "data" / "items.csv").write_text("x\n1\n")
    with pytest.raises(ExportError):
        version_export_zip(version)


def test_the_diff_names_files_targets_and_anchor_scores(
    knapsack: Case, charlie: User, package: Callable[[str], Path]
) -> None:
    root = package("2.0.0")
    gt = json.loads((root / "hidden" / "gt.json").read_text())
    gt["targets"][0]["requirement"] = "The van now takes 11 kg."
    (root / "hidden" / "gt.json").write_text(json.dumps(gt))
    (root / "data" / "notes.txt").write_text("new file")
    new = case_import(source=root, user=charlie, check_anchors=False, publish=False).version
    old = knapsack.current_version
    assert old is not None
    reports = (
        {"anchor_results": {"reference": {"valid": True, "score": 1.0, "broke": []}}},
        {
            "anchor_results": {
                "reference": {"valid": False, "score": 0.0, "broke": ["hazmat_excluded"]}
            }
        },
    )
    diff = version_diff(old, new, reports)
    assert diff.files_added == ["data/notes.txt"]
    assert {"case.toml", "hidden/gt.json"} <= set(diff.files_changed)
    assert diff.targets_added == diff.targets_removed == []
    assert [c.name for c in diff.targets_changed] == [gt["targets"][0]["key"]]
    assert diff.anchors[0].changed
