"""Helpers for the review's tests: tables with a human and a bot, played through the table services."""

from __future__ import annotations

from apps.accounts.models import User
from apps.engine.game import get_rules
from apps.tables import services
from apps.tables.models import Game, Table
from tests.tables.helpers import make_user, play_match, run_due


def unrated_table(game: str = "tile-rummy", *, name: str = "guest-ana") -> tuple[Table, User]:
    """A started match at an unrated table: a guest and an Easy bot. It is the guest's turn."""
    guest = make_user(name, guest=True)
    table = services.table_open(by=guest, game=game, seat_count=2, bots=["easy"])
    services.table_start(table_id=table.pk, by=guest)
    while Table.objects.get(pk=table.pk).due_action == Table.Due.BOT:
        run_due(table.pk)  # the bot started: its moves, until it is the guest's turn
    return Table.objects.get(pk=table.pk), guest


def rated_table() -> tuple[Table, User, User]:
    """A started match at a rated table: two registered players."""
    ana, ben = make_user("ana"), make_user("ben")
    table = services.table_open(by=ana, game="tile-rummy", seat_count=2, turn_seconds=60)
    services.table_join(table_id=table.pk, by=ben)
    services.table_start(table_id=table.pk, by=ana)
    return Table.objects.get(pk=table.pk), ana, ben


def finished_game(game: str = "tile-rummy", *, seed: int = 1) -> Game:
    """The one game of a match a guest and a bot played to its end."""
    table, _ = unrated_table(game, name=f"guest-{game}-{seed}")
    play_match(table.pk, seed=seed)
    return Game.objects.get(match__table=table)


def seat_to_move(table: Table) -> int:
    game = Game.objects.get(pk=table.current_game_id)
    seat = get_rules(table.game).to_move(get_rules(table.game).from_dict(game.state))
    assert seat is not None
    return seat
