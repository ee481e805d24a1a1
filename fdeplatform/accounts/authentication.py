"""DRF authentication with ``Authorization: Token <key>`` against hashed ``AgentToken``s."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from fdeplatform.accounts.services import user_for_key


class HashedTokenAuthentication(TokenAuthentication):
    """Same header and error responses as DRF's token auth; the lookup is by digest."""

    def authenticate_credentials(self, key: str) -> tuple[Any, None]:
        user = user_for_key(key)
        if user is None:
            raise AuthenticationFailed("Invalid token.")
        return (user, None)
