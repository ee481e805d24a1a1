"""API tokens, stored as digests.

A token is shown once, when it is issued; the database keeps only its SHA-256 digest and a
short prefix to recognise it by, so a copy of the database (or an evaluator that somehow read
it) yields no usable credential. Keys are 256-bit random strings, so a plain fast digest is
enough: there is nothing to brute-force that a slow password hash would protect.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models

KEY_PREFIX = "fde_"


def digest_of(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


class AgentToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agent_tokens"
    )
    digest = models.CharField(max_length=64, unique=True, help_text="sha256 of the key")
    prefix = models.CharField(max_length=12, help_text="the key's first characters, to tell it")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"
