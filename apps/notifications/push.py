"""Web Push (RFC 8030, encrypted per RFC 8291, signed with VAPID per RFC 8292) through `pywebpush`.

As lichess' `modules/push`: only when the player has no socket open at that table (the page shows it
already), about 2 s after the event, one topic per table (or challenge) so a newer push replaces an
older one the phone has not shown yet, 12 hours to live, an urgency by kind, at most 5 browsers per
player (the oldest goes), and an endpoint the push service answers 404 or 410 for is removed. Nothing is
sent in the player's quiet hours (their own time zone). The words are in the player's language; a push
says who and which table, never anything of a rack or a chat.

The worker sends many pushes a minute, so what does not change from push to push is made once per worker
process: the VAPID key is parsed once, the signed VAPID header is kept per push service (its audience) for
most of its 12 hours of validity and signed anew an hour before it expires, and one HTTP session keeps
the connections to each push service open. What must be new each time is: each push is encrypted to its
browser with a key pair of its own (RFC 8291).

Without VAPID keys in the settings (WEBPUSH_VAPID_PUBLIC_KEY, WEBPUSH_VAPID_PRIVATE_KEY: `manage.py
vapid_keys` makes a pair) Web Push is off: nothing is sent and the settings page says so.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import threading
import time
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from py_vapid import Vapid  # type: ignore[import-untyped]  # py_vapid ships no types
from pywebpush import WebPusher  # type: ignore[import-untyped]  # pywebpush ships no types

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
#: A signed VAPID header is valid this long (RFC 8292 allows at most 24 hours)...
VAPID_VALIDITY = 12 * 60 * 60
#: ...and is signed anew when less than this is left, so a push service never sees one about to expire.
VAPID_RENEW_BEFORE = 60 * 60


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
    32 characters of the URL-safe base64 alphabet). A seat gone to the autopilot has a topic of its own
    at its table: the next "your turn" there must not hide it."""
    if notification.table_id is not None:
        return f"{'away' if notification.kind == Kind.SEAT_AWAY else 'table'}-{notification.table_id}"
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
        body = texts.describe(notification.kind, actor, notification.table_id, notification.reason, notification.subject)
        data = {"title": texts.title(), "body": body, "url": texts.link(notification.table_id, notification.tournament_id, notification.challenge_id),
                "tag": topic(notification)}
        return json.dumps(data, ensure_ascii=False).encode()


