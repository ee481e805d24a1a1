"""In a real browser: open the leaderboard, filter and sort it, open a configuration, a run
report and the charts, on a desktop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from fdeplatform.leaderboards.tests.factories import build_standard, user
from fdeplatform.leaderboards.tests.test_privacy import judged_run
from tests.support.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def played(knapsack: Any) -> dict[str, Any]:
    data = build_standard()
    runs = [judged_run(knapsack, data["bob"]) for _ in range(3)]
    for n in range(3):
        judged_run(knapsack, user("botmaker"), agent="bot-a")
        judged_run(knapsack, user(f"carol{n}"))
    return {**data, "bob_run": runs[0]}


def _configs(page: Any) -> list[str]:
    return page.locator("#board tbody tr").evaluate_all("rows => rows.map(r => r.dataset.config)")


def _log_in(page: Any, live_url: str, username: str) -> None:
    page.goto(f"{live_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-12345678")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/login/" not in url)


def test_board_filters_config_report_and_charts(page: Any, live_url: str, played: Any) -> None:
    page.goto(f"{live_url}/leaderboard/")
    page.wait_for_selector("#chart-scatter[data-ready='true'] .main-svg")
    page.wait_for_selector("#chart-domains[data-ready='true'] .main-svg")
    assert _configs(page)[:2] == ["human:bob@interact_req", "agent:bot-a@interact_req"]
    assert "human:alice@interact_req" in _configs(page)
    screenshot(page, "leaderboard-desktop")

    page.select_option("select[name=who]", "agents")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url("**who=agents**")
    assert all(config.startswith("agent:") for config in _configs(page))

    page.get_by_role("link", name="Recall").click()
    page.wait_for_url("**sort=-recall**")
    assert "who=agents" in page.url  # sorting keeps the filters

    page.locator("#board a", has_text="bot-a").first.click()
    page.wait_for_selector("h1:has-text('bot-a')")
    assert page.locator("section.card h3").count() == 4  # alpha, beta, gamma, tiny-knapsack

    _log_in(page, live_url, "bob")
    page.goto(f"{live_url}/leaderboard/config/human/bob/")
    page.locator("a", has_text="Report").last.click()  # cases in slug order: tiny-knapsack
    page.wait_for_selector("#coverage")
    assert page.locator("#report-score").inner_text() == "0.7000"
    screenshot(page, "run-report-desktop")

    page.goto(f"{live_url}/runs/{played['bob_run'].pk}/report/")
    assert "The van now takes 12 kg, not 15 kg." in page.locator("#coverage").inner_text()
    assert page.locator("#timeline li").count() == 3  # two exchanges and the submission

    page.goto(f"{live_url}/leaderboard/case/tiny-knapsack/")
    page.wait_for_selector("#chart-scores[data-ready='true'] .main-svg")
    assert page.locator("#chart-scores .bars path").count() >= 1
    assert page.locator("#most-covered code").first.inner_text() == "capacity_reduced"
    screenshot(page, "leaderboard-case-desktop")


def test_pages_fit_a_phone(browser: Any, live_url: str, played: Any) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_url}/leaderboard/")
        page.wait_for_selector("#chart-scatter[data-ready='true'] .main-svg")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]  # the wide table scrolls inside its card, not the page
        screenshot(page, "leaderboard-phone")
        page.goto(f"{live_url}/leaderboard/conditions/")
        page.wait_for_selector("#chart-deltas[data-ready='true'] .main-svg")
        screenshot(page, "leaderboard-conditions-phone")
        _log_in(page, live_url, "bob")
        page.goto(f"{live_url}/runs/{played['bob_run'].pk}/report/")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "run-report-phone")
    finally:
        context.close()
