"""Every case bundled with the site is admissible: `validate_cases --json` exits 0."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from fdeplatform.cases.services import bundled_packages

EXPECTED = {"warehouse-restack", "battery-dispatch", "credit-default"}


@pytest.mark.slow
def test_validate_cases_admits_every_bundled_case() -> None:
    out = StringIO()
    call_command("validate_cases", "--json", stdout=out)
    reports = json.loads(out.getvalue())
    for report in reports:
        anchors = report["anchors"]
        print(
            f"{report['slug']} {report['version']}: {report['targets']} targets, reference "
            f"{anchors['reference']:.4f}, baseline {anchors['baseline']:.4f}, literal "
            f"{anchors['literal']:.4f}, shortcuts {anchors['shortcuts']}"
        )
        assert report["ok"], report.get("problems")
        assert report["targets"] >= 5
    assert {r["slug"] for r in reports} == {p.name for p in bundled_packages()}


def test_every_bundled_case_ships_the_admission_of_its_current_bytes() -> None:
    """cases/admitted/<slug>.json lets a fresh start verify digests instead of re-admitting
    (fdeplatform.cases.shipped_admission); a report made for other bytes would stand in for a
    package it never admitted, so a stale one fails here, and the test above admits for real."""
    from fdeplatform.cases.shipped_admission import shipped_report

    stale = [p.name for p in bundled_packages() if shipped_report(p) is None]
    assert not stale, (
        f"no current shipped admission for {stale}: after changing a bundled case run "
        "`python manage.py load_bundled_cases --refresh-shipped` and commit cases/admitted/"
    )


def test_the_three_first_cases_are_bundled() -> None:
    assert {p.name for p in bundled_packages()} >= EXPECTED


@pytest.mark.django_db
def test_every_case_page_says_where_the_case_comes_from(
    client: Client, bundled_cases: list[Any]
) -> None:
    for case in bundled_cases:
        page = client.get(f"/cases/{case.slug}/").content.decode()
        assert 'id="provenance"' in page and "Synthetic." in page, case.slug
        assert "seeded script" in page
