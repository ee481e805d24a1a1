"""Accounts in the browser (password change and reset), pages that fit a 390 px phone, and
axe-core finding no WCAG level A or AA violation on the pages a player sees."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import pytest

from conftest import LIVE_MAIL_DIR
from tests.support.browser import (
    KNAPSACK_REFERENCE,
    PHONE,
    axe_violations,
    screenshot,
    sign_up,
    start_run,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
REFERENCE = KNAPSACK_REFERENCE


def _play_practice_run(page: Any, live_url: str) -> str:
    """Start a practice run on tiny-knapsack, ask, upload the reference, close; the run's URL."""
    page.goto(f"{live_url}/cases/tiny-knapsack/")
    start_run(page)
    workspace = page.url
    page.fill("#ask-text", "How much weight can the van carry now?")
    page.keyboard.press("Control+Enter")
    page.locator("#chat-log .msg-a").first.wait_for()
    page.set_input_files("#upload-file", str(REFERENCE))
    page.get_by_role("button", name="Submit").click()
    page.wait_for_selector("#submissions .score-line", timeout=60_000)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close run").click()
    page.wait_for_selector("#run-status[data-status='closed']", timeout=60_000)
    return workspace


def _latest_mail_link() -> str:
    mails = sorted(LIVE_MAIL_DIR.glob("*.log"), key=lambda p: p.stat().st_mtime)
    assert mails, f"no mail in {LIVE_MAIL_DIR}"
    match = re.search(r"https?://\S+/password-reset/\S+/\S+/", mails[-1].read_text())
    assert match, mails[-1].read_text()
    return match.group(0)


