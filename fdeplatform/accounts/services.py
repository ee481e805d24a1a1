"""Account operations shared by views and management commands."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from fdeplatform.accounts.models import AgentToken, digest_of, new_key
from fdeplatform.accounts.revocation import announce_revoked

#: ``last_used_at`` is written at most this often per token, not on every request.
LAST_USED_RESOLUTION = timedelta(minutes=5)


def agent_token_issue(*, user: User, rotate: bool = False) -> str:
    """Issue a new API token for ``user`` and return its key (the only time it is seen).

    ``rotate`` revokes the user's other tokens first, so a leaked one stops working at once;
    without it, earlier tokens stay valid (an agent already running keeps its key).
    """
    if rotate:
        revoked = list(AgentToken.objects.filter(user=user).values_list("digest", flat=True))
        AgentToken.objects.filter(user=user).delete()
        announce_revoked(user.pk, token_digests=revoked)
    key = new_key()
    AgentToken.objects.create(user=user, digest=digest_of(key), prefix=key[:10])
    return key


def token_for_key(key: str) -> AgentToken | None:
    """The token a presented key belongs to (its user active), or None.

    DRF hands this object on as ``request.auth``: a run started with it is an agent's run.
    """
    token = AgentToken.objects.select_related("user").filter(digest=digest_of(key)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        AgentToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def user_for_key(key: str) -> User | None:
    """The active user a presented key belongs to, or None."""
    token = token_for_key(key)
    return token.user if token is not None else None
