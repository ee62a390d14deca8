"""Web Push (RFC 8030, encrypted per RFC 8291, signed with VAPID per RFC 8292) through `pywebpush`.

As lichess' `modules/push`: only when the player has no socket open at that table (the page shows it
already), about 2 s after the event, one topic per table (or challenge) so a newer push replaces an
older one the phone has not shown yet, 12 hours to live, an urgency by kind, at most 5 browsers per
player (the oldest goes), and an endpoint the push service answers 404 or 410 for is removed. Nothing is
sent in the player's quiet hours (their own time zone). The words are in the player's language; a push
says who and which table, never anything of a rack or a chat.

Without VAPID keys in the settings (WEBPUSH_VAPID_PUBLIC_KEY, WEBPUSH_VAPID_PRIVATE_KEY: `manage.py
vapid_keys` makes a pair) Web Push is off: nothing is sent and the settings page says so.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]  # pywebpush ships no types

from apps.accounts.models import User
from apps.notifications import presence, texts
from apps.notifications.models import Kind, Notification, PushSettings, PushSubscription

log = logging.getLogger(__name__)

#: Seconds a push service keeps an undelivered push (SPEC 17: 12 hours).
TTL = 12 * 60 * 60
#: At most this many subscribed browsers per player; a new one pushes the oldest out.
MAX_DEVICES = 5
#: How soon the push service should wake the device (RFC 8030 5.3), by kind.
URGENCY: dict[str, str] = {
    Kind.YOUR_TURN: "high",
    Kind.CHALLENGE_RECEIVED: "high",
    Kind.CHALLENGE_ACCEPTED: "normal",
    Kind.CHALLENGE_DECLINED: "normal",
    Kind.FRIEND_OPENED: "low",
    Kind.TOURNAMENT_SOON: "high",
}
#: Whatever the push service answers with these, the subscription is gone for good.
GONE = (404, 410)


class BadSubscription(ValueError):
    """A browser's subscription that cannot be used (not https, keys of the wrong size)."""


def enabled() -> bool:
    """Whether Web Push is on: both VAPID keys are set."""
    return bool(getattr(settings, "WEBPUSH_VAPID_PUBLIC_KEY", "") and getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", ""))


def public_key() -> str:
    return str(getattr(settings, "WEBPUSH_VAPID_PUBLIC_KEY", ""))


def _decoded(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription("not base64url") from None


def check_subscription(endpoint: str, p256dh: str, auth: str) -> None:
    """Refuse what is not a browser's push subscription: an https endpoint (plain http only where
    NOTIFICATIONS_PUSH_ALLOW_HTTP says so: the tests' local push service), a P-256 public key (65 bytes,
    uncompressed) and a 16-byte secret."""
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if getattr(settings, "NOTIFICATIONS_PUSH_ALLOW_HTTP", False) else ("https",)
    if parts.scheme not in schemes or not parts.hostname or len(endpoint) > 1000:
        raise BadSubscription("the endpoint is not an https URL")
    key = _decoded(p256dh)
    if len(key) != 65 or key[0] != 4:
        raise BadSubscription("p256dh is not an uncompressed P-256 key")
    if len(_decoded(auth)) != 16:
        raise BadSubscription("auth is not 16 bytes")


def subscribe(*, user: User, endpoint: str, p256dh: str, auth: str, language: str = "") -> PushSubscription:
    """Keep the browser's subscription for `user` (a browser that subscribed for someone else before is
    theirs now); the player's oldest beyond MAX_DEVICES go. The player's row is locked while counting, so
    two browsers subscribing at once still leave at most MAX_DEVICES."""
    check_subscription(endpoint, p256dh, auth)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).exists()
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "language": language[:10]}
        )
        PushSettings.objects.get_or_create(user=user)
        keep = PushSubscription.objects.filter(user=user).order_by("-created_at", "-id").values_list("pk", flat=True)
        PushSubscription.objects.filter(user=user).exclude(pk__in=list(keep[:MAX_DEVICES])).delete()
    return subscription


