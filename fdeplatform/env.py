"""Typed readers for settings that come from the environment.

Every setting is read through one of these so that a bad value stops the process at start-up
with a message naming the variable, instead of surfacing later as an odd runtime error.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use true or false.")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def envstr(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def secret_key(*, debug: bool) -> str:
    """Return SECRET_KEY, refusing to run a production site on a missing or weak key."""
    key = os.environ.get("SECRET_KEY", "")
    if debug and not key:
        return "insecure-development-key-only-used-with-DEBUG-on"
    if not key:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and there is no var/secret_key yet: run script/server once "
            "(it writes that local key, which manage.py reads), or export SECRET_KEY=<a long "
            "random string> (python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
            "or set DEBUG=true for local development."
        )
    if len(key) < 32 or key.startswith("django-insecure"):
        raise ImproperlyConfigured(
            "SECRET_KEY is too weak for a site with DEBUG off: use at least 32 random characters."
        )
    return key
