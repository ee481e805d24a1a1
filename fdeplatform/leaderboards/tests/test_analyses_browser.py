"""In a real browser: reach the analyses page from the board, on a desktop and on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fdeplatform.leaderboards.tests.test_analyses import played  # noqa: F401 (fixture)
from tests.support import processes
from tests.support.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def server(played: dict[str, Any], tmp_path: Path) -> Iterator[str]:  # noqa: F811
    """A daphne that reads the fixture's case targets (gt.json) from the test's case store."""
    with processes.daphne(REDIS_URL="", CELERY_BROKER_URL="", CASE_STORE=str(tmp_path)) as url:
        yield url


def test_analyses_page_from_the_board(page: Any, server: str) -> None:
    page.goto(f"{server}/leaderboard/?k=1")
    page.locator("#analyses-link").click()
    page.wait_for_url("**/leaderboard/analyses/?k=1")
    page.wait_for_selector("#chart-rq2[data-ready='true'] .main-svg")
    assert page.locator("#chart-rq2 .scatterlayer .point").count() == 8  # 4 rows x 2 metrics
    recall = page.locator("#correlations tr[data-metric='recall'] td")
    assert recall.nth(3).inner_text() == "+0.800"
    gap = page.locator("#gap-table tbody tr").first.locator("td").last.inner_text()
    assert gap.startswith("83%")  # then its interval
    assert "33%" in page.locator("#gym-table tr[data-config='agent:one@interact_req']").inner_text()
    screenshot(page, "leaderboard-analyses-desktop")


def test_analyses_page_fits_a_phone(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/leaderboard/analyses/?k=1")
        page.wait_for_selector("#chart-rq2[data-ready='true'] .main-svg")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "the page scrolls sideways (tables scroll in their card)"
        screenshot(page, "leaderboard-analyses-phone")
    finally:
        context.close()
