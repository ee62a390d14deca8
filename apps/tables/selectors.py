"""Reads of tables, matches and games for other apps (CONVENTIONS 17): they never query
`apps.tables.models` themselves, and never write its rows. Every function here is a plain read: no row
lock, no transaction of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from apps.tables.models import Game, MatchPlayer, MoveLog, Seat, Table
from apps.tables.records import game_record


def finished_game(game_id: int) -> Game | None:
    """A finished game with its match and table, or None (no such game, or still being played)."""
    return Game.objects.select_related("match__table").filter(pk=game_id, finished_at__isnull=False).first()


def may_see_game(game: Game, user: Any) -> bool:
    """A game of a public table is open to everyone; of a private one, to its players and moderators
    (the same rule as the match page and the record download)."""
    if not game.match.table.private:
        return True
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or MatchPlayer.objects.filter(match=game.match, user=user).exists()


def finished_game_record(game: Game) -> dict[str, Any]:
    """The engine record (docs/record-format.md) of a finished game."""
    return game_record(game)


@dataclass(frozen=True)
class GamePlayer:
    seat: int
    name: str
    user_id: int | None
    is_bot: bool


def game_players(game: Game) -> list[GamePlayer]:
    """Who sat where in the game's match, by seat."""
    return [
        GamePlayer(player.seat, player.name, player.user_id, bool(player.bot_level))
        for player in MatchPlayer.objects.filter(match_id=game.match_id).order_by("seat")
    ]


def finished_game_ids(*, since: datetime, limit: int = 500) -> list[int]:
    """Games finished since `since`, oldest first."""
    rows = Game.objects.filter(finished_at__gte=since).order_by("finished_at").values_list("pk", flat=True)
    return list(rows[:limit])


@dataclass(frozen=True)
class SeatPosition:
    """A table as one user sees it now, read without a lock: the game in progress (its engine state and
    how many moves it has), the table's version, whether it is rated, and the user's seat (None: watching)."""

    table_id: int
    game_slug: str
    version: int
    rated: bool
    playing: bool
    game_id: int | None
    state: dict[str, Any] | None
    moves: int
    seat: int | None
    left_match: bool


def seat_position(table_id: int, user: Any) -> SeatPosition | None:
    """The table's position for `user` (None: no such table)."""
    table = Table.objects.select_related("match", "current_game").filter(pk=table_id).first()
    if table is None:
        return None
    seat = None
    left_match = False
    if user is not None and user.is_authenticated:
        found = Seat.objects.filter(table=table, user=user).values_list("index", "left_match").first()
        if found is not None:
            seat, left_match = found
    game = table.current_game
    return SeatPosition(
        table_id=table.pk,
        game_slug=table.game,
        version=table.version,
        rated=table.rated or bool(table.match and table.match.rated),
        playing=table.status == Table.Status.PLAYING and game is not None and game.finished_at is None,
        game_id=None if game is None else game.pk,
        state=None if game is None else game.state,
        # The moves made up to this version (one committed since the read above is not counted).
        moves=0 if game is None else MoveLog.objects.filter(game=game, version__lte=table.version).count(),
        seat=seat,
        left_match=left_match,
    )


def table_version(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
