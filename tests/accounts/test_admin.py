"""Players in the admin (apps/accounts/admin.py; the ban actions are apps/moderation/admin.py's): search,
filters, bans with an expiry recorded in the admin log, and an admin login behind allauth's rate limits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import user_ban
from apps.tables import services as tables
from tests.leaderboards.factories import make_user

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:accounts_user_changelist")


@pytest.fixture
def moderator(client):
    staff = User.objects.create_superuser("mod", "mod@example.com", "a long passphrase 42")
    client.force_login(staff)
    return staff


def ban(client, users, **form):
    data = {"action": "ban_users", "_selected_action": [u.pk for u in users], "apply": "1", **form}
    return client.post(CHANGELIST, data)


def test_banning_asks_for_a_duration_and_a_reason_first(client, moderator):
    troll = make_user("troll")
    response = client.post(CHANGELIST, {"action": "ban_users", "_selected_action": [troll.pk]})
    assert response.status_code == 200 and b"troll" in response.content and b"Reason" in response.content
    assert not User.objects.get(pk=troll.pk).is_banned


def test_a_ban_has_an_expiry_and_is_recorded_in_the_admin_log(client, moderator):
    troll = make_user("troll")
    response = ban(client, [troll], duration="7", reason="insults at table 12")
    assert response.status_code == 302
    troll.refresh_from_db()
    assert troll.is_banned and troll.ban_reason == "insults at table 12"
    assert timedelta(days=6, hours=23) < troll.banned_until - timezone.now() <= timedelta(days=7)
    entry = LogEntry.objects.get(object_id=str(troll.pk))
    assert entry.user == moderator and "insults at table 12" in entry.get_change_message()


def test_a_ban_until_a_chosen_date_must_end_in_the_future(client, moderator):
    troll = make_user("troll")
    response = ban(client, [troll], duration="until", until="2001-01-01 10:00", reason="spam")
    assert response.status_code == 200 and "until" in response.context["form"].errors
    ban(client, [troll], duration="until", until=(timezone.now() + timedelta(days=2)).strftime("%Y-%m-%d %H:%M"), reason="spam")
    assert User.objects.get(pk=troll.pk).is_banned


def test_a_moderator_cannot_ban_themselves(client, moderator):
    ban(client, [moderator], duration="1", reason="oops")
    assert not User.objects.get(pk=moderator.pk).is_banned


def test_a_banned_user_is_refused_a_seat_until_the_ban_ends():
    troll = make_user("troll")
    table = tables.table_open(by=make_user("host"), game="tile-rummy", seat_count=2)
    user_ban(user_id=troll.pk, until=timezone.now() + timedelta(days=1), reason="spam")
    with pytest.raises(tables.NotAllowed):
        tables.table_join(table_id=table.pk, by=User.objects.get(pk=troll.pk))
    user_ban(user_id=troll.pk, until=timezone.now() - timedelta(seconds=1), reason="spam")
    assert tables.table_join(table_id=table.pk, by=User.objects.get(pk=troll.pk)).user_id == troll.pk


def test_lifting_a_ban_is_logged_too(client, moderator):
    troll = make_user("troll")
    user_ban(user_id=troll.pk, until=timezone.now() + timedelta(days=1), reason="spam")
    client.post(CHANGELIST, {"action": "unban_users", "_selected_action": [troll.pk]})
    assert not User.objects.get(pk=troll.pk).is_banned
    assert LogEntry.objects.filter(object_id=str(troll.pk), change_message="Ban lifted").exists()


def test_moderators_find_players_by_name_and_filter_guests_and_bans(client, moderator):
    make_user("alice")
    make_user("Guest-000042", guest=True)
    troll = make_user("troll")
    user_ban(user_id=troll.pk, until=timezone.now() + timedelta(days=1), reason="spam")

    def listed(**query):
        return {u.username for u in client.get(CHANGELIST, query).context["cl"].result_list}

    assert listed(q="ali") == {"alice"}
    assert listed(is_guest__exact="1") == {"Guest-000042"}
    assert listed(banned="yes") == {"troll"}


def test_ratings_and_rating_changes_are_in_the_admin(client, moderator):
    for name in ("leaderboards_rating", "leaderboards_ratingchange"):
        assert client.get(reverse(f"admin:{name}_changelist"), {"q": "ana"}).status_code == 200


def test_the_admin_login_goes_through_the_rate_limited_sign_in(client):
    response = client.get(reverse("admin:login"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_too_many_failed_sign_ins_are_refused_even_with_the_right_password(client):
    cache.clear()
    User.objects.create_superuser("boss", "boss@example.com", "the right passphrase 1")
    url = reverse("account_login")
    for _ in range(5):
        client.post(url, {"login": "boss", "password": "wrong"})
    response = client.post(url, {"login": "boss", "password": "the right passphrase 1"})
    assert "_auth_user_id" not in client.session
    assert response.status_code in (200, 429)
    cache.clear()
