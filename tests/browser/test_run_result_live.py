"""During and after a ranked run in the browser: the upload limit is shown before uploading, the
upload that counts is marked, the report says it opens at close, and its link appears live
when the run closes (from the websocket's status frame, without a reload); then the case
table, profile, activity feed and home page show the result, and every page fits 390 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import (
    KNAPSACK_REFERENCE,
    PHONE,
    axe_violations,
    screenshot,
    sign_up,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
REFERENCE = KNAPSACK_REFERENCE


def _upload(page: Any, path: Path) -> None:
    count = page.locator("#submissions li.sub").count()
    page.set_input_files("#upload-file", str(path))
    page.get_by_role("button", name="Submit").click()
    # An upload is listed once its format check has run (a sandboxed process): on a loaded
    # machine that takes longer than Playwright's 15 s default, as the close below does.
    page.locator("#submissions li.sub").nth(count).wait_for(timeout=60_000)


def _fits(page: Any) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"page is {overflow}px wider than the viewport"


def test_ranked_run_marks_the_counting_upload_and_links_its_report_live(
    page: Any, browser: Any, live_url: str, knapsack: object, tmp_path: Path
) -> None:
    sign_up(page, live_url, "ranked-rita")
    page.goto(f"{live_url}/cases/tiny-knapsack/")
    page.select_option("#start-mode", "ranked")
    page.get_by_role("button", name="Start run").click()
    page.wait_for_selector("#conn[data-state='live']")
    workspace = page.url
    run_id = workspace.rstrip("/").rsplit("/", 1)[-1]

    limit = page.locator("#upload-limit").inner_text()
    assert "Up to 50 uploads in this run (0 used)" in limit and "MB" in limit
    assert page.locator("#report-link").is_hidden()

    # Before the run ends, its own report says it opens at close (not a 404).
    report = page.context.new_page()
    response = report.goto(f"{live_url}/runs/{run_id}/report/")
    assert response is not None and response.status == 200
    assert "This report opens when the run closes" in report.locator("main").inner_text()
    report.close()

    _upload(page, REFERENCE)
    broken = tmp_path / "broken.csv"
    broken.write_text("sku\nI01\n", encoding="utf-8")
    _upload(page, broken)
    # The malformed later upload does not replace the valid one: #1 still counts.
    counting = page.locator("#submissions li.sub-counts")
    assert counting.count() == 1 and counting.get_attribute("data-number") == "1"
    assert "scored when you close the run" in counting.inner_text()
    assert "(2 used)" in page.locator("#upload-limit").inner_text()
    screenshot(page, "workspace-ranked-open-1280")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close run").click()
    page.wait_for_selector("#report-link:not([hidden])", timeout=60_000)
    assert page.url == workspace  # the link came live, nothing reloaded
    final = page.locator("#final-score").inner_text()
    assert "Run score: 1.0000" in final and "EUR net margin" in final
    assert (
        "the run was scored on this upload"
        in page.locator("#submissions li.sub-counts").inner_text()
    )
    screenshot(page, "workspace-ranked-closed-1280")

    page.locator("#report-link").click()
    page.wait_for_selector("#report-value")
    assert "EUR net margin" in page.locator("#report-value").inner_text()
    screenshot(page, "report-ranked-1280")

    # The pages that show progress: the case table, the profile, the feed and the home page.
    pages = [
        ("workspace-ranked-closed", workspace),
        ("report-ranked", page.url),
        ("cases", f"{live_url}/cases/"),
        ("profile", f"{live_url}/players/ranked-rita/"),
        ("activity", f"{live_url}/activity/"),
        ("home", f"{live_url}/"),
    ]
    page.goto(f"{live_url}/cases/")
    row = page.locator("tr[data-case='tiny-knapsack']")
    assert "✓ solved" in row.inner_text() and "1.000" in row.inner_text()
    page.get_by_role("link", name="Profile").click()
    page.wait_for_selector("#chart-progress[data-ready='true']")
    assert page.locator("#history tr[data-run]").count() == 1
    page.get_by_role("link", name="Activity").click()
    assert "ranked-rita" in page.locator("#activity").inner_text()
    for name, url in pages[2:]:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        screenshot(page, f"{name}-1280")

    phone = browser.new_context(**PHONE, storage_state=page.context.storage_state())
    small = phone.new_page()
    for name, url in pages:
        small.goto(url)
        small.wait_for_load_state("networkidle")
        _fits(small)
        screenshot(small, f"{name}-390")
    phone.close()

    # axe-core finds no WCAG level A or AA violation on these pages (axe is injected: CSP bypassed).
    checked = browser.new_context(bypass_csp=True, storage_state=page.context.storage_state())
    axe_page = checked.new_page()
    found = {}
    for name, url in pages:
        axe_page.goto(url)
        axe_page.wait_for_load_state("networkidle")
        if violations := axe_violations(axe_page):
            found[name] = violations
    checked.close()
    assert found == {}


def test_a_hidden_run_shows_na_for_clarification_metrics(
    page: Any, browser: Any, live_url: str, knapsack: object
) -> None:
    sign_up(page, live_url, "hidden-hana")
    page.goto(f"{live_url}/cases/tiny-knapsack/")
    page.select_option("#start-mode", "ranked")
    page.locator("#start-advanced summary").click()  # the research conditions (issue 28)
    page.check("#cond-hidden")
    page.get_by_role("button", name="Start run").click()
    page.wait_for_selector("#conn[data-state='live']")
    _upload(page, REFERENCE)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close run").click()
    page.wait_for_selector("#report-link:not([hidden])", timeout=60_000)
    page.locator("#report-link").click()
    page.wait_for_selector("#report-score")
    summary = page.locator("section[aria-label='Result']").inner_text()
    assert "n/a" in summary and "0.000" not in summary
    screenshot(page, "report-hidden-1280")

    page.goto(f"{live_url}/leaderboard/?condition=hidden")
    row = page.locator("tr[data-config='human:hidden-hana@hidden']")
    assert row.inner_text().count("n/a") == 6
    screenshot(page, "leaderboard-hidden-1280")
    phone = browser.new_context(**PHONE, storage_state=page.context.storage_state())
    small = phone.new_page()
    small.goto(f"{live_url}/leaderboard/?condition=hidden")
    small.wait_for_load_state("networkidle")
    _fits(small)
    screenshot(small, "leaderboard-hidden-390")
    phone.close()
