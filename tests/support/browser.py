"""A Chromium page driven by Playwright (Debian's chromium; Playwright cannot download one here).

Loaded as a pytest plugin by the root conftest, so browser tests anywhere can use ``browser`` and
``page``. The browser lives for one test module: Playwright's sync API keeps an event loop
running while it is open, which would break later tests that call ``async_to_sync``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import services

ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "test-artifacts"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    executable = services.require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


#: The phone the browser tests lay pages out on (390 px, an iPhone's width in CSS pixels).
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: The tiny-knapsack fixture's reference deliverable (scores 1.0).
KNAPSACK_REFERENCE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "tiny-knapsack" / "hidden"
    / "reference.csv"
)  # fmt: skip


def sign_up(page: Any, live_url: str, name: str) -> None:
    """Create an account through the sign-up form and wait for the welcome."""
    page.goto(f"{live_url}/signup/")
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.org")
    page.fill("#id_password1", "correct-horse-battery-9")
    page.fill("#id_password2", "correct-horse-battery-9")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector(f"text=Welcome, {name}")


def open_menu(page: Any) -> None:
    """Open the top bar's "Menu" where the page shows one (narrow screens); its links are
    inline, and the menu hidden, on wide ones."""
    summary = page.locator("#nav-menu summary")
    if summary.is_visible() and page.locator("#nav-menu[open]").count() == 0:
        summary.click()


def screenshot(page: object, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG levels A and AA (2.0, 2.1 and 2.2): AA adds contrast, resize and the like.
LEVEL_AA = ["wcag2a", "wcag21a", "wcag22a", "wcag2aa", "wcag21aa", "wcag22aa"]


def axe_violations(page: object) -> list[dict[str, object]]:
    """Run axe-core (npm, installed by script/bootstrap --dev) on the page; level A and AA
    violations.

    The page's context must be opened with ``bypass_csp=True``: axe is injected as an inline
    script, which the site's Content-Security-Policy rightly refuses.
    """
    if not AXE.exists():
        services.missing(f"{AXE} not found: run script/bootstrap --dev (needs npm)")
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))  # type: ignore[attr-defined]
    result = page.evaluate(  # type: ignore[attr-defined]
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}})", LEVEL_AA
    )
    return [
        {
            "id": v["id"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
    ]


def start_run(page: Any) -> None:
    """Press "Start run" and, where the site asks first (a practice or Full run that makes
    later ranked runs informed), confirm; then wait for the workspace's live socket."""
    page.get_by_role("button", name="Start run").click()
    page.wait_for_selector("#conn[data-state='live'], #confirm-start")
    if page.locator("#confirm-start").count():
        page.locator("#confirm-start").click()
    page.wait_for_selector("#conn[data-state='live']")
