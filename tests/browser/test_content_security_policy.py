"""Every page runs under the Content-Security-Policy without a single violation.

The policy forbids inline and evaluated script; a page that relied on either would break
silently for users, so Chromium's console is read for violations on each page visited.
"""

from __future__ import annotations

import pytest

from tests.support.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = [
    "/",
    "/cases/",
    "/cases/tiny-knapsack/",
    "/leaderboard/",
    "/leaderboard/analyses/",
    "/login/",
    "/api/docs/",
]


def test_pages_load_under_the_policy_without_violations(page, live_url: str, knapsack) -> None:  # type: ignore[no-untyped-def]
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(f"{page.url}: {message.text}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    for path in PAGES:
        response = page.goto(f"{live_url}{path}")
        assert response is not None and response.status == 200, path
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, path
        page.wait_for_load_state("networkidle")
    assert page.locator("#swagger-ui .information-container").is_visible()  # docs rendered
    screenshot(page, "api-docs-under-csp")
    assert violations == []
