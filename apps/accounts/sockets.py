"""The accounts' side of the sockets (apps/live/owners.py): whom a socket refuses at its handshake, the
words of why an open one is closed, and the telling itself (a ban or a deactivation closes every socket
of the user, a sign-out those of the session, a changed password or e-mail address, or a guest become
a registered account, those of every other session of the user).

The backstop of a lost message (every process, now and then): `barred_among` names the barred users,
`stale_sessions` the sessions whose password hash no longer matches their user's (as Django checks a
page's session: apps/live/sessions.py), whose pages are signed out and whose sockets must close too."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from apps.accounts.bans import barred_message, barred_wording, why_barred
from apps.accounts.models import User
from apps.live import owners

#: The error frame's code when a session signs out (its sockets close with owners.SIGNED_OUT, 4401).
SIGNED_OUT = "signed_out"
#: The error frame's code when the account's password or e-mail address changed in another session, or
#: the guest became a registered account there (closed with owners.SIGNED_OUT too).
SESSION_ENDED = "session_ended"


def refusal(scope: dict[str, Any]) -> owners.Told | None:
    """A banned or disabled account's new socket is refused with 4403 (the user is already loaded)."""
    user = scope.get("user")
    code = why_barred(user)
    if code is None:
        return None
    return owners.Told(owners.BARRED, code, barred_message(user))  # type: ignore[arg-type]  # a barred user is a User


def explain(code: str, detail: dict[str, Any]) -> str:
    if code == SIGNED_OUT:
        return _("You signed out: sign in again to play.")
    if code == SESSION_ENDED:
        return _("Your account's password or e-mail address changed in another window: sign in again to play.")
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


def tell_other_sessions(user_id: int, keep_session: str | None) -> None:
    """Close every socket of the user, on every process, but those of the session `keep_session`."""
    owners.tell_user(user_id, close=owners.SIGNED_OUT, code=SESSION_ENDED, keep_session=keep_session)


def other_sessions_ended(request: HttpRequest | None, user: Any) -> None:
    """After the commit: close the sockets of every session of `user` but the one that made the change
    (a password changed or reset, an e-mail address changed, a guest become a registered account). That
    session is named by the cookie the request came with: its sockets were opened with it, while the
    session itself may have a new key by now (Django cycles it when the password hash changes)."""
    if user is None or getattr(user, "pk", None) is None:
        return
    cookies = getattr(request, "COOKIES", None) or {}
    keep = cookies.get(settings.SESSION_COOKIE_NAME) or None
    user_id = user.pk
    transaction.on_commit(lambda: tell_other_sessions(user_id, keep))


def _session_data(keys: list[str]) -> dict[str, dict[str, Any]]:
    """The decoded data of these sessions that exist and have not expired (one query on the database's
    sessions; one lookup per key on another engine)."""
    engine = import_module(settings.SESSION_ENGINE)
    store: SessionBase = engine.SessionStore()
    if settings.SESSION_ENGINE in ("django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"):
        model = store.get_model_class()  # type: ignore[attr-defined]  # the database engines' store has it (checked above)
        rows = model.objects.filter(session_key__in=keys, expire_date__gt=timezone.now())
        return {row.session_key: store.decode(row.session_data) for row in rows}
    found = {}
    for key in keys:
        data = engine.SessionStore(key).load()
        if data:
            found[key] = data
    return found


def _hash_holds(user: User, session_hash: str) -> bool:
    if not session_hash:
        return False
    if constant_time_compare(session_hash, user.get_session_auth_hash()):
        return True
    return any(constant_time_compare(session_hash, fallback) for fallback in user.get_session_auth_fallback_hash())


def stale_sessions(owned: list[tuple[int, str]]) -> dict[str, dict[str, Any]]:
    """Of these (user id, session key) pairs of open sockets, the sessions that no longer sign their user
    in (the password changed elsewhere, the guest became a registered account): its session's password
    hash is not its user's now, or it names another user. A session that is gone is left alone: Django
    gives a session a new key when its own password changes, and that session keeps its sockets (a
    sign-out is told at once, apps/accounts/signals.py). Two queries."""
    if not owned:
        return {}
    sessions = _session_data(sorted({key for _user_id, key in owned}))
    users = {user.pk: user for user in User.objects.filter(pk__in={user_id for user_id, _key in owned})}
    told_data = {"close": owners.SIGNED_OUT, "code": SESSION_ENDED, "detail": {}}
    stale: dict[str, dict[str, Any]] = {}
    for user_id, key in owned:
        data = sessions.get(key)
        user = users.get(user_id)
        if data is None or user is None:
            continue
        if str(data.get(SESSION_KEY)) != str(user_id) or not _hash_holds(user, str(data.get(HASH_SESSION_KEY) or "")):
            stale[key] = told_data
    return stale
