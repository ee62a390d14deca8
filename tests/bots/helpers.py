"""Helpers for bot account tests: a bot account with a token, and the headers of a token socket."""

from __future__ import annotations

from apps.accounts.models import User
from apps.bots.services import bot_account_create, token_create


def make_owner(name: str = "owner") -> User:
    return User.objects.create_user(username=name, password="pw-" + name)


def make_bot(name: str, owner: User | None = None) -> tuple[User, str]:
    """A bot account named `name` (owned by `owner`, or a new player) and a token of it."""
    owner = owner or make_owner(f"owner-of-{name}")
    user = bot_account_create(by=owner, username=name)
    _token, secret = token_create(bot_id=user.pk, by=owner, name="tests")
    return user, secret


def bearer(secret: str) -> tuple[bytes, bytes]:
    return (b"authorization", f"Bearer {secret}".encode())
