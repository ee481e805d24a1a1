"""A new visitor signs up, logs out, logs back in and finds the navigation."""

from __future__ import annotations

import pytest

from tests.support.browser import open_menu, screenshot

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
    # One line: the brand, Sign up and a closed Menu; no link cut at the screen's edge.
    header = page.locator("header").bounding_box()
    assert header is not None and header["height"] <= 64, header
    assert page.locator("header").get_by_role("link", name="Sign up").is_visible()
    assert not page.get_by_role("navigation", name="Main").count()  # folded in the menu
    open_menu(page)
    nav = page.get_by_role("navigation", name="Main")
    for label in NAV:
        link = nav.get_by_role("link", name=label)
        assert link.is_visible(), label
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, label
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page scrolls sideways on a phone ({width}px)"
    screenshot(page, "home-phone")
    context.close()


def test_a_signed_in_top_bar_stays_short_on_a_phone(  # type: ignore[no-untyped-def]
    browser, live_url: str, django_user_model
) -> None:
    # Nine links once signed in: they open from one "Menu" instead of wrapping into three
    # lines of links above every page, or scrolling on a line cut at the edge.
    django_user_model.objects.create_user("phone-user", password="correct-horse-battery-9")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_url}/login/")
    page.fill("#id_username", "phone-user")
    page.fill("#id_password", "correct-horse-battery-9")
    page.get_by_role("button", name="Log in").click()
    header = page.locator("header").bounding_box()
    assert header is not None and header["height"] <= 150, header
    open_menu(page)  # the menu opens over the page: the bar itself keeps its height
    account = page.get_by_role("navigation", name="Account")
    assert account.get_by_role("button", name="Log out").is_visible()
    assert page.locator("header").bounding_box() == header
    page.get_by_role("navigation", name="Main").get_by_role("link", name="API docs").click()
    page.wait_for_load_state()
    assert "api" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
