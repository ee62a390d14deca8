"""Guest accounts: one click to play, keeping the account later, and the cleanup of old ones
(apps/accounts/services.py and the guest views)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import (
    GUEST_PREFIX,
    GuestConversionError,
    guest_convert,
    guest_create,
    guest_login,
    guests_cleanup,
)
from apps.accounts.tasks import cleanup_guests
from apps.tables import services as tables
from apps.tables.models import MatchPlayer
from tests.leaderboards.factories import finished_match, make_user

pytestmark = pytest.mark.django_db


def test_a_guest_has_a_generated_name_no_email_and_no_usable_password():
    guest = guest_create()
    assert guest.is_guest and guest.username.startswith(GUEST_PREFIX)
    assert guest.email == "" and not guest.has_usable_password()
    assert guest_create().username != guest.username


def test_guest_login_makes_a_guest_for_a_visitor_and_signs_them_in(client):
    response = client.post(reverse("accounts:guest"))
    assert response.status_code == 302 and response["Location"] == reverse("tables:lobby")
    user = User.objects.get()
    assert user.is_guest
    assert client.get(reverse("players:profile", args=[user.username])).context["user"] == user


def test_guest_login_keeps_a_signed_in_player_as_they_are(client):
    ana = make_user("ana")
    client.force_login(ana)
    client.post(reverse("accounts:guest"), {"next": "/t/12/"})
    assert User.objects.count() == 1


def test_guest_login_returns_the_signed_in_user_of_the_request():
    ana = make_user("ana")
    request = RequestFactory().get("/")
    request.user = ana
    assert guest_login(request) == ana


def test_the_guest_start_sends_the_guest_back_where_they_were_but_never_off_site(client):
    assert client.post(reverse("accounts:guest"), {"next": "/t/7/"})["Location"] == "/t/7/"
    client.logout()
    assert client.post(reverse("accounts:guest"), {"next": "https://evil.example/"})["Location"] == reverse("tables:lobby")


def test_a_guest_can_take_a_seat():
    host = make_user("host")
    table = tables.table_open(by=host, game="tile-rummy", seat_count=2)
    seat = tables.table_join(table_id=table.pk, by=guest_create())
    assert seat.user.is_guest


def test_a_visitor_without_an_account_takes_a_seat_as_a_new_guest_in_one_press(client):
    host = make_user("host")
    table = tables.table_open(by=host, game="tile-rummy", seat_count=2)
    response = client.post(reverse("tables:join", args=[table.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("tables:table", args=[table.pk])
    seat = table.seats.get(index=1)
    assert seat.user.is_guest and client.session["_auth_user_id"] == str(seat.user_id)


def convert_form(**changes):
    data = {"username": "Rina", "email": "rina@example.com", "password1": "tiles on felt 2026", "password2": "tiles on felt 2026"}
    return {**data, **changes}


def test_a_guest_keeps_their_account_and_its_history_when_registering(client):
    guest = guest_create()
    match = finished_match([(guest, 1), (make_user("ben"), 2)], rated=False)
    client.force_login(guest)

    response = client.post(reverse("accounts:guest_convert"), convert_form())

    assert response.status_code == 302 and response["Location"] == reverse("players:profile", args=["Rina"])
    user = User.objects.get(pk=guest.pk)
    assert (user.username, user.email, user.is_guest) == ("Rina", "rina@example.com", False)
    assert MatchPlayer.objects.get(match=match, seat=0).user_id == guest.pk  # the same row: history kept
    assert EmailAddress.objects.get(user=user).primary
    assert len(mail.outbox) == 1 and "rina@example.com" in mail.outbox[0].to
    # Still signed in after the password change, and the new password works.
    assert client.get(reverse("players:profile", args=["Rina"])).context["user"].pk == guest.pk
    client.logout()
    assert client.login(username="Rina", password="tiles on felt 2026")


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"username": "Guest-123456"}, "username"),
        ({"username": "ben"}, "username"),
        ({"password2": "something else entirely"}, "password2"),
        ({"password1": "123", "password2": "123"}, "password1"),
    ],
)
def test_keeping_a_guest_account_checks_name_email_and_password_like_the_sign_up(client, changes, field):
    make_user("ben", email="ben@example.com")
    guest = guest_create()
    client.force_login(guest)
    response = client.post(reverse("accounts:guest_convert"), convert_form(**changes))
    assert response.status_code == 200 and field in response.context["form"].errors
    assert User.objects.get(pk=guest.pk).is_guest


def test_a_registered_account_has_nothing_to_convert(client):
    ana = make_user("ana")
    with pytest.raises(GuestConversionError):
        guest_convert(user_id=ana.pk, username="x", email="x@example.com", password="tiles on felt 2026")
    client.force_login(ana)
    assert client.get(reverse("accounts:guest_convert"))["Location"] == reverse("players:profile", args=["ana"])


def test_nobody_can_sign_up_with_a_guest_name(client):
    response = client.post(
        reverse("account_signup"),
        {"username": "guest-777", "email": "g@example.com", "password1": "tiles on felt 2026", "password2": "tiles on felt 2026"},
    )
    assert response.status_code == 200 and "username" in response.context["form"].errors
    assert not User.objects.exists()


def old_guest(days: int, name: str) -> User:
    guest = guest_create()
    User.objects.filter(pk=guest.pk).update(username=name, last_seen=timezone.now() - timedelta(days=days))
    return User.objects.get(pk=guest.pk)


def test_the_cleanup_removes_old_unused_guests_and_keeps_the_rest():
    fresh = old_guest(0, "Guest-fresh")
    unused = old_guest(3, "Guest-unused")
    played_recently = old_guest(10, "Guest-played")
    finished_match([(played_recently, 1), (make_user("ben"), 2)], rated=False)
    idle_for_long = old_guest(40, "Guest-idle")
    finished_match([(idle_for_long, 1), (make_user("cleo"), 2)], rated=False)
    seated = old_guest(40, "Guest-seated")
    table = tables.table_open(by=make_user("host"), game="tile-rummy", seat_count=2)
    tables.table_join(table_id=table.pk, by=seated)
    registered = make_user("dan", last_seen=timezone.now() - timedelta(days=400))

    assert guests_cleanup() == 2

    remaining = set(User.objects.values_list("username", flat=True))
    assert {fresh.username, played_recently.username, seated.username, registered.username} <= remaining
    assert unused.username not in remaining and idle_for_long.username not in remaining
    assert MatchPlayer.objects.filter(name="Guest-idle", user__isnull=True).exists()  # the match keeps the name
    assert cleanup_guests() == 0  # the periodic task: nothing left to do


def test_a_class_at_one_address_all_get_to_play_and_a_script_is_stopped_with_a_way_forward(settings):
    """SPEC 11: one address is often many people. Far more than the old limit of 10 guests from one
    address get to play at once; past the burst the page says why and offers sign-up and sign-in."""
    assert (settings.GUESTS_PER_ADDRESS_BURST, settings.GUESTS_PER_ADDRESS_PER_HOUR) == (40, 80)  # the defaults
    made = []
    for _ in range(40):  # a class pressing Play now together
        client = Client(REMOTE_ADDR="203.0.113.9")
        response = client.post(reverse("tables:play_now"))
        assert response.status_code == 302 and "/t/" in response["Location"]
        made.append(client.session["_auth_user_id"])
    assert len(set(made)) == 40
    before = User.objects.filter(is_guest=True).count()
    refused = Client(REMOTE_ADDR="203.0.113.9").post(reverse("tables:play_now"))
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "40 guest accounts were just made from your network address" in page
    assert reverse("account_signup") in page and reverse("account_login") in page  # a way forward
    assert User.objects.filter(is_guest=True).count() == before  # nothing made
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    assert elsewhere.post(reverse("accounts:guest")).status_code == 302  # another address is not limited


def test_an_address_makes_at_most_its_hourly_number_of_guests_in_an_hour(settings):
    settings.GUESTS_PER_ADDRESS_BURST, settings.GUESTS_PER_ADDRESS_PER_HOUR = 3, 5
    statuses = []
    for _burst_window in range(3):  # the burst windows pass, the hour does not
        for _ in range(3):
            statuses.append(Client(REMOTE_ADDR="203.0.113.10").post(reverse("accounts:guest")).status_code)
        cache.delete("guests-per-address-burst:203.0.113.10")
    assert statuses.count(302) == 5 and statuses[5:] == [429] * 4, statuses


