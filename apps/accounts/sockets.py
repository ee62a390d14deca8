"""The accounts' side of the sockets (apps/live/owners.py): whom a socket refuses at its handshake, the
words of why an open one is closed, and the telling itself (a ban or a deactivation closes every socket
of the user, a sign-out those of the session)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.bans import barred_message, barred_wording, why_barred
from apps.accounts.models import User
from apps.live import owners

#: The error frame's code when a session signs out (its sockets close with owners.SIGNED_OUT, 4401).
SIGNED_OUT = "signed_out"


def refusal(scope: dict[str, Any]) -> owners.Told | None:
    """A banned or disabled account's new socket is refused with 4403 (the user is already loaded)."""
    user = scope.get("user")
    code = why_barred(user)
    if code is None:
        return None
    return owners.Told(owners.BARRED, code, barred_message(user))  # type: ignore[arg-type]


def explain(code: str, detail: dict[str, Any]) -> str:
    if code == SIGNED_OUT:
        return _("You signed out: sign in again to play.")
    return barred_wording(code, detail.get("until"))


def told(user: User) -> dict[str, Any] | None:
    """What a barred user's sockets are told (as published on the bus), or None if the user may act."""
    code = why_barred(user)
    if code is None:
        return None
    until = user.banned_until.isoformat() if user.banned_until is not None else None
    return {"close": owners.BARRED, "code": code, "detail": {"until": until}}


def tell_barred(user: User) -> None:
    """Close every socket of the barred user, on every process."""
    data = told(user)
    if data is not None:
        owners.tell_user(user.pk, close=data["close"], code=data["code"], detail=data["detail"])


def barred_among(user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Of these users (with open sockets), the barred ones and what they are told: one query (the
    backstop of a lost message: apps/live/owners.py)."""
    barred = User.objects.filter(Q(is_active=False) | Q(banned_until__gt=timezone.now()), pk__in=user_ids)
    return {user.pk: data for user in barred if (data := told(user)) is not None}


def tell_signed_out(session_key: str) -> None:
    owners.tell_session(session_key, close=owners.SIGNED_OUT, code=SIGNED_OUT)
