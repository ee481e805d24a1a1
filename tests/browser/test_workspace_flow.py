"""A new player plays a practice run and a ranked run in the browser, without reloading."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import screenshot, start_run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
REFERENCE = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "cases"
    / "tiny-knapsack"
    / "hidden"
    / "reference.csv"
)


def _sign_up(page, live_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_url}/signup/")
    page.fill("#id_username", "player-one")
    page.fill("#id_password1", "correct-horse-battery-9")
    page.fill("#id_password2", "correct-horse-battery-9")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector("text=Welcome, player-one")


def _start(page, live_url: str, mode: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_url}/cases/tiny-knapsack/")
    page.select_option("#start-mode", mode)
    start_run(page)


def _ask(page, text: str, expected_answers: int) -> None:  # type: ignore[no-untyped-def]
    page.fill("#ask-text", text)
    page.keyboard.press("Control+Enter")
    # A locator wait, not wait_for_function: the page's CSP forbids evaluating strings.
    page.locator("#chat-log .msg-a").nth(expected_answers - 1).wait_for()
    assert page.locator("#chat-log .msg-a").count() == expected_answers


def _upload(page) -> None:  # type: ignore[no-untyped-def]
    page.set_input_files("#upload-file", str(REFERENCE))
    page.get_by_role("button", name="Submit").click()


def test_practice_then_ranked_run_is_informed_and_off_the_board(
    page, live_url: str, knapsack: object
) -> None:  # type: ignore[no-untyped-def]
    _sign_up(page, live_url)

    _start(page, live_url, "practice")
    _ask(page, "How much weight can the van carry now?", 1)
    assert "12 kg" in page.locator("#chat-log .msg-a").first.inner_text()
    _ask(page, "Is there anything special about fragile items?", 2)
    assert page.locator("#rounds").inner_text().startswith("2 /")
    url = page.url
    _upload(page)
    page.wait_for_selector("#submissions .score-line", timeout=60_000)
    # Practice shows a band next to the business value, never the exact score.
    assert page.locator("#submissions .score-line").inner_text() == "At or above the reference"
    assert page.url == url  # no navigation happened
    screenshot(page, "workspace-practice")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close run").click()
    page.wait_for_selector("#run-status[data-status='closed']", timeout=60_000)

    # Having seen a practice verdict, the player's ranked run on the case is informed.
    _start(page, live_url, "ranked")
    assert page.locator("#run-standing").inner_text() == "informed"
    assert "informed" in page.locator("#standing-note").inner_text()
    _upload(page)
    page.wait_for_selector("#submissions .ok-line")
    assert page.locator("#submissions .score-line").count() == 0
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close run").click()
    page.wait_for_selector("#submissions .score-line", timeout=60_000)
    assert "Run score: 1.0000" in page.locator("#final-score").inner_text()
    screenshot(page, "workspace-ranked-closed")

    page.goto(f"{live_url}/leaderboard/")
    assert "player-one" not in page.locator("main").inner_text()  # informed: not on the board
    page.goto(f"{live_url}/leaderboard/?standing=informed")
    assert "player-one" in page.locator("main").inner_text()
    page.goto(f"{live_url}/runs/")
    assert "informed" in page.locator("main").inner_text()
