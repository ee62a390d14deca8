"""Making, reading and pruning notifications (apps/notifications/services.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from apps.notifications import services
from apps.notifications.models import Kind, Notification

pytestmark = pytest.mark.django_db


def test_a_notification_is_told_to_the_players_topic_after_the_commit_with_ids_and_no_words(
    alice, bob, told, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        made = services.notify(user_id=alice.pk, kind=Kind.CHALLENGE_RECEIVED, actor_id=bob.pk, actor_name="bob",
                               challenge_id=7)
        assert told.frames == []  # nothing before the commit
    [frame] = told.to(alice.pk)
    assert frame["type"] == "notification" and frame["unread"] == 1
    assert frame["item"] == {"id": made.pk, "kind": "challenge_received", "actor": "bob", "table": None, "tournament": None, "challenge": 7, "reason": "",
                             "read": False, "created": made.created_at.isoformat()}
    assert told.to(bob.pk) == []


def test_your_turn_at_the_same_table_moves_the_unread_one_up_instead_of_adding_another(alice, told):
    first = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=5)
    later = timezone.now() + timedelta(minutes=3)
    second = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=5, now=later)
    assert second.pk == first.pk and Notification.objects.get().created_at == later
    services.mark_read(user_id=alice.pk)
    third = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=5)
    assert third.pk != first.pk and Notification.objects.count() == 2
    services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=6)
    assert Notification.objects.count() == 3


def test_marking_read_touches_only_the_players_own_and_tells_their_pages_the_count(
    alice, bob, told, django_capture_on_commit_callbacks
):
    mine = [services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=n) for n in (1, 2, 3)]
    theirs = services.notify(user_id=bob.pk, kind=Kind.YOUR_TURN, table_id=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.mark_read(user_id=alice.pk, ids=[mine[0].pk, theirs.pk]) == 1
    assert told.to(alice.pk)[-1] == {"type": "unread", "unread": 2}
    assert Notification.objects.get(pk=theirs.pk).read_at is None
    assert services.mark_read(user_id=alice.pk) == 2
    assert services.unread_count(alice.pk) == 0 and services.unread_count(bob.pk) == 1


def test_notifications_older_than_30_days_are_pruned(alice):
    now = timezone.now()
    old = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=1, now=now - timedelta(days=30, minutes=1))
    kept = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=2, now=now - timedelta(days=29))
    assert services.prune(now=now) == 1
    assert list(Notification.objects.values_list("pk", flat=True)) == [kept.pk]
    assert not Notification.objects.filter(pk=old.pk).exists()


def test_the_push_task_is_queued_about_two_seconds_later_only_for_a_player_with_a_subscribed_browser(
    alice, bob, told, monkeypatch, django_capture_on_commit_callbacks
):
    from apps.notifications.models import PushSubscription

    queued = []
    monkeypatch.setattr(services, "queue_task", lambda name, *args, eta=None: queued.append((name, args, eta)))
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/a", p256dh="k", auth="a")
    with override_settings(NOTIFICATIONS_PUSH_DELAY=2.0), django_capture_on_commit_callbacks(execute=True):
        made = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=3)
        services.notify(user_id=bob.pk, kind=Kind.YOUR_TURN, table_id=3)
    [(name, args, eta)] = queued
    assert name == "notifications.push" and args == (made.pk, made.created_at.isoformat())
    assert timedelta(seconds=1.9) < eta - made.created_at < timedelta(seconds=2.1)
