"""Rows for rating, leaderboard and profile tests, written directly (the table service is not needed to
finish a match for these tests)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.utils import timezone

from apps.accounts.models import User
from apps.tables.models import Game, Match, MatchPlayer, Table


def make_user(username: str, *, guest: bool = False, verified: bool = False, **fields: object) -> User:
    """A user; with `verified`, a verified email address too (SPEC 11: rated play needs one)."""
    user = User(username=username, is_guest=guest, **fields)
    user.set_unusable_password() if guest else user.set_password("a long passphrase 42")
    user.save()
    if verified:
        EmailAddress.objects.create(user=user, email=f"{username.lower()}@example.test", verified=True, primary=True)
    return user


def finished_match(
    players: Sequence[tuple[User | None, int]],
    *,
    game: str = "tile-rummy",
    rated: bool = True,
    left: Sequence[User] = (),
    bots: Sequence[int] = (),
    points: Sequence[int] | None = None,
    private: bool = False,
    finished: bool = True,
    games: int = 1,
) -> Match:
    """A match with `players` as (user, place) in seat order; a None user with a place is a bot seat."""
    table = Table.objects.create(game=game, seat_count=max(2, len(players)), rated=rated, private=private, status=Table.Status.FINISHED)
    number = Match.objects.filter(table=table).count() + 1
    match = Match.objects.create(
        table=table,
        number=number,
        game=game,
        state={},
        rated=rated,
        finished_at=timezone.now() - timedelta(minutes=5) if finished else None,
    )
    for seat, (user, place) in enumerate(players):
        MatchPlayer.objects.create(
            match=match,
            seat=seat,
            user=user,
            bot_level="easy" if user is None or seat in bots else "",
            name=user.username if user else "Bot (Easy)",
            place=place if finished else None,
            points=(points[seat] if points else 100 - 10 * place) if finished else None,
            left=user in left,
        )
    for game_number in range(1, games + 1):
        Game.objects.create(
            match=match, number=game_number, state={}, deal={}, finished_at=timezone.now() if finished else None
        )
    return match


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Real hashing costs a quarter of a second per password; these tests check accounts, not hashing.
    (Imported by the conftest of each of tests/accounts, tests/catalog and tests/leaderboards.)"""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
