"""The daily e-mail (SPEC 17, opt-in): the no-timer tables where it is the player's turn, in their language.

Beat runs `send_daily` once a day (08:00 in Bucharest: rummysite/settings.py). Each player is claimed by
one UPDATE ... WHERE digest_sent_on < today before their mail is built, so two runs (or two workers) send
it once; a mail that fails to leave gives the day back for the next run. Only registered, active,
unbanned people with a verified address who opted in; guests and bot accounts never. Names, games, ids
and times only: nothing of a rack or a chat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.timesince import timesince

from apps.accounts.language import profile_language
from apps.accounts.models import User
from apps.bots.selectors import bot_account_ids
from apps.catalog.data import game_name
from apps.notifications.models import PushSettings
from apps.tables.selectors import WaitingTurn, bot_name, turns_waiting

log = logging.getLogger(__name__)

ZONE = ZoneInfo("Europe/Bucharest")
BATCH = 200


def today(now: datetime | None = None) -> date:
    """The digest's day: the date in Bucharest."""
    return (now or timezone.now()).astimezone(ZONE).date()


def site_url() -> str:
    return str(settings.SITE_URL).rstrip("/")


@dataclass(frozen=True)
class Line:
    """One table of the mail, in the reader's words."""

    game: str
    opponents: str
    waited: str
    url: str


def lines(turns: list[WaitingTurn], now: datetime) -> list[Line]:
    """The tables as the mail shows them, in the active language."""
    return [
        Line(
            game=game_name(turn.game),
            opponents=", ".join([*turn.opponents, *(bot_name(level) for level in turn.bots)]),
            waited=timesince(turn.since, now),
            url=site_url() + reverse("tables:table", args=[turn.table_id]),
        )
        for turn in turns
    ]


def message(user: User, address: str, turns: list[WaitingTurn], now: datetime) -> EmailMultiAlternatives:
    """The mail to one player, in their own language (else the site's)."""
    with translation.override(profile_language(user) or settings.LANGUAGE_CODE):
        context = {
            "name": user.get_username(),
            "tables": lines(turns, now),
            "settings_url": site_url() + reverse("notifications:settings"),
            "site_url": site_url(),
            "language": translation.get_language() or "",
        }
        subject = render_to_string("notifications/email/digest_subject.txt", context).strip()
        text = render_to_string("notifications/email/digest.txt", context)
        html = render_to_string("notifications/email/digest.html", context)
    mail = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [address])
    mail.attach_alternative(html, "text/html")
    return mail


def may_get_digest(user: User) -> bool:
    """Whether the daily e-mail is offered to this player: a registered person (no guest, no bot
    account) with a verified address."""
    return (
        user.is_authenticated and user.is_active and not user.is_guest
        and not bot_account_ids([user.pk])
        and EmailAddress.objects.filter(user_id=user.pk, verified=True).exists()
    )


def not_sent_on(day: date) -> Q:
    return Q(digest_sent_on__isnull=True) | Q(digest_sent_on__lt=day)


def wanted(day: date, now: datetime) -> list[int]:
    """The players who opted in, may get mail and have not had today's."""
    return list(
        PushSettings.objects.filter(not_sent_on(day), email_digest=True, user__is_active=True, user__is_guest=False)
        .exclude(user__banned_until__gt=now)
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )


def addresses(user_ids: list[int]) -> dict[int, str]:
    """Each player's verified address (the primary one first)."""
    found: dict[int, str] = {}
    rows = EmailAddress.objects.filter(user_id__in=user_ids, verified=True).order_by("-primary", "pk")
    for user_id, email in rows.values_list("user_id", "email"):
        found.setdefault(user_id, email)
    return found


def claim(user_id: int, day: date) -> date | None | bool:
    """Take today's mail for this player: False if another run has it (or they opted out meanwhile),
    else the day it was last sent before (to give back should the mail fail)."""
    before = PushSettings.objects.filter(user_id=user_id).values_list("digest_sent_on", flat=True).first()
    claimed = PushSettings.objects.filter(not_sent_on(day), user_id=user_id, email_digest=True).update(digest_sent_on=day)
    return before if claimed else False


def send_daily(now: datetime | None = None) -> int:
    """E-mail each opted-in player the tables waiting for them; how many mails left."""
    now = now or timezone.now()
    day = today(now)
    user_ids = wanted(day, now)
    sent = 0
    for start in range(0, len(user_ids), BATCH):
        batch = user_ids[start:start + BATCH]
        bots = bot_account_ids(batch)
        mailable = addresses([user_id for user_id in batch if user_id not in bots])
        waiting = turns_waiting(list(mailable))
        users = User.objects.in_bulk(list(waiting))
        for user_id, turns in waiting.items():
            before = claim(user_id, day)
            if before is False:
                continue
            try:
                message(users[user_id], mailable[user_id], turns, now).send()
            except Exception:
                log.exception("The daily e-mail to user %s failed; it is tried again on the next run", user_id)
                PushSettings.objects.filter(user_id=user_id, digest_sent_on=day).update(digest_sent_on=before)
                continue
            sent += 1
    return sent
