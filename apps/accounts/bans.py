"""Whether a user may act at all now (SPEC 11, "moderation that bites"): one rule, asked everywhere.

`why_barred(user)` is the answer every action asks (sit, host, start, a new match, a move, a socket
opening; chat will ask it too): None, or the code of what bars the user. It reads the user row already
loaded and never queries, so the move path may ask it for free: a ban reaches a user who is already
connected by closing their sockets (apps/accounts/signals.py), not by a query per move.

    >>> from datetime import timedelta
    >>> from django.utils import timezone
    >>> why_barred(User(is_active=True)) is None
    True
    >>> why_barred(User(is_active=False))
    'disabled'
    >>> why_barred(User(is_active=True, banned_until=timezone.now() + timedelta(days=1)))
    'banned'
    >>> why_barred(User(is_active=True, banned_until=timezone.now() - timedelta(days=1))) is None
    True
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from apps.accounts.models import User

#: The codes `why_barred` answers with (the `code` of the error frame a socket is told before it closes).
BANNED = "banned"
DISABLED = "disabled"


def why_barred(user: Any) -> str | None:
    """None if the user may act; else BANNED or DISABLED. An anonymous visitor is not barred (each action
    asks for a signed-in user itself)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if not user.is_active:
        return DISABLED
    if user.is_banned:
        return BANNED
    return None


def barred_message(user: User) -> str:
    """What a barred user is told, in the active language."""
    return barred_wording(why_barred(user) or BANNED, user.banned_until)


def barred_wording(code: str, until: datetime | str | None) -> str:
    """The words for a bar's code (`until`: the end of a ban, a datetime or its ISO text)."""
    if code == DISABLED:
        return _("This account is disabled.")
    if isinstance(until, str):
        until = parse_datetime(until)
    if until is None:
        return _("Your account is banned from playing.")
    return _("Your account is banned from playing until %(until)s.") % {
        "until": date_format(timezone.localtime(until), "SHORT_DATETIME_FORMAT")
    }
