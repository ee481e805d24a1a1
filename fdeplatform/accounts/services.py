"""Account operations shared by views and management commands."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token


def agent_token_issue(*, user: User, rotate: bool = False) -> Token:
    """Return the user's API token, creating it, or replacing it when ``rotate`` is set.

    Rotation deletes the old key so a leaked token stops working at once.
    """
    if rotate:
        Token.objects.filter(user=user).delete()
    token, _ = Token.objects.get_or_create(user=user)
    return token
