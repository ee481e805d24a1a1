"""DRF authentication with ``Authorization: Token <key>`` against hashed ``AgentToken``s."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from fdeplatform.accounts.models import AgentToken
from fdeplatform.accounts.services import token_for_key


class HashedTokenAuthentication(TokenAuthentication):
    """Same header and error responses as DRF's token auth; the lookup is by digest.

    The token itself is returned as ``request.auth``: views tell an agent's request (token)
    from a browser's (session, ``auth`` None) by it, so it must never be None here.
    """

    def authenticate_credentials(self, key: str) -> tuple[Any, AgentToken]:
        token = token_for_key(key)
        if token is None:
            raise AuthenticationFailed("Invalid token.")
        return (token.user, token)
