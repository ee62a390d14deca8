"""The notifications' pages: the list (read, unread, mark read), following one, the push settings, and the
browser's subscription as JSON."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from django.urls import reverse

from apps.notifications import services
from apps.notifications.management.commands.vapid_keys import new_pair
from apps.notifications.models import Kind, Notification, PushSettings, PushSubscription
from tests.notifications.push_service import Browser, b64url

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def test_the_list_shows_the_players_notifications_unread_first_in_words(signed_in, alice, bob):
    services.notify(user_id=alice.pk, kind=Kind.CHALLENGE_ACCEPTED, actor_id=bob.pk)
    services.notify(user_id=alice.pk, kind=Kind.CHALLENGE_DECLINED, actor_id=bob.pk, reason="too_fast")
    services.notify(user_id=bob.pk, kind=Kind.YOUR_TURN, table_id=77)
    page = signed_in.get(reverse("notifications:list")).content.decode()
    assert "bob accepted your challenge." in page
    assert "bob declined your challenge: Too fast for me." in page
    assert "table 77" not in page  # bob's
    assert "2 unread" in page
    assert 'class="bell"' in page and 'data-bell-count>2<' in page


def test_mark_read_one_then_all_and_only_ones_own(signed_in, alice, bob):
    mine = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=1)
    services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=2)
    theirs = services.notify(user_id=bob.pk, kind=Kind.YOUR_TURN, table_id=1)
    response = signed_in.post(reverse("notifications:read"), {"id": [mine.pk, theirs.pk]})
    assert response.status_code == 302
    assert Notification.objects.get(pk=mine.pk).read_at is not None
    assert Notification.objects.get(pk=theirs.pk).read_at is None
    signed_in.post(reverse("notifications:read"), {"all": "1"})
    assert services.unread_count(alice.pk) == 0 and services.unread_count(bob.pk) == 1
    assert signed_in.post(reverse("notifications:read"), {"id": ["x"]}).status_code == 400


def test_following_a_notification_reads_it_and_leads_to_its_table(signed_in, alice, bob):
    note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=12)
    response = signed_in.get(reverse("notifications:open", args=[note.pk]))
    assert response.status_code == 302 and response["Location"] == "/t/12/"
    assert Notification.objects.get(pk=note.pk).read_at is not None
    other = services.notify(user_id=bob.pk, kind=Kind.YOUR_TURN, table_id=12)
    assert signed_in.get(reverse("notifications:open", args=[other.pk])).status_code == 404


def test_the_pages_need_a_signed_in_player(client):
    assert client.get(reverse("notifications:list")).status_code == 302
    assert client.post(reverse("notifications:push_subscribe"), "{}", content_type="application/json").status_code == 302


def test_without_keys_the_settings_page_says_push_is_off_and_subscribing_is_refused(signed_in):
    with override_settings(WEBPUSH_VAPID_PUBLIC_KEY="", WEBPUSH_VAPID_PRIVATE_KEY=""):
        page = signed_in.get(reverse("notifications:settings")).content.decode()
        assert "Push notifications are off on this site" in page and "data-push-on" not in page
        response = signed_in.post(reverse("notifications:push_subscribe"), "{}", content_type="application/json")
        assert response.status_code == 409


def test_the_settings_save_kinds_time_zone_and_quiet_hours(signed_in, alice):
    response = signed_in.post(reverse("notifications:settings"), {
        "kinds": ["your_turn", "challenge_received"], "time_zone": "Europe/Bucharest", "quiet_from": "22", "quiet_to": "8",
    })
    assert response.status_code == 302
    preferences = PushSettings.objects.get(user=alice)
    assert (preferences.kinds, preferences.time_zone, preferences.quiet_from, preferences.quiet_to) == (
        ["your_turn", "challenge_received"], "Europe/Bucharest", 22, 8)
    page = signed_in.post(reverse("notifications:settings"), {"kinds": [], "time_zone": "Mars/Base", "quiet_from": "22"})
    assert page.status_code == 200
    assert PushSettings.objects.get(user=alice).time_zone == "Europe/Bucharest"  # refused, unchanged


def test_a_browser_subscribes_and_unsubscribes_with_json(signed_in, alice):
    public, private = new_pair()
    browser = Browser()
    body = {"endpoint": "https://push.example/abc", "keys": {"p256dh": browser.p256dh, "auth": b64url(browser.auth)}}
    with override_settings(WEBPUSH_VAPID_PUBLIC_KEY=public, WEBPUSH_VAPID_PRIVATE_KEY=private):
        page = signed_in.get(reverse("notifications:settings")).content.decode()
        assert f'data-key="{public}"' in page and "data-push-on" in page
        response = signed_in.post(reverse("notifications:push_subscribe"), json.dumps(body), content_type="application/json")
        assert response.json() == {"ok": True, "devices": 1}
        assert PushSubscription.objects.get().user_id == alice.pk
        bad = signed_in.post(reverse("notifications:push_subscribe"), json.dumps({"endpoint": "x", "keys": {}}),
                             content_type="application/json")
        assert bad.status_code == 400 and PushSubscription.objects.count() == 1
        gone = signed_in.post(reverse("notifications:push_unsubscribe"), json.dumps({"endpoint": body["endpoint"]}),
                              content_type="application/json")
        assert gone.json() == {"ok": True, "removed": True} and not PushSubscription.objects.exists()


def test_a_tournament_notification_leads_to_the_tournament(signed_in, alice):
    note = services.notify(user_id=alice.pk, kind=Kind.TOURNAMENT_SOON, tournament_id=4)
    assert "A tournament you joined starts in 5 minutes." in signed_in.get(reverse("notifications:list")).content.decode()
    assert signed_in.get(reverse("notifications:open", args=[note.pk]))["Location"] == "/tournaments/4/"
