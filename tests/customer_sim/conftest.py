"""Shared fixtures: the bakery-routes script in tests/fixtures/customer (two stakeholders, six
facts, one misconception) and a fresh customer built from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from customer_sim.scripted import ScriptedCustomer

FIXTURE_CASE = Path(__file__).resolve().parents[1] / "fixtures" / "customer" / "bakery-routes"


@pytest.fixture
def hidden_dir() -> Path:
    return FIXTURE_CASE / "hidden"


@pytest.fixture
def customer(hidden_dir: Path) -> ScriptedCustomer:
    return ScriptedCustomer.from_hidden_dir(hidden_dir)
