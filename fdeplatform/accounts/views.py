"""Sign-up and the account page (login/logout are Django's own views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fdeplatform.accounts.forms import SignupForm
from fdeplatform.accounts.services import agent_token_issue


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}. Pick a case to start a run.")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/account.html")


@login_required
@require_POST
def rotate_token(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated
    key = agent_token_issue(user=request.user, rotate=True)  # type: ignore[arg-type]
    messages.success(request, "A new API token was issued; the old one no longer works.")
    return render(request, "accounts/account.html", {"new_token": key})
