"""Sign-up, the account page and token rotation (login, logout and passwords are Django's views)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from fdeplatform.accounts.address_notice import address_in_use_send, address_owners
from fdeplatform.accounts.confirmation import confirmation_accept, confirmation_send
from fdeplatform.accounts.forms import ResendConfirmationForm, RotateTokenForm, SignupForm
from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import rate_setting

BACKEND = "django.contrib.auth.backends.ModelBackend"
#: Rate-limit scope of the mails a visitor can trigger (reset links, sign-up confirmations).
MAIL_SCOPE = "account-mail"


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if settings.SIGNUP_EMAIL_CONFIRMATION:
            return _signup_pending(request, form)
        return _signup_direct(request, form)
    return render(request, "accounts/signup.html", {"form": form})


def _signup_direct(request: HttpRequest, form: SignupForm) -> HttpResponse:
    """Without confirmation an address is never verified, so a taken one is kept as typed (the
    answer is the same as for a new one) and its owner is told. Only the notice is limited,
    and silently: a 429 on sign-up would be the tell (and would lock out a classroom behind
    one address after five sign-ups); past the mail limit the notice is simply not sent."""
    owners = address_owners(form.cleaned_data["email"])
    user = form.save()
    if owners and _mail_rate_exceeded(request) is None:
        for owner in owners:
            address_in_use_send(
                owner=owner, request=request, new_username=user.username, confirmation=False
            )
    login(request, user, backend=BACKEND)
    messages.success(request, f"Welcome, {user.username}. Pick a case to start a run.")
    return redirect("home")


def _signup_pending(request: HttpRequest, form: SignupForm) -> HttpResponse:
    """Both a new and a taken address get an inactive account (so the username is reserved
    either way), a mail and the same page; only a new address's mail holds an activation link.
    A taken address stays its owner's: the new account gets none and can never be activated."""
    if (retry := _mail_rate_exceeded(request)) is not None:
        return _too_many_mails(request, retry)
    user = form.save(commit=False)
    email = user.email
    owners = address_owners(email)
    user.is_active = False
    if owners:
        user.email = ""
    user.save()
    if owners:
        for owner in owners:
            address_in_use_send(
                owner=owner, request=request, new_username=user.username, confirmation=True
            )
    else:
        confirmation_send(user=user, request=request)
    return render(request, "accounts/signup_confirm_sent.html", {"email": email})


def signup_confirm(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    user = confirmation_accept(uidb64=uidb64, token=token)
    if user is None:
        return render(request, "accounts/signup_confirm_invalid.html", status=400)
    login(request, user, backend=BACKEND)
    messages.success(request, f"Address confirmed. Welcome, {user.username}.")
    return redirect("home")


def signup_resend(request: HttpRequest) -> HttpResponse:
    """A new confirmation link for an account that was never confirmed (the first mail was
    lost, or its link expired). The answer is the same whether or not such an account exists,
    so the page does not tell who has signed up; each request may send a mail, so it is
    limited like password resets."""
    if not settings.SIGNUP_EMAIL_CONFIRMATION:
        return redirect("login")
    form = ResendConfirmationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if (retry := _mail_rate_exceeded(request)) is not None:
            return _too_many_mails(request, retry)
        email = form.cleaned_data["email"]
        for user in User.objects.filter(email__iexact=email, is_active=False, last_login=None):
            confirmation_send(user=user, request=request)
        return render(
            request, "accounts/signup_confirm_sent.html", {"email": email, "resent": True}
        )
    return render(request, "accounts/signup_resend.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's login, telling where a new confirmation link is when sign-ups need one."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {
            **super().get_context_data(**kwargs),
            "confirmation": settings.SIGNUP_EMAIL_CONFIRMATION,
        }


class PasswordResetView(auth_views.PasswordResetView):
    """Django's view, limited per address: each request may send a mail."""

    def form_valid(self, form: Any) -> HttpResponse:
        if (retry := _mail_rate_exceeded(self.request)) is not None:
            return _too_many_mails(self.request, retry)
        return super().form_valid(form)


def _mail_rate_exceeded(request: HttpRequest) -> float | None:
    address = request.META.get("REMOTE_ADDR", "")
    return ratelimit.hit(MAIL_SCOPE, address, rate_setting("PASSWORD_RESET_RATE"))


def _too_many_mails(request: HttpRequest, retry: float) -> HttpResponse:
    response = render(request, "accounts/too_many_mails.html", {"minutes": int(retry // 60) + 1})
    response.status_code = 429
    response["Retry-After"] = str(int(retry) + 1)
    return response


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/account.html")


@login_required
def rotate_token(request: HttpRequest) -> HttpResponse:
    """GET: what rotation does and a confirm box; POST with the box ticked: rotate."""
    assert request.user.is_authenticated
    form = RotateTokenForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        key = agent_token_issue(user=request.user, rotate=True)  # type: ignore[arg-type]
        messages.success(request, "A new API token was issued; the old one no longer works.")
        return render(request, "accounts/account.html", {"new_token": key})
    return render(request, "accounts/rotate_token.html", {"form": form})
