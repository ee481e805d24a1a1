"""README "First steps in the browser", followed click by click at desktop and phone width.

Sign up from the top bar, open Cases, start the tutorial (listed first) as a practice run under
Interact-Req, find the people in "Who you can ask", ask one, upload the deliverable, see it
scored, close the run, read the report, then the profile and How it works. Every page on the
way fits the viewport and has no WCAG level A or AA violation (axe-core).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from fdeplatform.cases.services import case_import
from fdeplatform.runs.models import Run
from tests.support.browser import PHONE, axe_violations, open_menu, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TUTORIAL = Path(__file__).resolve().parents[2] / "cases" / "tutorial-bake-sale"
VIEWPORTS = {"desktop": {"viewport": {"width": 1280, "height": 900}}, "phone": PHONE}


def _nav(page: Any, name: str) -> None:
    """Click a top-bar link by its name, from the "Menu" on a phone."""
    header = page.locator("header")
    if not header.get_by_role("link", name=name, exact=True).count():
        open_menu(page)
    header.get_by_role("link", name=name, exact=True).first.click()
    page.wait_for_load_state()


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_a_new_player_follows_the_first_steps(
    browser: Any, live_url: str, knapsack: object, width: str
) -> None:
    case_import(source=TUTORIAL, check_anchors=False)
    context = browser.new_context(bypass_csp=True, **VIEWPORTS[width])
    page = context.new_page()
    visited: list[str] = []

    def check(name: str) -> None:
        page.wait_for_load_state("networkidle")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than the viewport"
        violations = axe_violations(page)
        assert violations == [], f"{name}: {violations}"
        screenshot(page, f"first-steps-{name}-{width}")
        visited.append(name)

    page.goto(live_url)
    check("home")
    _nav(page, "Sign up")  # step 2
    name = f"newcomer-{width}"
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.org")
    page.fill("#id_password1", "correct-horse-battery-9")
    page.fill("#id_password2", "correct-horse-battery-9")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector(f"text=Welcome, {name}")

    _nav(page, "Cases")  # step 3: the tutorial is the first case
    check("cases")
    first = page.locator("main a[href^='/cases/']").first
    assert "Tutorial" in first.inner_text()
    first.click()
    page.wait_for_selector("#tutorial-note")
    check("tutorial-case")
    assert page.locator("#start-mode").input_value() == "practice"
    assert page.locator("#start-condition").input_value() == "interact_req"
    page.get_by_role("button", name="Start run").click()
    page.wait_for_selector("#conn[data-state='live']")

    page.locator("#staff-directory summary").click()  # step 4
    directory = page.locator("#staff-directory").inner_text()
    assert "@priya" in directory and "@tom" in directory and "costs" in directory
    # A newcomer greets, asks, follows up and thanks: every reply must read as a reply.
    for turn, (text, expected) in enumerate(
        [
            ("Hi! First time doing this.", "happy to help|Glad you're looking|Good to have you"),
            ("@priya Do we still have 6 hours of oven time?", "5 hours"),
            ("why?", ""),
            ("ok thanks!", "welcome|No problem|Glad that helps"),
        ],
        start=1,
    ):
        page.fill("#ask-text", text)
        page.get_by_role("button", name="Send").click()
        page.wait_for_function(
            "n => document.querySelectorAll('#chat-log li.msg-a').length >= n", arg=turn
        )
        reply = page.locator("#chat-log li.msg-a").nth(turn - 1).inner_text()
        assert not re.search(r"can you be more specific|which part of|That:", reply), reply
        assert re.search(expected, reply), (text, reply)
    check("workspace")
    # The reference of the variant this run plays (docs/variants.md): the page never says
    # which, so the test looks it up (a player builds it from the run's data and answers).
    run = Run.objects.get(pk=page.url.rstrip("/").rsplit("/", 1)[-1])
    page.set_input_files("#upload-file", str(run.package_dir / "hidden" / "reference.csv"))
    page.get_by_role("button", name="Submit").click()
    page.wait_for_selector("#submissions .score-line", timeout=60_000)
    assert page.locator("#submissions .score-line").inner_text() == "At or above the reference"

    page.once("dialog", lambda dialog: dialog.accept())  # step 5
    page.get_by_role("button", name="Close run").click()
    page.wait_for_selector("#report-link:not([hidden])", timeout=60_000)
    page.locator("#report-link").click()
    page.wait_for_selector("#timeline")
    assert "Do we still have 6 hours of oven time?" in page.locator("#timeline").inner_text()
    check("report")

    _nav(page, "Profile")  # step 6
    assert name in page.locator("main h1").inner_text()
    check("profile")
    _nav(page, "How it works")
    assert page.locator("#metric-recall").is_visible()
    check("how-it-works")
    context.close()
    assert visited == ["home", "cases", "tutorial-case", "workspace", "report", "profile",
                       "how-it-works"]  # fmt: skip