def audience(endpoint: str) -> str:
    """The push service's origin: what a VAPID token is for (RFC 8292 2: the "aud" claim)."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


class _ProcessState(threading.local):
    """What a worker process (each thread of it) keeps between pushes: the parsed VAPID key, the signed
    headers by audience, the HTTP session. A forked process starts afresh (its parent's sockets are not its)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.signer: tuple[str, Vapid] | None = None
        self.headers: dict[tuple[str, str, str], tuple[str, int]] = {}
        self.session: requests.Session | None = None


_state = _ProcessState()


def _local() -> _ProcessState:
    global _state
    if _state.pid != os.getpid():
        _state = _ProcessState()
    return _state


def vapid_header(endpoint: str, *, now: float | None = None) -> str:
    """The Authorization header for a push to `endpoint`: `vapid t=<JWT>,k=<public key>`, the JWT signed
    (ES256) for the endpoint's push service and valid VAPID_VALIDITY seconds; the same header is reused
    until less than VAPID_RENEW_BEFORE of it is left (a push service accepts it as often as it is sent
    until it expires, and the ECDSA signature is the one part of a push worth keeping)."""
    state = _local()
    now = time.time() if now is None else now
    private, subject = str(settings.WEBPUSH_VAPID_PRIVATE_KEY), str(settings.WEBPUSH_VAPID_SUBJECT)
    key = (private, subject, audience(endpoint))
    kept = state.headers.get(key)
    if kept is not None and kept[1] - now > VAPID_RENEW_BEFORE:
        return kept[0]
    if state.signer is None or state.signer[0] != private:
        state.signer = (private, Vapid.from_string(private_key=private))
    expires = int(now) + VAPID_VALIDITY
    header = str(state.signer[1].sign({"sub": subject, "aud": key[2], "exp": expires})["Authorization"])
    if len(state.headers) > 1000:  # push services are a handful (FCM, Mozilla, Apple, Microsoft...)
        state.headers.clear()
    state.headers[key] = (header, expires)
    return header


def session() -> requests.Session:
    """This process's HTTP session: its connections to each push service stay open between pushes. The
    proxy settings of the environment are honoured; without any, requests is told not to look them up
    on every push."""
    state = _local()
    if state.session is None:
        state.session = requests.Session()
        state.session.mount("https://", requests.adapters.HTTPAdapter(max_retries=1))
        state.session.mount("http://", requests.adapters.HTTPAdapter(max_retries=1))
        state.session.trust_env = bool(urllib.request.getproxies())
    return state.session


def send_one(subscription: PushSubscription, data: bytes, *, topic_name: str, urgency: str) -> int | None:
    """Send one push (encrypted to the browser's keys, aes128gcm; the kept VAPID header); returns the push
    service's status, or None if it could not be reached."""
    try:
        response = WebPusher(
            {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
            requests_session=session(),
        ).send(
            data,
            {"Topic": topic_name, "Urgency": urgency, "Authorization": vapid_header(subscription.endpoint)},
            ttl=TTL,
            content_encoding="aes128gcm",
            timeout=10,
        )
    except Exception as error:  # the push service is unreachable: this push is lost, the next one may go
        log.warning("A push to %s failed: %s: %s", urlsplit(subscription.endpoint).hostname, type(error).__name__, error)
        return None
    status = int(response.status_code)
    if status > 202 and status not in GONE:
        log.warning("A push to %s failed: %s %s", urlsplit(subscription.endpoint).hostname, status, response.reason)
    return status


def push_notification(notification_id: int, created: str = "", *, now: datetime | None = None) -> Outcome:
    """Push the notification to the player's browsers unless there is no need (read already, moved up by
    a newer turn, its kind not wanted, quiet hours, a socket open at its table) or Web Push is off."""
    # One row by its key: no ORDER BY, no LIMIT to build (the query's compilation is most of its cost).
    rows = Notification.objects.select_related("user", "actor", "user__push_settings").filter(pk=notification_id)
    notification = next(iter(rows.order_by()), None)
    if notification is None or notification.read_at is not None:
        return Outcome(skipped="read")
    if created and notification.created_at.isoformat() != created:
        return Outcome(skipped="superseded")  # a newer turn moved it up and queued its own push
    if not enabled():
        return Outcome(skipped="off")
    try:
        preferences = notification.user.push_settings
    except PushSettings.DoesNotExist:
        preferences = PushSettings(user_id=notification.user_id)
    if notification.kind not in preferences.kinds:
        return Outcome(skipped="kind")
    if quiet(preferences, now or timezone.now()):
        return Outcome(skipped="quiet")
    if notification.table_id is not None and presence.is_at_table(notification.table_id, notification.user_id):
        return Outcome(skipped="at_table")
    sent = removed = 0
    topic_name, urgency = topic(notification), URGENCY.get(notification.kind, "normal")
    said: dict[str, bytes] = {}  # the payload by language: the same words for each browser in it
    for subscription in PushSubscription.objects.filter(user_id=notification.user_id).order_by():
        language = language_for(notification.user, subscription)
        if language not in said:
            said[language] = payload(notification, language)
        status = send_one(subscription, said[language], topic_name=topic_name, urgency=urgency)
        if status in GONE:
            subscription.delete()
            removed += 1
        elif status is not None and 200 <= status < 300:
            sent += 1
    return Outcome(sent=sent, removed=removed)
