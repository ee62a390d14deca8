"""The notifications' tasks (a leaf: nothing imports it; queued by name)."""

from __future__ import annotations

from celery import shared_task

from apps.notifications import digest, push, services


@shared_task(name="notifications.push")
def push_notification(notification_id: int, created: str = "") -> int:
    """Push one notification to the player's browsers (apps/notifications/push.py decides whether)."""
    return push.push_notification(notification_id, created).sent


@shared_task(name="notifications.prune")
def prune() -> int:
    """Delete the notifications older than 30 days."""
    return services.prune()


@shared_task(name="notifications.email_digest")
def email_digest() -> int:
    """The daily e-mail of the tables waiting for each player who asked for it (once a day each)."""
    return digest.send_daily()
