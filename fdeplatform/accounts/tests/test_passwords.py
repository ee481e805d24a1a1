"""Password change and reset, e-mail confirmation at sign-up, token rotation's confirm step."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from fdeplatform.accounts.services import agent_token_issue
from fdeplatform.accounts.views import MAIL_SCOPE
from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import parse_rate

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_mail_rate() -> Iterator[None]:
    """Mail requests are counted per address in the shared cache; each test starts at zero.
    (Only this key: clearing the whole cache would flush a Redis that others share.)"""
    window = parse_rate("1/15min")
    ratelimit.clear(MAIL_SCOPE, "127.0.0.1", window)
    yield
    ratelimit.clear(MAIL_SCOPE, "127.0.0.1", window)


def _link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/\S+)", body)
    assert match, body
    return match.group(1)


def test_password_change_needs_the_old_password(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        "/account/password/",
        {
            "old_password": "wrong",
            "new_password1": "n3w-Passw0rd!",
            "new_password2": "n3w-Passw0rd!",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="errorlist" id="id_old_password_error"' in html
    assert 'aria-invalid="true"' in html and "id_old_password_error" in html
    alice.refresh_from_db()
    assert alice.check_password("alice-password-1")


def test_password_change_keeps_the_player_logged_in(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        "/account/password/",
        {
            "old_password": "alice-password-1",
            "new_password1": "n3w-Passw0rd!",
            "new_password2": "n3w-Passw0rd!",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/account/password/done/"
    assert client.get("/account/").status_code == 200
    alice.refresh_from_db()
    assert alice.check_password("n3w-Passw0rd!")


def test_password_reset_mails_a_link_that_works_once(client: Client, alice: User) -> None:
    response = client.post("/password-reset/", {"email": "alice@example.org"})
    assert response.status_code == 302 and response["Location"] == "/password-reset/sent/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"]
    link = _link(mail.outbox[0].body)
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "res3t-Passw0rd", "new_password2": "res3t-Passw0rd"}
    )
    assert response["Location"] == "/password-reset/done/"
    alice.refresh_from_db()
    assert alice.check_password("res3t-Passw0rd")
    again = client.get(link, follow=True)
    assert "This link does not work" in again.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing(client: Client) -> None:
    response = client.post("/password-reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_password_reset_mails_are_rate_limited(client: Client, alice: User, settings: Any) -> None:
    settings.PASSWORD_RESET_RATE = "2/15min"
    for _ in range(2):
        assert client.post("/password-reset/", {"email": "alice@example.org"}).status_code == 302
    response = client.post("/password-reset/", {"email": "alice@example.org"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert len(mail.outbox) == 2


def test_login_page_links_to_the_reset(client: Client) -> None:
    assert 'href="/password-reset/"' in client.get("/login/").content.decode()


def test_signup_errors_are_marked_as_errors(client: Client) -> None:
    response = client.post(
        "/signup/", {"username": "", "password1": "a-long-pass-123", "password2": "x"}
    )
    html = response.content.decode()
    assert 'id="id_username_error"' in html and 'id="id_password2_error"' in html
    assert 'class="field has-error"' in html


def test_signup_without_confirmation_logs_in_at_once(client: Client) -> None:
    client.post(
        "/signup/",
        {"username": "dora", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    assert User.objects.get(username="dora").is_active
    assert mail.outbox == []


def test_signup_with_confirmation_activates_by_the_mailed_link(
    client: Client, settings: Any
) -> None:
    settings.SIGNUP_EMAIL_CONFIRMATION = True
    data = {"username": "dora", "password1": "a-long-pass-123", "password2": "a-long-pass-123"}
    response = client.post("/signup/", data)
    assert "id_email_error" in response.content.decode()  # the address is required now

    response = client.post("/signup/", {**data, "email": "dora@example.org"})
    assert "We sent a mail to" in response.content.decode()
    dora = User.objects.get(username="dora")
    assert not dora.is_active
    assert (
        client.post("/login/", {"username": "dora", "password": "a-long-pass-123"}).status_code
        == 200
    )

    link = _link(mail.outbox[0].body)
    response = client.get(link)
    assert response.status_code == 302
    dora.refresh_from_db()
    assert dora.is_active
    assert client.get("/account/").status_code == 200
    client.logout()
    assert client.get(link).status_code == 400  # once only


def test_a_lost_confirmation_mail_can_be_sent_again(client: Client, settings: Any) -> None:
    settings.SIGNUP_EMAIL_CONFIRMATION = True
    data = {"username": "fay", "password1": "a-long-pass-123", "password2": "a-long-pass-123"}
    client.post("/signup/", {**data, "email": "fay@example.org"})
    mail.outbox.clear()  # the first mail never arrived
    assert 'href="/signup/resend/"' in client.get("/login/").content.decode()

    response = client.post("/signup/resend/", {"email": "FAY@example.org"})
    assert "a new link is on its way" in response.content.decode()
    (message,) = mail.outbox
    assert message.to == ["fay@example.org"]
    assert client.get(_link(message.body)).status_code == 302
    assert User.objects.get(username="fay").is_active

    # Unknown and already active addresses get the same page and no mail.
    for address in ("nobody@example.org", "fay@example.org"):
        response = client.post("/signup/resend/", {"email": address})
        assert "a new link is on its way" in response.content.decode()
    assert len(mail.outbox) == 1
    assert "id_email_error" in client.post("/signup/resend/", {"email": "x"}).content.decode()


def test_resending_is_off_without_confirmation(client: Client) -> None:
    assert client.get("/signup/resend/")["Location"] == "/login/"
    assert "/signup/resend/" not in client.get("/login/").content.decode()


def test_a_forged_confirmation_link_is_refused(client: Client) -> None:
    User.objects.create_user("eve", "eve@example.org", "eve-password-1", is_active=False)
    assert client.get("/signup/confirm/MQ/abc-def/").status_code == 400
    assert client.get("/signup/confirm/%%%/abc-def/").status_code == 400
    assert not User.objects.get(username="eve").is_active


def test_token_rotation_asks_for_confirmation_first(client: Client, alice: User) -> None:
    old = agent_token_issue(user=alice)
    client.force_login(alice)
    page = client.get("/account/token/").content.decode()
    assert 'type="checkbox" name="confirm"' in page and "Issue a new API token?" in page
    response = client.post("/account/token/", {})
    assert 'id="id_confirm_error"' in response.content.decode()
    assert 'id="new-token"' not in response.content.decode()
    from fdeplatform.accounts.services import user_for_key

    assert user_for_key(old) == alice  # nothing was rotated
