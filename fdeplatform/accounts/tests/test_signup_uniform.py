"""Sign-up answers the same for a new and a taken e-mail address; the owner is told by mail."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from fdeplatform.accounts.views import MAIL_SCOPE
from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import parse_rate

pytestmark = pytest.mark.django_db
PASSWORDS = {"password1": "a-long-pass-123", "password2": "a-long-pass-123"}


@pytest.fixture(autouse=True)
def _fresh_mail_rate() -> Iterator[None]:
    window = parse_rate("1/15min")
    ratelimit.clear(MAIL_SCOPE, "127.0.0.1", window)
    yield
    ratelimit.clear(MAIL_SCOPE, "127.0.0.1", window)


def _signup(client: Client, username: str, email: str) -> str:
    response = client.post("/signup/", {"username": username, "email": email, **PASSWORDS})
    assert response.status_code == 200
    return response.content.decode().replace(email, "<address>")


def test_with_confirmation_a_taken_address_gets_the_same_page_and_its_owner_a_notice(
    client: Client, alice: User, settings: Any
) -> None:
    settings.SIGNUP_EMAIL_CONFIRMATION = True
    new_page = _signup(client, "dora", "dora@example.org")
    taken_page = _signup(client, "mallory", "ALICE@example.org").replace("mallory", "dora")
    assert taken_page == new_page
    assert "already exists" not in taken_page

    confirm, notice = mail.outbox
    assert confirm.to == ["dora@example.org"] and "/signup/confirm/" in confirm.body
    assert notice.to == ["alice@example.org"] and "/signup/confirm/" not in notice.body
    assert '"mallory"' in notice.body and "not given your address" in notice.body
    # The username is reserved either way, but the taken address stays alice's alone.
    mallory = User.objects.get(username="mallory")
    assert not mallory.is_active and mallory.email == ""
    assert list(User.objects.filter(email__iexact="alice@example.org")) == [alice]


def test_with_confirmation_a_username_is_taken_whichever_address_came_with_it(
    client: Client, alice: User, settings: Any
) -> None:
    """Re-using the username of a first try must not tell whether that try's address was new."""
    settings.SIGNUP_EMAIL_CONFIRMATION = True
    _signup(client, "mallory", "alice@example.org")
    _signup(client, "mallory2", "fresh@example.org")
    for name in ("mallory", "mallory2"):
        page = _signup(client, name, "other@example.org")
        assert "A user with that username already exists." in page


def test_without_confirmation_a_taken_address_signs_up_like_a_new_one(
    client: Client, alice: User
) -> None:
    new = client.post("/signup/", {"username": "dora", "email": "dora@example.org", **PASSWORDS})
    client.logout()
    taken = client.post(
        "/signup/", {"username": "mallory", "email": "alice@example.org", **PASSWORDS}
    )
    assert new.status_code == taken.status_code == 302
    assert new["Location"] == taken["Location"]
    assert User.objects.get(username="mallory").is_active
    (notice,) = mail.outbox
    assert notice.to == ["alice@example.org"] and '"mallory"' in notice.body
    assert "does not confirm addresses" in notice.body


def test_the_username_may_still_say_it_is_taken(client: Client, alice: User) -> None:
    page = _signup(client, "alice", "someone@example.org")
    assert "A user with that username already exists." in page
    assert mail.outbox == []


def test_without_confirmation_many_sign_ups_from_one_address_are_not_refused(
    client: Client, settings: Any
) -> None:
    """A classroom behind one address signs up freely: only the notice mails are limited."""
    settings.SIGNUP_EMAIL_CONFIRMATION = False
    settings.PASSWORD_RESET_RATE = "1/15min"
    for n in range(4):
        answer = Client().post(
            "/signup/",
            {
                "username": f"pupil{n}",
                "email": f"pupil{n}@example.org",
                "password1": "correct-horse-battery-9",
                "password2": "correct-horse-battery-9",
            },
        )
        assert answer.status_code == 302, answer.content[:300]
