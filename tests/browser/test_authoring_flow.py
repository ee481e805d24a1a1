"""Issue 11's authoring path in the browser: an admin uploads a package whose reference anchor
is broken, reads the report naming it, uploads the fixed version and submits it; a second
staff member publishes it; a player starts a run and cannot reach the authoring pages."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.support.browser import screenshot, start_run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "tiny-knapsack"
VALIDATION_S = 120_000


def _zip(tmp_path: Path, name: str, *, version: str, broken: bool) -> Path:
    root = tmp_path / name / "tiny-knapsack"
    shutil.copytree(FIXTURE, root)
    toml = root / "case.toml"
    toml.write_text(toml.read_text().replace('version = "1.0.0"', f'version = "{version}"'))
    if broken:  # the "reference" now follows the request word for word and breaks two rules
        shutil.copy(root / "hidden" / "anchors" / "literal.csv", root / "hidden" / "reference.csv")
    base = tmp_path / f"{name}-zip" / "tiny-knapsack"
    return Path(shutil.make_archive(str(base), "zip", root.parent, root.name))


def _log_in(page, live_url: str, username: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"{username}-password-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_selector(f"text={username}")


def _log_out(page) -> None:  # type: ignore[no-untyped-def]
    page.get_by_role("button", name="Log out").click()


def _upload(page, live_url: str, archive: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_url}/staff/cases/")
    page.set_input_files("#package-file", str(archive))
    page.get_by_role("button", name="Upload and validate").click()
    page.wait_for_url(re.compile(r"/staff/cases/versions/\d+/$"), timeout=VALIDATION_S)
    page.wait_for_selector("#verdict", timeout=VALIDATION_S)


def test_admin_fixes_a_broken_anchor_a_reviewer_publishes_a_player_plays(
    page, live_url: str, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import User

    User.objects.create_superuser("admin", "admin@example.org", "admin-password-1")
    User.objects.create_user("reviewer", password="reviewer-password-1", is_staff=True)
    User.objects.create_user("player", password="player-password-1")

    _log_in(page, live_url, "admin")
    _upload(page, live_url, _zip(tmp_path, "broken", version="1.0.0", broken=True))
    assert page.locator("#verdict").inner_text().startswith("Validation failed")
    reference = page.locator("#anchors tr[data-anchor='reference']")
    assert "fails" in reference.inner_text()
    assert "capacity_reduced" in reference.inner_text()  # the rules the anchor broke
    assert page.locator("#targets tr").count() == 6  # header + every target
    screenshot(page, "authoring-report-broken-anchor")

    _upload(page, live_url, _zip(tmp_path, "fixed", version="1.0.1", broken=False))
    assert page.locator("#verdict").inner_text().startswith("Validation passed")
    version_url = page.url
    page.get_by_role("button", name="Submit for review").click()
    page.wait_for_selector("[data-state='review']")
    assert page.locator("#publish-form").inner_text().strip().startswith("You uploaded")
    screenshot(page, "authoring-version-in-review")
    page.goto(f"{live_url}/staff/cases/")
    screenshot(page, "authoring-home")
    _log_out(page)

    _log_in(page, live_url, "reviewer")
    page.goto(version_url)
    page.get_by_role("button", name="Publish").click()
    page.wait_for_selector("h1 >> .. >> [data-state='published']")
    assert "approved by reviewer" in page.locator("#events").inner_text()
    screenshot(page, "authoring-version-published")
    page.get_by_role("link", name="Answer audit").click()
    assert page.locator("h1").inner_text() == "Answer audit"
    assert "No answers to audit yet" in page.locator("main").inner_text()
    screenshot(page, "authoring-answer-audit-empty")
    _log_out(page)

    _log_in(page, live_url, "player")
    response = page.goto(f"{live_url}/staff/cases/")
    assert response is not None and response.status == 404
    page.goto(f"{live_url}/cases/tiny-knapsack/")
    start_run(page)
    assert "Tiny fair van" in page.locator("h1").first.inner_text()
    screenshot(page, "authoring-player-run-started")
