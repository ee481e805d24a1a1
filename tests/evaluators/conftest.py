"""Shared fixtures: writable copies of the toy case packages in tests/fixtures/cases."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURE_CASES = Path(__file__).resolve().parents[1] / "fixtures" / "cases"


def copy_case(slug: str, destination: Path) -> Path:
    """A writable copy, so a test can break one file without touching the fixtures."""
    target = destination / slug
    shutil.copytree(
        FIXTURE_CASES / slug, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    return target


@pytest.fixture
def knapsack(tmp_path: Path) -> Path:
    """tiny-knapsack: CSV deliverable, ratio normalisation, maximise (R = 44)."""
    return copy_case("tiny-knapsack", tmp_path)


@pytest.fixture
def restock(tmp_path: Path) -> Path:
    """tiny-restock: JSON deliverable, uplift normalisation, minimise (R = 1378, B = 2060)."""
    return copy_case("tiny-restock", tmp_path)


@pytest.fixture
def upload(tmp_path: Path) -> Callable[[str | bytes, str], Path]:
    """Write an uploaded file and return its path."""
    counter = iter(range(1_000_000))

    def write(content: str | bytes, suffix: str = ".csv") -> Path:
        path = tmp_path / f"upload-{next(counter)}{suffix}"
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        return path

    return write
