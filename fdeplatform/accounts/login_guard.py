"""Password guessing: after LOGIN_FAILURE_RATE failed logins for one username from one address,
further login attempts for it are refused with 429 until the window ends.

Failures are counted from Django's ``user_login_failed`` signal, so the site's login page and
the admin's count alike; the refusal happens before the password is checked (a guess made
while locked out is not even tried), and a successful login clears the count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import rate_setting

LOGIN_PATHS = ("/login/", "/admin/login/")
SCOPE = "login-failures"


def _key(request: HttpRequest | None, username: str) -> str:
    address = request.META.get("REMOTE_ADDR", "") if request is not None else ""
    return f"{username.strip().lower()}|{address}"


@receiver(user_login_failed)
def _count_failure(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **_: Any
) -> None:
    username = str(credentials.get("username", ""))
    ratelimit.hit(SCOPE, _key(request, username), rate_setting("LOGIN_FAILURE_RATE"))


@receiver(user_logged_in)
def _clear_failures(sender: Any, request: HttpRequest | None, user: Any, **_: Any) -> None:
    ratelimit.clear(SCOPE, _key(request, user.get_username()), rate_setting("LOGIN_FAILURE_RATE"))


class LoginGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in LOGIN_PATHS:
            username = str(request.POST.get("username", ""))
            wait = ratelimit.spent(
                SCOPE, _key(request, username), rate_setting("LOGIN_FAILURE_RATE")
            )
            if wait is not None:
                minutes = max(1, round(wait / 60))
                response = HttpResponse(
                    f"Too many failed logins for this account from your address. "
                    f"Try again in about {minutes} minute(s).",
                    status=429,
                    content_type="text/plain; charset=utf-8",
                )
                response["Retry-After"] = str(int(wait) + 1)
                return response
        return self.get_response(request)
