"""Sign-up with an address that already has an account: tell its owner, not the visitor.

The sign-up page answers the same for a new and a taken address (like password reset and the
confirmation resend), so it cannot be used to find out who has an account here. The owner of a
taken address learns of the attempt by mail instead, which is also where the visitor would be if
the address is really theirs.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse


def address_owners(email: str) -> list[User]:
    """The accounts that already use ``email`` (case-insensitive); [] for no address."""
    if not email:
        return []
    return list(User.objects.filter(email__iexact=email))


def address_in_use_send(
    *, owner: User, request: HttpRequest, new_username: str, confirmation: bool
) -> None:
    """Mail ``owner`` that someone signed up with their address, and what came of it.

    ``confirmation``: sign-ups need a confirmed address, so the new account was not given it;
    otherwise the new account names the address too (it was never verified)."""
    context = {
        "owner": owner,
        "new_username": new_username,
        "confirmation": confirmation,
        "login": request.build_absolute_uri(reverse("login")),
        "reset": request.build_absolute_uri(reverse("password_reset")),
    }
    send_mail(
        subject="Someone tried to sign up with your address",
        message=render_to_string("accounts/signup_address_in_use_email.txt", context),
        from_email=None,
        recipient_list=[owner.email],
    )
