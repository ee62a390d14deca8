"""What a visitor without an account can reach (SPEC 1): catalog, rules, leaderboards, profiles and
watching a table; sitting needs an account (tests/accounts/test_guests.py)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from apps.tables import services as tables
from tests.leaderboards.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        reverse("catalog:index"),
        reverse("catalog:rules", args=["tile-rummy"]),
        reverse("catalog:rules", args=["tile-rummy-rearrange"]),
        reverse("leaderboards:index"),
        reverse("leaderboards:game", args=["tile-rummy"]),
        reverse("leaderboards:game", args=["tile-rummy-rearrange"]),
        reverse("account_login"),
        reverse("account_signup"),
        reverse("account_reset_password"),
    ],
)
def test_a_visitor_reaches_the_public_pages_without_signing_in(client, url):
    assert client.get(url).status_code == 200


def test_a_visitor_reaches_a_players_profile(client):
    make_user("ana")
    assert client.get(reverse("players:profile", args=["ana"])).status_code == 200


def test_a_visitor_can_watch_an_open_table(client):
    table = tables.table_open(by=make_user("host"), game="tile-rummy", seat_count=2, bots=["easy"])
    assert client.get(reverse("tables:table", args=[table.pk])).status_code == 200


def test_a_signed_in_player_reaches_the_account_pages(client):
    client.force_login(make_user("ana", email="ana@example.com"))
    for name in ("account_email", "account_change_password"):
        assert client.get(reverse(name)).status_code == 200


def test_sign_up_makes_a_registered_account_mails_its_confirmation_and_the_password_signs_in(client):
    response = client.post(
        reverse("account_signup"),
        {"username": "rina", "email": "rina@example.com", "password1": "tiles on felt 2026", "password2": "tiles on felt 2026"},
    )
    # "Check your email", as for an address that has an account already (SPEC 11: no enumeration).
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["rina@example.com"]
    client.post(reverse("account_login"), {"login": "rina", "password": "tiles on felt 2026"})
    user = client.get(reverse("catalog:index")).context["user"]
    assert user.username == "rina" and not user.is_guest


def test_sign_in_works_with_the_username_or_the_email(client):
    make_user("ana", email="ana@example.com")
    for login in ("ana", "ana@example.com"):
        client.logout()
        client.post(reverse("account_login"), {"login": login, "password": "a long passphrase 42"})
        assert client.session.get("_auth_user_id")
