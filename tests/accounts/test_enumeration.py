"""Nobody learns from the site whether an email address has an account (SPEC 11, allauth's enumeration
prevention): sign-up, keeping a guest account and the password reset answer a taken address exactly as
a new one; the owner of the taken address is mailed instead."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from apps.accounts.models import User
from apps.accounts.services import guest_create
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "tiles on felt 2026"


def sign_up(client, email: str, username: str):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("account_signup"), data)
    page = client.get(response["Location"]) if response.status_code == 302 else response
    return response.status_code, response.get("Location"), page.status_code, page.content.decode()


def test_sign_up_answers_a_taken_address_as_a_new_one(client):
    owner = make_user("ben")
    owner.email = "ben@example.com"
    owner.save()
    taken = sign_up(client, "ben@example.com", "rina")
    client.logout()
    fresh = sign_up(client, "new@example.com", "tess")
    assert taken[:3] == fresh[:3] and taken[0] == 302
    assert _without_tokens(taken[3].replace("ben@example.com", "X")) == _without_tokens(fresh[3].replace("new@example.com", "X"))
    assert not User.objects.filter(username="rina").exists()  # no second account on the address
    assert [message.to for message in mail.outbox] == [["ben@example.com"], ["new@example.com"]]
    assert "already" in mail.outbox[0].body.lower()  # the owner is told someone tried


def convert(client, email: str) -> tuple[int, str, str]:
    guest = guest_create()
    client.force_login(guest)
    data = {"username": f"player{guest.pk}", "email": email, "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("accounts:guest_convert"), data)
    page = client.get(response["Location"])
    text = page.content.decode().replace(email, "X").replace(f"player{guest.pk}", "N")
    return response.status_code, response["Location"].replace(f"player{guest.pk}", "N"), text


def test_keeping_a_guest_account_answers_a_taken_address_as_a_new_one(client):
    owner = make_user("ben")
    owner.email = "ben@example.com"
    owner.save()
    taken = convert(client, "ben@example.com")
    fresh = convert(client, "new@example.com")
    assert taken[:2] == fresh[:2] and taken[0] == 302
    assert _without_tokens(taken[2]) == _without_tokens(fresh[2])
    assert User.objects.filter(email__iexact="ben@example.com").count() == 1  # the address stays its owner's
    assert [message.to for message in mail.outbox] == [["ben@example.com"], ["new@example.com"]]


def _without_tokens(page: str) -> str:
    """A page without what differs on every request (the CSRF token, the CSP nonce)."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
    return re.sub(r'nonce="[^"]+"|nonce-[A-Za-z0-9+/=_-]+', "", page)


def test_the_password_reset_answers_an_unknown_address_as_a_known_one(client):
    owner = make_user("ben")
    owner.email = "ben@example.com"
    owner.save()
    answers = []
    for email in ("ben@example.com", "nobody@example.com"):
        response = client.post(reverse("account_reset_password"), {"email": email})
        answers.append((response.status_code, response.get("Location")))
    assert answers[0] == answers[1] and answers[0][0] == 302
