"""The notifications' one write path: make one (and tell the player's open pages), mark read, prune.

A notification is told to the player's open pages over the live bus, on their own topic, once the
transaction that made it commits: the frame carries ids and a name, no words (each socket says it in its
own language: apps/notifications/consumers.py). A player with a browser subscribed to Web Push also gets
the push task queued, about NOTIFICATIONS_PUSH_DELAY seconds later (apps/notifications/tasks.py decides
then whether to send: read already, a socket open at that table, quiet hours).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.lib.queueing import queue_task
from apps.live.bus import bus
from apps.live.compact import dumps
from apps.notifications.models import Kind, Notification, PushSubscription

#: How long a notification is kept (SPEC 17).
KEPT = timedelta(days=30)
#: The push task's name (apps/notifications/tasks.py).
PUSH_TASK = "notifications.push"


def user_topic(user_id: int) -> str:
    """Where a player's open pages hear of their notifications (the bell's socket listens)."""
    return f"notifications:{user_id}"


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def wire(notification: Notification, actor_name: str) -> dict[str, object]:
    """A notification as the bus carries it: ids and names, no words (a tournament's name only when it has one)."""
    wired: dict[str, object] = {
        "id": notification.pk,
        "kind": notification.kind,
        "actor": actor_name,
        "table": notification.table_id,
        "tournament": notification.tournament_id,
        "challenge": notification.challenge_id,
        "reason": notification.reason,
        "read": notification.read_at is not None,
        "created": notification.created_at.isoformat(),
    }
    if notification.subject:
        wired["subject"] = notification.subject
    return wired


def notify(
    *,
    user_id: int,
    kind: Kind,
    actor_id: int | None = None,
    actor_name: str = "",
    table_id: int | None = None,
    challenge_id: int | None = None,
    tournament_id: int | None = None,
    reason: str = "",
    subject: str = "",
    now: datetime | None = None,
) -> Notification:
    """Make one notification for `user_id` and, after the commit, tell their open pages and queue its push.

    "Your turn" at a table where the player has one unread already moves that one up instead of adding
    another: a day-long table between friends is one line in the list, not one a turn."""
    now = now or timezone.now()
    with transaction.atomic():
        notification = None
        if kind == Kind.YOUR_TURN and table_id is not None:
            notification = (
                Notification.objects.select_for_update()
                .filter(user_id=user_id, kind=kind, table_id=table_id, read_at__isnull=True)
                .first()
            )
            if notification is not None:
                notification.created_at = now
                notification.save(update_fields=["created_at"])
        if notification is None:
            notification = Notification.objects.create(
                user_id=user_id,
                kind=kind,
                actor_id=actor_id,
                table_id=table_id,
                challenge_id=challenge_id,
                tournament_id=tournament_id,
                reason=reason[:32],
                subject=subject[:120],
                created_at=now,
            )
        made = notification
        transaction.on_commit(lambda: announce(made, actor_name, now))
    return notification


def announce(notification: Notification, actor_name: str, now: datetime) -> None:
    """After the commit: the player's open pages hear of it, and its push is queued if they have a
    subscribed browser."""
    user_id = notification.user_id
    frame = {"type": "notification", "unread": unread_count(user_id), "item": wire(notification, actor_name)}
    bus().publish(user_topic(user_id), dumps(frame))
    if getattr(settings, "NOTIFICATIONS_PUSH_TASKS", True) and PushSubscription.objects.filter(user_id=user_id).exists():
        delay = float(getattr(settings, "NOTIFICATIONS_PUSH_DELAY", 2.0))
        queue_task(PUSH_TASK, notification.pk, notification.created_at.isoformat(), eta=now + timedelta(seconds=delay))


def mark_read(*, user_id: int, ids: Iterable[int] | None = None, now: datetime | None = None) -> int:
    """Mark the player's notifications `ids` read (all of them if None); only their own. Their open pages
    hear the new unread count. Returns how many changed."""
    rows = Notification.objects.filter(user_id=user_id, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    changed = rows.update(read_at=now or timezone.now())
    if changed:
        count = unread_count(user_id)
        transaction.on_commit(
            lambda: bus().publish(user_topic(user_id), dumps({"type": "unread", "unread": count}))
        )
    return changed


def read_at_table(*, user_id: int, table_id: int) -> int:
    """The player opened the table: what told them of it ("your turn", a friend's table) is read."""
    ids = list(
        Notification.objects.filter(user_id=user_id, table_id=table_id, read_at__isnull=True).values_list("pk", flat=True)
    )
    return mark_read(user_id=user_id, ids=ids) if ids else 0


def prune(*, now: datetime | None = None) -> int:
    """Delete the notifications older than 30 days; returns how many."""
    deleted, _ = Notification.objects.filter(created_at__lt=(now or timezone.now()) - KEPT).delete()
    return deleted
