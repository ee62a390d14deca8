"""What the rest of the site reads of bot accounts (CONVENTIONS 17): the tables mark seats and decide
ratings with these; the pages list and search them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from apps.bots import tokens
from apps.bots.models import AccessToken, BotAccount


def is_bot_account(user: Any) -> bool:
    """Whether this user is a bot account. One query per user object at most (Django keeps the answer on
    the object, a missing one too); none when the user was read with `select_related("bot_account")`, and
    none for a user that was never saved (it has no row for a bot account to point at)."""
    if user is None or not getattr(user, "is_authenticated", False) or getattr(user, "pk", None) is None:
        return False
    if getattr(getattr(user, "_state", None), "adding", False):
        return False
    return hasattr(user, "bot_account")


def bot_account_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Which of these users are bot accounts (one query)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if not wanted:
        return set()
    return set(BotAccount.objects.filter(user_id__in=wanted).values_list("user_id", flat=True))


def owner_id_of(user: Any) -> int | None:
    """The owner of this bot account (None: not a bot account). No query for a user read with
    `select_related("bot_account")`, as the seats are."""
    return user.bot_account.owner_id if is_bot_account(user) else None


def owner_ids_of(user_ids: Iterable[int | None]) -> dict[int, int]:
    """The owners of those of these users that are bot accounts: {bot account's user id: owner's id}
    (one query)."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    if not wanted:
        return {}
    return dict(BotAccount.objects.filter(user_id__in=wanted).values_list("user_id", "owner_id"))


def bots_of_owners(owner_ids: Iterable[int]) -> dict[int, int]:
    """Every bot account of these owners: {bot account's user id: owner's id} (one query; an owner has
    at most BOT_ACCOUNTS_PER_OWNER of them)."""
    return dict(BotAccount.objects.filter(owner_id__in=set(owner_ids)).values_list("user_id", "owner_id"))


def accounts_of_one_person(user: Any) -> list[int]:
    """The accounts whose lobby tables count together against one person's limits (SPEC 14: tables per
    owner): for a bot account, every bot account of its owner (one query); for anyone else, their own.
    More bot accounts are no more tables."""
    owner_id = owner_id_of(user)
    if owner_id is None:
        return [user.pk]
    return sorted(bots_of_owners([owner_id]))


def limits_key(user: Any) -> int:
    """Whose limits an action of `user` counts against, as one id: a bot account's owner's (the owner's
    bot accounts are counted and held together), anyone else's own."""
    owner_id = owner_id_of(user)
    return int(user.pk) if owner_id is None else owner_id


def bot_account_named(name: str) -> BotAccount | None:
    """The bot account of that name (any case), with its user, if it is one that can play now: active and
    not banned."""
    bot = BotAccount.objects.select_related("user", "owner").filter(user__username__iexact=name.strip()).first()
    if bot is None or not bot.user.is_active or bot.user.is_banned:
        return None
    return bot


def bot_account_of(user_id: int) -> BotAccount | None:
    return BotAccount.objects.select_related("user", "owner").filter(user_id=user_id).first()


def bots_owned_by(user_id: int) -> QuerySet[BotAccount]:
    return BotAccount.objects.filter(owner_id=user_id).select_related("user").order_by("user__username")


def tokens_of(bot: BotAccount) -> QuerySet[AccessToken]:
    return AccessToken.objects.filter(bot=bot).order_by("revoked_at", "-created_at", "-id")


def live_token(secret: str) -> AccessToken | None:
    """The token presented, with its bot account's user, if it is not revoked (whether the account may act
    is the caller's next question: `refusal`)."""
    if not secret.startswith(tokens.PREFIX):
        return None
    return (
        AccessToken.objects.select_related("bot__user")  # the user knows its bot account then: no query
        .filter(digest=tokens.digest(secret), revoked_at__isnull=True)
        .first()
    )


def search_bot_accounts(query: str, *, limit: int = 200) -> list[BotAccount]:
    """Bot accounts that can play now whose names contain `query`, by name."""
    found = BotAccount.objects.select_related("user", "owner").filter(user__is_active=True)
    if query.strip():
        found = found.filter(user__username__icontains=query.strip()[:40])
    return [bot for bot in found.order_by("user__username")[:limit] if not bot.user.is_banned]
