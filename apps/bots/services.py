"""The write path of bot accounts and their tokens (SPEC 14).

- `bot_account_create`: a registered player makes a new account that is a bot account from the start;
- `token_create` (the token is returned once, never stored), `token_revoke` (its open sockets are told
  and closed at once, through the live bus: apps/bots/asgi.py listens), `token_used` (the last use,
  written at most once a minute).

Every refusal is a `BotAccountError` whose `error_code` is its name on the wire (CONVENTIONS 20).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.bots import tokens
from apps.bots.models import AccessToken, BotAccount
from apps.live.bus import bus

#: The last use of a token is written at most this often (a bot's requests must not each cost a write).
LAST_USED_EVERY = timedelta(minutes=1)
#: Why a token's sockets are closed, on its topic of the live bus (apps/bots/asgi.py words it).
REVOKED = "token_revoked"


class BotAccountError(Exception):
    error_code = "bot_account"


class NotYours(BotAccountError):
    error_code = "notallowed"


def token_topic(token_id: int) -> str:
    """The live bus topic a token's open sockets listen on."""
    return f"bot-token:{token_id}"


def bots_per_owner() -> int:
    return int(getattr(settings, "BOT_ACCOUNTS_PER_OWNER", 10))


def tokens_per_bot() -> int:
    return int(getattr(settings, "BOT_TOKENS_PER_ACCOUNT", 10))


def check_may_own_bots(user: User) -> None:
    """Only a registered player in good standing makes and manages bot accounts (never a guest, and
    never a bot account itself)."""
    if not user.is_authenticated or user.is_guest:
        raise NotYours(_("Only a registered player can make a bot account: sign up first."))
    if not user.is_active or user.is_banned:
        raise NotYours(_("A disabled or banned account cannot make bot accounts."))
    if BotAccount.objects.filter(user=user).exists():
        raise NotYours(_("A bot account cannot own bot accounts."))


def bot_account_create(*, by: User, username: str, description: str = "") -> User:
    """A new account named `username` that is a bot account owned by `by`. The name is checked by the
    caller (the form uses allauth's own username rules, as sign-up does); the account has no usable
    password: it acts only through its tokens."""
    check_may_own_bots(by)
    with transaction.atomic():
        owner = User.objects.select_for_update().get(pk=by.pk)  # one owner's accounts are counted one at a time
        if BotAccount.objects.filter(owner=owner).count() >= bots_per_owner():
            raise BotAccountError(
                _("You have %(count)s bot accounts already, the most one player may have.") % {"count": bots_per_owner()}
            )
        if User.objects.filter(username__iexact=username).exists():
            raise BotAccountError(_("The name %(name)s is taken.") % {"name": username})
        user = User(username=username, is_guest=False)
        user.set_unusable_password()
        user.save()
        BotAccount.objects.create(user=user, owner=owner, description=description[:200])
    return user


def check_may_manage(bot: BotAccount, by: User) -> None:
    if not (by.is_authenticated and (bot.owner_id == by.pk or by.is_staff)):
        raise NotYours(_("Only the owner of a bot account manages its tokens."))


def token_create(*, bot_id: int, by: User, name: str) -> tuple[AccessToken, str]:
    """A new token for the bot account: the row, and the token itself (shown once: only its digest is kept)."""
    name = name.strip()[:60]
    if not name:
        raise BotAccountError(_("Give the token a name (where it is used, say)."))
    with transaction.atomic():
        bot = BotAccount.objects.select_for_update().select_related("user").filter(pk=bot_id).first()
        if bot is None:
            raise NotYours(_("There is no such bot account."))
        check_may_manage(bot, by)
        if AccessToken.objects.filter(bot=bot, revoked_at__isnull=True).count() >= tokens_per_bot():
            raise BotAccountError(
                _("A bot account has at most %(count)s tokens: revoke one first.") % {"count": tokens_per_bot()}
            )
        secret = tokens.new_token()
        token = AccessToken.objects.create(bot=bot, name=name, prefix=tokens.shown_part(secret), digest=tokens.digest(secret))
    return token, secret


def token_revoke(*, token_id: int, by: User) -> AccessToken:
    """Revoke a token: it opens nothing any more, and its open sockets get an error frame and close (code
    4401) as soon as the commit is published. Revoking a revoked token changes nothing."""
    with transaction.atomic():
        token = AccessToken.objects.select_for_update().select_related("bot").filter(pk=token_id).first()
        if token is None:
            raise NotYours(_("There is no such token."))
        check_may_manage(token.bot, by)
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            transaction.on_commit(lambda: bus().publish(token_topic(token_id), json.dumps({"reason": REVOKED})))
    return token


def token_used(token: AccessToken, *, now: datetime | None = None) -> bool:
    """Record a use of the token, at most once per LAST_USED_EVERY (one conditional UPDATE: two
    processes at once write it once). Returns whether it wrote."""
    now = now or timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USED_EVERY:
        return False
    wrote = AccessToken.objects.filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_EVERY), pk=token.pk
    ).update(last_used_at=now)
    token.last_used_at = now
    return bool(wrote)
