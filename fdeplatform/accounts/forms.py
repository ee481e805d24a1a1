from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm[User]):
    email = forms.EmailField(required=False, help_text="Optional; only used to reset a password.")

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if settings.SIGNUP_EMAIL_CONFIRMATION:
            self.fields["email"].required = True
            self.fields["email"].help_text = "We send a link to confirm it before you can log in."

    def clean_email(self) -> str:
        """No "already in use" error: it would tell anyone which addresses have accounts. The
        sign-up view handles a taken address the same way on the page and mails its owner."""
        return str(self.cleaned_data.get("email") or "").strip()


class RotateTokenForm(forms.Form):
    """An explicit confirmation step: a screen reader user hears what happens before it does."""

    confirm = forms.BooleanField(
        label="I understand that my current token stops working at once",
        help_text="Agents still using it get 401 until they are given the new one.",
    )


class ResendConfirmationForm(forms.Form):
    email = forms.EmailField(label="E-mail address", max_length=254)
