"""The authoring cast: Charlie (staff, conftest) uploads, Dana is a second staff member, Alice a
player. Packages are copies of the tiny-knapsack fixture."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from fdeplatform.authoring.models import Validation
from fdeplatform.cases.models import CaseVersion
from fdeplatform.cases.services import case_import

FIXTURE = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "cases" / "tiny-knapsack"


@pytest.fixture
def dana(db: None) -> User:
    """A second staff member, who reviews what Charlie uploads."""
    return User.objects.create_user("dana", "dana@example.org", "dana-password-1", is_staff=True)


@pytest.fixture
def package(tmp_path: Path) -> Callable[[str], Path]:
    """A copy of tiny-knapsack with its case.toml version set (so its digest differs)."""

    def make(version: str = "1.1.0") -> Path:
        root = tmp_path / version / "tiny-knapsack"
        shutil.copytree(FIXTURE, root)
        toml = root / "case.toml"
        toml.write_text(toml.read_text().replace('version = "1.0.0"', f'version = "{version}"'))
        return root

    return make


@pytest.fixture
def draft(charlie: User, package: Callable[[str], Path]) -> CaseVersion:
    """A draft version Charlie uploaded, with a passing validation of its digest."""
    version = case_import(
        source=package("1.1.0"), user=charlie, check_anchors=False, publish=False
    ).version
    Validation.objects.create(
        version=version, digest=version.digest, status=Validation.Status.PASSED, report={"ok": True}
    )
    return version
