"""A new visitor signs up, logs out, logs back in and finds the navigation."""

from __future__ import annotations

import pytest

from tests.support.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAV = ["Cases", "Leaderboard", "My runs", "API docs"]


def test_signup_login_and_navigation(page, live_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_url}/")
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("#id_username", "playwright-user")
    page.fill("#id_password1", "correct-horse-battery-9")
    page.fill("#id_password2", "correct-horse-battery-9")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector("text=Welcome, playwright-user")
    nav = page.get_by_role("navigation", name="Main")
    for label in NAV:
        assert nav.get_by_role("link", name=label).is_visible(), label
    screenshot(page, "home-signed-in")

    page.get_by_role("button", name="Log out").click()
    page.get_by_role("link", name="Log in").click()
    page.fill("#id_username", "playwright-user")
    page.fill("#id_password", "correct-horse-battery-9")
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("link", name="playwright-user").is_visible()

    page.get_by_role("link", name="My runs").click()
    assert page.locator("h1").inner_text() == "My runs"


def test_navigation_fits_a_phone(browser, live_url: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_url}/")
    nav = page.get_by_role("navigation", name="Main")
    for label in NAV:
        assert nav.get_by_role("link", name=label).is_visible(), label
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page scrolls sideways on a phone ({width}px)"
    screenshot(page, "home-phone")
    context.close()


def test_a_signed_in_top_bar_stays_short_on_a_phone(  # type: ignore[no-untyped-def]
    browser, live_url: str, django_user_model
) -> None:
    # Nine links once signed in: the main ones scroll on one line under the brand and the
    # account links, instead of wrapping into three lines of links above every page.
    django_user_model.objects.create_user("phone-user", password="correct-horse-battery-9")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_url}/login/")
    page.fill("#id_username", "phone-user")
    page.fill("#id_password", "correct-horse-battery-9")
    page.get_by_role("button", name="Log in").click()
    account = page.get_by_role("navigation", name="Account")
    assert account.get_by_role("button", name="Log out").is_visible()
    header = page.locator("header").bounding_box()
    assert header is not None and header["height"] <= 150, header
    page.get_by_role("navigation", name="Main").get_by_role("link", name="API docs").click()
    page.wait_for_load_state()
    assert "api" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