def test_password_change_and_reset(page: Any, live_url: str) -> None:
    sign_up(page, live_url, "forgetful")
    page.get_by_role("link", name="forgetful").click()
    page.get_by_role("link", name="Change your password").click()
    page.fill("#id_old_password", "wrong-password")
    page.fill("#id_new_password1", "second-horse-battery-8")
    page.fill("#id_new_password2", "second-horse-battery-8")
    page.get_by_role("button", name="Change password").click()
    error = page.locator("#id_old_password_error")
    assert "incorrectly" in error.inner_text()
    assert page.get_attribute("#id_old_password", "aria-invalid") == "true"
    assert "id_old_password_error" in (
        page.get_attribute("#id_old_password", "aria-describedby") or ""
    )
    # Errors look like errors: the error colour, not the muted help-text grey.
    assert error.evaluate("e => getComputedStyle(e).color") == "rgb(179, 38, 30)"
    screenshot(page, "password-change-error")
    page.fill("#id_old_password", "correct-horse-battery-9")
    page.fill("#id_new_password1", "second-horse-battery-8")
    page.fill("#id_new_password2", "second-horse-battery-8")
    page.get_by_role("button", name="Change password").click()
    page.wait_for_selector("text=Password changed")

    page.get_by_role("button", name="Log out").click()
    page.goto(f"{live_url}/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.fill("#id_email", "forgetful@example.org")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_selector("text=Check your e-mail")
    page.goto(_latest_mail_link())
    page.fill("#id_new_password1", "third-horse-battery-7")
    page.fill("#id_new_password2", "third-horse-battery-7")
    page.get_by_role("button", name="Set password").click()
    page.wait_for_selector("text=Password set")
    page.get_by_role("link", name="Log in").last.click()
    page.fill("#id_username", "forgetful")
    page.fill("#id_password", "third-horse-battery-7")
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("link", name="forgetful").is_visible()


def test_token_rotation_is_confirmed_on_its_own_page(page: Any, live_url: str) -> None:
    sign_up(page, live_url, "rotator")
    page.goto(f"{live_url}/account/")
    page.get_by_role("link", name="Issue a new token…").click()
    page.get_by_role("button", name="Issue a new token").click()
    assert page.locator("#id_confirm_error").is_visible()
    page.get_by_label("I understand that my current token stops working at once").check()
    page.get_by_role("button", name="Issue a new token").click()
    assert page.locator("#new-token").inner_text().startswith("fde_")


DOMAINS = ("scoring_convention", "constraint_rule", "computation_convention", "data_semantics")


def _board_with_domains() -> None:
    """The standard board plus agents with long labels whose targets span all four domains."""
    from fdeplatform.leaderboards.tests.factories import build_standard, make_run, user

    cases = build_standard()
    owner = user("lab-owner")
    for n, label in enumerate(
        ["scaffold-with-a-long-name/gpt-4o-2024-08-06", "react-baseline", "x"]
    ):
        for case in (cases["alpha"], cases["beta"], cases["gamma"]):
            items = [
                {"target": f"t{i}", "domain": domain, "issue_type": "missing",
                 "covered": (i + n) % 2 == 0}
                for i, domain in enumerate(DOMAINS)
            ]  # fmt: skip
            make_run(case=case, player=owner, agent=label, score=0.4 + 0.2 * n, valid=True,
                     coverage={"recall": 0.5, "precision": 0.5, "ask_f1": 0.5}, items=items)  # fmt: skip


def _element_shot(page: Any, selector: str, name: str) -> None:
    path = screenshot(page, name)  # full page first, for the directory layout
    page.locator(selector).first.screenshot(path=str(path))


def _fits(page: Any, name: str) -> None:
    # Against 390, not innerWidth: a mobile viewport widens itself to fit overflowing content.
    width = page.evaluate("document.documentElement.scrollWidth")
    screenshot(page, f"phone-{name}")
    assert width <= 390, f"{name} scrolls sideways on a 390 px phone ({width} px)"


def test_pages_fit_a_phone(browser: Any, live_url: str, knapsack: object) -> None:
    _board_with_domains()  # a leaderboard with rows, so its charts and heatmap are drawn
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_up(page, live_url, "phone-player")
    page.goto(f"{live_url}/cases/tiny-knapsack/")
    _fits(page, "case")
    _element_shot(page, ".start-form", "phone-case-start-form")
    start = page.locator(".start-form").bounding_box()
    assert start["x"] >= 0 and start["x"] + start["width"] <= 390, start
    workspace = _play_practice_run(page, live_url)
    page.goto(workspace)
    _fits(page, "workspace")
    page.goto(f"{live_url}/leaderboard/")
    page.locator("#chart-domains[data-ready='true']").wait_for()
    _fits(page, "leaderboard")
    _element_shot(page, ".lb-filters", "phone-leaderboard-filters")
    _element_shot(page, "#chart-domains", "phone-leaderboard-heatmap")
    _no_overlapping_labels(page, "#chart-domains .ytick text")
    _no_overlapping_labels(page, "#chart-domains .xtick text")
    page.goto(f"{live_url}/cases/")
    _fits(page, "case-list")
    page.goto(f"{live_url}/account/")
    _fits(page, "account")
    context.close()


def _no_overlapping_labels(page: Any, selector: str) -> None:
    boxes = [b for b in (n.bounding_box() for n in page.locator(selector).all()) if b]
    assert boxes, selector
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (selector, box)
    for a, b in pairwise(boxes):
        overlap_x = a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
        overlap_y = a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
        assert not (overlap_x and overlap_y), (selector, a, b)


def test_no_level_a_violations(browser: Any, live_url: str, knapsack: object) -> None:
    _board_with_domains()
    context = browser.new_context(viewport={"width": 1280, "height": 860}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[dict[str, object]]] = {}

    def check(name: str, url: str) -> None:
        page.goto(url)
        page.wait_for_load_state("load")
        if violations := axe_violations(page):
            found[name] = violations

    check("signup", f"{live_url}/signup/")
    check("login", f"{live_url}/login/")
    check("password reset", f"{live_url}/password-reset/")
    sign_up(page, live_url, "axe-player")
    check("home", f"{live_url}/")
    check("case list", f"{live_url}/cases/")
    check("case page", f"{live_url}/cases/tiny-knapsack/")
    workspace = _play_practice_run(page, live_url)
    check("workspace", workspace)
    page.goto(workspace)
    page.get_by_role("link", name=re.compile("report", re.I)).first.click()
    check("run report", page.url)
    check("my runs", f"{live_url}/runs/")
    page.goto(f"{live_url}/leaderboard/")
    page.locator("#chart-domains[data-ready='true']").wait_for()
    check("leaderboard", page.url)
    check("leaderboard case", f"{live_url}/leaderboard/case/alpha/")
    check("account", f"{live_url}/account/")
    check("password change", f"{live_url}/account/password/")
    check("token rotation", f"{live_url}/account/token/")
    context.close()
    assert not found, found


def test_the_axe_check_does_catch_a_level_a_violation(page: Any) -> None:
    page.set_content('<!doctype html><html lang="en"><title>t</title><img src="x.png"></html>')
    assert [v["id"] for v in axe_violations(page)] == ["image-alt"]


def test_screen_readers_hear_each_answer_once_and_the_clock_at_thresholds(
    page: Any, live_url: str, knapsack: object
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from fdeplatform.runs.models import Run

    sign_up(page, live_url, "listener")
    page.goto(f"{live_url}/cases/tiny-knapsack/")
    start_run(page)
    # The ticking clock and the log are not live regions; two polite regions speak instead.
    assert page.get_attribute("#time-left", "aria-live") == "off"
    assert page.get_attribute("#chat-log", "aria-live") is None
    assert page.get_attribute("#chat-log", "role") != "log"
    assert page.locator("[aria-live='polite']").count() >= 2

    page.fill("#ask-text", "How much weight can the van carry now?")
    page.keyboard.press("Control+Enter")
    answer = page.locator("#chat-log .msg-a").first
    answer.wait_for()
    first_question = page.locator("#chat-log .msg-q").first.element_handle()
    page.locator("#chat-announce:has-text('12 kg')").wait_for()
    announced = page.locator("#chat-announce").inner_text()
    assert "12 kg" in announced and "How much weight" not in announced  # the answer alone

    page.fill("#ask-text", "Is there anything special about fragile items?")
    page.keyboard.press("Control+Enter")
    page.locator("#chat-log .msg-a").nth(1).wait_for()
    # Appended, not rebuilt: the first message is still the same DOM node.
    assert page.locator("#chat-log .msg-q").first.evaluate("(n, old) => n === old", first_question)
    assert "12 kg" not in page.locator("#chat-announce").inner_text()

    # Ten minutes and a few seconds left: the polite region says so once, when it passes 10:00.
    run = Run.objects.get(player__username="listener")
    Run.objects.filter(pk=run.pk).update(deadline=timezone.now() + timedelta(minutes=10, seconds=3))
    page.reload()
    page.wait_for_selector("#conn[data-state='live']")
    assert page.locator("#time-announce").inner_text() == ""
    page.locator("#time-announce:has-text('10 minutes left')").wait_for(timeout=10_000)


def test_scatter_points_name_their_configuration_on_hover(page: Any, live_url: str) -> None:
    _board_with_domains()
    page.goto(f"{live_url}/leaderboard/")
    page.locator("#chart-scatter[data-ready='true']").wait_for()
    page.locator("#chart-scatter").scroll_into_view_if_needed()
    box = page.locator("#chart-scatter .scatterlayer .point").first.bounding_box()
    # Plotly hovers on mouse moves over its drag layer: arrive at the point in a few steps.
    page.mouse.move(box["x"] - 30, box["y"] - 30)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=5)
    label = page.locator("#chart-scatter .hoverlayer .hovertext").first
    label.wait_for()
    text = label.text_content() or ""
    assert "Recall" in text and "Quality" in text and "(interact_req)" in text, text
    screenshot(page, "leaderboard-scatter-hover")
