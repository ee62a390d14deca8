"""When an account becomes barred (banned, or deactivated) the site acts at once (SPEC 11): after the
commit that saved it, `user_barred` is sent (the tables app stands the user's seats up and closes the
tables they host that have not started: apps/tables/bans.py) and every socket of the user is closed on
every process. A sign-out closes the sockets of that session; a password changed, set or reset, or an
e-mail address changed (allauth's signals), closes those of every other session of the user (a guest's
conversion does the same: apps/accounts/views.py).

Any save of `banned_until` or `is_active` counts (the admin's ban action, the admin's form, a service, a
shell), so no path of banning can forget the consequences; a save of other fields (a sign-in writes
`last_login`) is not looked at.
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account import signals as allauth_signals
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import Signal

from apps.accounts.bans import why_barred
from apps.accounts.models import User
from apps.accounts.sockets import other_sessions_ended, tell_barred, tell_signed_out

log = logging.getLogger(__name__)

#: Sent (after the commit) with `user`, a User who may no longer act.
user_barred = Signal()

WATCHED_FIELDS = frozenset({"banned_until", "is_active"})


def user_saved(sender: Any, instance: User, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is not None and not WATCHED_FIELDS & set(update_fields):
        return
    if why_barred(instance) is None:
        return
    user_id = instance.pk
    transaction.on_commit(lambda: barred(user_id))


def barred(user_id: int) -> None:
    """The consequences of a bar, once it is committed (read again: the bar may have been lifted since)."""
    user = User.objects.filter(pk=user_id).first()
    if user is None or why_barred(user) is None:
        return
    for receiver, result in user_barred.send_robust(sender=User, user=user):
        if isinstance(result, Exception):
            log.error("Acting on the bar of user %s failed in %r", user_id, receiver, exc_info=result)
    tell_barred(user)


def signed_out(sender: Any, request: Any, user: Any = None, **kwargs: Any) -> None:
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        tell_signed_out(session_key)


def credentials_changed(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """The password or the e-mail address changed: the other sessions' sockets close (their pages are
    signed out by the new password hash; a socket is not a page)."""
    other_sessions_ended(request, user)


def connect() -> None:
    post_save.connect(user_saved, sender=User, dispatch_uid="accounts.user_saved")
    user_logged_out.connect(signed_out, dispatch_uid="accounts.signed_out")
    for signal, name in (
        (allauth_signals.password_changed, "password_changed"),
        (allauth_signals.password_set, "password_set"),
        (allauth_signals.password_reset, "password_reset"),
        (allauth_signals.email_changed, "email_changed"),
    ):
        signal.connect(credentials_changed, dispatch_uid=f"accounts.{name}")