def unsubscribe(*, user: User, endpoint: str) -> bool:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def quiet(preferences: PushSettings, now: datetime) -> bool:
    """Whether `now` is in the player's quiet hours, in their time zone (22 to 8 wraps past midnight)."""
    start, end = preferences.quiet_from, preferences.quiet_to
    if start is None or end is None or start == end:
        return False
    try:
        zone = ZoneInfo(preferences.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    hour = now.astimezone(zone).hour
    return start <= hour < end if start < end else hour >= start or hour < end


def topic(notification: Notification) -> str:
    """One topic per table (or challenge): a newer push replaces one not yet shown (RFC 8030 5.4: at most
    32 characters of the URL-safe base64 alphabet)."""
    if notification.table_id is not None:
        return f"table-{notification.table_id}"
    if notification.challenge_id is not None:
        return f"challenge-{notification.challenge_id}"
    if notification.tournament_id is not None:
        return f"tournament-{notification.tournament_id}"
    return f"note-{notification.pk}"


@dataclass(frozen=True, slots=True)
class Outcome:
    sent: int = 0
    removed: int = 0
    skipped: str = ""


def language_for(user: User, subscription: PushSubscription) -> str:
    return user.language or subscription.language or settings.LANGUAGE_CODE


def payload(notification: Notification, language: str) -> bytes:
    """What the service worker shows: a title, one sentence, where a press leads, and the topic as its tag."""
    with translation.override(language):
        actor = notification.actor.username if notification.actor is not None else ""
        body = texts.describe(notification.kind, actor, notification.table_id, notification.reason)
        data = {"title": texts.title(), "body": body, "url": texts.link(notification.table_id, notification.tournament_id, notification.challenge_id),
                "tag": topic(notification)}
        return json.dumps(data, ensure_ascii=False).encode()


def send_one(subscription: PushSubscription, data: bytes, *, topic_name: str, urgency: str) -> int | None:
    """Send one push; returns the push service's status, or None if it could not be reached."""
    try:
        response = webpush(
            subscription_info={"endpoint": subscription.endpoint,
                               "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
            data=data,
            vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},  # a new dict each time: webpush adds "aud"
            ttl=TTL,
            headers={"Topic": topic_name, "Urgency": urgency},
            timeout=10,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status not in GONE:
            log.warning("A push to %s failed: %s", urlsplit(subscription.endpoint).hostname, error)
        return status
    except Exception as error:  # the push service is unreachable: this push is lost, the next one may go
        log.warning("A push to %s failed: %s: %s", urlsplit(subscription.endpoint).hostname, type(error).__name__, error)
        return None
    return int(getattr(response, "status_code", 201))


def push_notification(notification_id: int, created: str = "", *, now: datetime | None = None) -> Outcome:
    """Push the notification to the player's browsers unless there is no need (read already, moved up by
    a newer turn, its kind not wanted, quiet hours, a socket open at its table) or Web Push is off."""
    notification = Notification.objects.select_related("user", "actor").filter(pk=notification_id).first()
    if notification is None or notification.read_at is not None:
        return Outcome(skipped="read")
    if created and notification.created_at.isoformat() != created:
        return Outcome(skipped="superseded")  # a newer turn moved it up and queued its own push
    if not enabled():
        return Outcome(skipped="off")
    preferences = PushSettings.objects.filter(user_id=notification.user_id).first() or PushSettings(
        user_id=notification.user_id
    )
    if notification.kind not in preferences.kinds:
        return Outcome(skipped="kind")
    if quiet(preferences, now or timezone.now()):
        return Outcome(skipped="quiet")
    if notification.table_id is not None and presence.is_at_table(notification.table_id, notification.user_id):
        return Outcome(skipped="at_table")
    sent = removed = 0
    topic_name, urgency = topic(notification), URGENCY.get(notification.kind, "normal")
    for subscription in PushSubscription.objects.filter(user_id=notification.user_id):
        status = send_one(
            subscription, payload(notification, language_for(notification.user, subscription)),
            topic_name=topic_name, urgency=urgency,
        )
        if status in GONE:
            subscription.delete()
            removed += 1
        elif status is not None and 200 <= status < 300:
            sent += 1
    return Outcome(sent=sent, removed=removed)
