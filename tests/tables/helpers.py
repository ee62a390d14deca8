"""Helpers for table tests: users, and a seated human whose moves come from the Easy bot's brain
(fed only the view that human receives)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.utils import timezone

from apps.accounts.models import User
from apps.engine.bots import bot_levels, get_bot
from apps.engine.game import get_rules
from apps.tables import services
from apps.tables.models import Seat, Table

FAR_FUTURE = timedelta(hours=1)


def make_user(name: str, *, guest: bool = False, staff: bool = False, verified: bool = True) -> User:
    """A user; a registered one has a verified email address (SPEC 11: rated play needs one) unless
    `verified` is False."""
    user = User.objects.create_user(username=name, password="pw-" + name, is_guest=guest, is_staff=staff)
    if verified and not guest:
        verify_email(user)
    return user


def verify_email(user: User) -> None:
    """Give the account a verified email address (allauth's, as confirming the link does)."""
    EmailAddress.objects.update_or_create(
        user=user, email=f"{user.get_username().lower()}@example.test", defaults={"verified": True, "primary": True}
    )


def strongest_bot(slug: str) -> str:
    levels = bot_levels(slug)
    return "hard" if "hard" in levels else "easy"


def state_of(table_id: int) -> tuple[Table, Any]:
    table = Table.objects.select_related("current_game").get(pk=table_id)
    rules = get_rules(table.game)
    return table, rules.from_dict(table.current_game.state)  # type: ignore[union-attr]


def run_due(table_id: int) -> bool:
    """Let the table do what it would do by itself, as if its time had come (the clock jumps to the
    due time, never backwards)."""
    due_at = Table.objects.values_list("due_at", flat=True).get(pk=table_id)
    return services.table_due(table_id=table_id, now=max(due_at or timezone.now(), timezone.now()))


def human_move(table_id: int, seat_index: int, rng: random.Random) -> str:
    """The move a simple human would make from their own view."""
    table, state = state_of(table_id)
    rules = get_rules(table.game)
    view = rules.view_for(state, seat_index)
    return str(get_bot(table.game, "easy").next_move(view, rng))


def play_match(table_id: int, *, seed: int = 1, max_steps: int = 5000) -> Table:
    """Play the match at a table to its end through the services: humans by `game_move`, everything
    else (bots, next game) by the table's own due actions."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        if table.due_action in (Table.Due.BOT, Table.Due.NEXT_GAME, Table.Due.AUTOPILOT):
            assert run_due(table_id)
            continue
        table, state = state_of(table_id)
        seat_index = get_rules(table.game).to_move(state)
        seat = Seat.objects.select_related("user").get(table=table, index=seat_index)
        assert seat.user is not None
        services.game_move(table_id=table_id, by=seat.user, move=human_move(table_id, seat_index, rng))
    raise AssertionError("the match did not end")
