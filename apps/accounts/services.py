"""The write path for accounts: guests (make, sign in, convert, clean up), bans, and "last seen".

Guests are ordinary `User` rows with `is_guest=True`, a generated name, no email and no usable password,
so everything a player does (seats, matches, game records) hangs off the same row before and after the
guest turns into a registered account. (django-guest-user was considered: its last release predates
Django 5.2 and it keeps guests in a table of its own, while our User already carries the flag.)
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import ngettext

from apps.accounts.limits import window_hit
from apps.accounts.models import User
from apps.lib.client_address import client_address

#: Generated guest names start with this; registered players may not pick a name that does.
GUEST_PREFIX = "Guest-"
#: A guest who never took a seat is removed after this long without a visit.
GUEST_UNUSED_AFTER = timedelta(days=2)
#: Any guest is removed after this long without a visit (the session cookie is long gone by then).
GUEST_IDLE_AFTER = timedelta(days=30)
#: `last_seen` is written at most this often per user, so page views do not each cost a write.
LAST_SEEN_EVERY = timedelta(minutes=5)

#: The windows of the new-guests limits per address (GUESTS_PER_ADDRESS_PER_HOUR new guests in the
#: hour, GUESTS_PER_ADDRESS_BURST in the burst window).
GUEST_WINDOW_SECONDS = 60 * 60
GUEST_BURST_SECONDS = 10 * 60

_LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


class GuestsLimited(Exception):
    """Too many new guests from one address this hour (SPEC 11); the message says so to the visitor."""


class GuestConversionError(Exception):
    """The account is not a guest (any more): there is nothing to convert."""


def is_guest_name(username: str) -> bool:
    return username.lower().startswith(GUEST_PREFIX.lower())


def guest_create() -> User:
    """A new guest account with a generated name such as `Guest-48213`, no email, no usable password."""
    for _attempt in range(10):
        username = f"{GUEST_PREFIX}{secrets.randbelow(10**6):06d}"
        try:
            with transaction.atomic():
                user = User(username=username, is_guest=True, last_seen=timezone.now())
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue  # the name was taken: draw another
    raise RuntimeError("could not find a free guest name")  # a million names: only if something is wrong


def guests_admit(address: str | None) -> None:
    """Count one new guest for the address; GuestsLimited if it already made GUESTS_PER_ADDRESS_BURST in
    the last few minutes (GUEST_BURST_SECONDS) or GUESTS_PER_ADDRESS_PER_HOUR in the hour (SPEC 11).

    One address is often many people: a classroom, a café, a phone carrier's shared address. The burst
    lets a whole class press Play now in the same minute; the hour stops a script at a few dozen accounts
    an hour. Both windows are counted in the cache (shared by every web process on the real stack, where
    the cache is Redis), each hit reserved before the guest is made (CONVENTIONS 25)."""
    where = address or "unknown"
    burst = int(getattr(settings, "GUESTS_PER_ADDRESS_BURST", 40))
    hourly = int(getattr(settings, "GUESTS_PER_ADDRESS_PER_HOUR", 80))
    if window_hit(f"guests-per-address-burst:{where}", seconds=GUEST_BURST_SECONDS) > burst:
        raise GuestsLimited(
            ngettext(
                "%(n)s guest account was just made from your network address. Sign up (it is free), sign in, "
                "or try again in a few minutes.",
                "%(n)s guest accounts were just made from your network address. Sign up (it is free), sign in, "
                "or try again in a few minutes.",
                burst,
            )
            % {"n": burst}
        )
    if window_hit(f"guests-per-address:{where}", seconds=GUEST_WINDOW_SECONDS) > hourly:
        raise GuestsLimited(
            ngettext(
                "%(n)s guest account was made from your network address in the last hour. Sign up (it is "
                "free), sign in, or try again later.",
                "%(n)s guest accounts were made from your network address in the last hour. Sign up (it is "
                "free), sign in, or try again later.",
                hourly,
            )
            % {"n": hourly}
        )


def guest_login(request: HttpRequest) -> User:
    """The visitor's account: the signed-in user if there is one, otherwise a new guest, signed in (at
    most a few new guests per address: `guests_admit`)."""
    if request.user.is_authenticated:
        return request.user
    guests_admit(client_address(request))
    user = guest_create()
    login(request, user, backend=_LOGIN_BACKEND)
    return user


def guest_convert(*, user_id: int, username: str, email: str, password: str) -> User:
    """Turn a guest into a registered account in place (same row, so its history stays its own).
    The caller has validated the values (the form uses allauth's own username and password checks). An
    empty `email` keeps the account without one (the address given belonged to another account)."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if not user.is_guest:
            raise GuestConversionError(f"{user.username} is already a registered account")
        user.username = username
        user.email = email
        user.is_guest = False
        user.set_password(password)
        user.save()
        if email:
            EmailAddress.objects.create(user=user, email=email, primary=True, verified=False)
    return user


#: The reverse relations of User (by name) that make a guest "used" besides a played match: apps above
#: this one register theirs in their AppConfig.ready() (the puzzle trainer's attempts), so a guest who
#: only solved puzzles keeps that progress as long as one who played.
_GUEST_ACTIVITY: list[str] = []


def guest_activity(relation: str) -> None:
    """Count rows of User's reverse relation `relation` as a guest's use (once per name)."""
    if relation not in _GUEST_ACTIVITY:
        _GUEST_ACTIVITY.append(relation)


def guests_cleanup(*, now: datetime | None = None) -> int:
    """Delete guests nobody will come back as: those who never played (nor did what `guest_activity`
    registered), after GUEST_UNUSED_AFTER, and
    every guest after GUEST_IDLE_AFTER, unless they hold a seat at any table (a seat is freed by the
    table's services, never by deleting its player: Seat.user is PROTECT). Their finished matches keep
    the name they played under. Returns how many were deleted.

    Seats and matches are read through the user's reverse relations (`seats`, `match_players`), so this
    app imports nothing of the tables app, which depends on it."""
    now = now or timezone.now()
    seen = Coalesce("last_seen", "last_login", "date_joined")
    used = Q(match_players__isnull=False)
    for relation in _GUEST_ACTIVITY:
        used |= Q(**{f"{relation}__isnull": False})
    stale = (
        User.objects.filter(is_guest=True, seats__isnull=True)
        .alias(seen_at=seen, played=Exists(User.objects.filter(used, pk=OuterRef("pk"))))
        .filter(Q(seen_at__lt=now - GUEST_IDLE_AFTER) | Q(played=False, seen_at__lt=now - GUEST_UNUSED_AFTER))
    )
    ids = list(stale.values_list("pk", flat=True)[:5000])  # the next run takes the rest
    deleted = 0
    for start in range(0, len(ids), 500):
        batch = User.objects.filter(pk__in=ids[start : start + 500], is_guest=True, seats__isnull=True)
        deleted += batch.delete()[1].get(User._meta.label, 0)
    return deleted


def user_ban(*, user_id: int, until: datetime, reason: str) -> User:
    """Ban a user until `until`: the table service then refuses them a seat (`User.is_banned`)."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        user.banned_until = until
        user.ban_reason = reason[:200]
        user.save(update_fields=["banned_until", "ban_reason"])
    return user


def user_unban(*, user_id: int) -> User:
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        user.banned_until = None
        user.ban_reason = ""
        user.save(update_fields=["banned_until", "ban_reason"])
    return user


def user_mark_booster(*, user_id: int, now: datetime | None = None) -> bool:
    """Mark the account as a booster (barred from rated play, SPEC 11). Returns False if it already was
    (the first date stays). The moderation service calls this and voids the account's rating gains."""
    updated = User.objects.filter(pk=user_id, booster_since__isnull=True).update(booster_since=now or timezone.now())
    return bool(updated)


def user_seen(user: User, *, now: datetime | None = None) -> bool:
    """Record a visit, at most once per LAST_SEEN_EVERY. Returns whether it wrote."""
    now = now or timezone.now()
    if user.last_seen is not None and now - user.last_seen < LAST_SEEN_EVERY:
        return False
    User.objects.filter(pk=user.pk).update(last_seen=now)
    user.last_seen = now
    return True
