"""Optional e-mail confirmation at sign-up (SIGNUP_EMAIL_CONFIRMATION).

The account is created inactive and a signed link activates it. The token is Django's password
reset token with its own salt and the account's active flag in the hash, so a link works once:
after activation the hash changes and the same link is refused.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode


class ActivationTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "fdeplatform.accounts.confirmation.ActivationTokenGenerator"

    def _make_hash_value(self, user: User, timestamp: int) -> str:  # type: ignore[override]
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"


activation_tokens = ActivationTokenGenerator()


def confirmation_send(*, user: User, request: HttpRequest) -> None:
    """Mail ``user`` the link that activates the account."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    path = reverse("signup-confirm", args=[uid, activation_tokens.make_token(user)])
    context = {"user": user, "link": request.build_absolute_uri(path)}
    send_mail(
        subject="Confirm your FDE Practice account",
        message=render_to_string("accounts/signup_confirm_email.txt", context),
        from_email=None,
        recipient_list=[user.email],
    )


def confirmation_accept(*, uidb64: str, token: str) -> User | None:
    """Activate the account the link names; None when the link is unknown, used or expired."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    user = User.objects.filter(pk=pk, is_active=False).first()
    if user is None or not activation_tokens.check_token(user, token):
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user
