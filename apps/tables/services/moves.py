"""A seated player's moves, the scratchpad of the rearrange game, and "I'm back"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.game import Back, Leave
from apps.live.guard import CLIENT_ID_LENGTH
from apps.tables.models import MoveLog, Table
from apps.tables.services import sql
from apps.tables.services.errors import MoveOutcome, NotAllowed, StaleVersion
from apps.tables.services.play import apply_and_save
from apps.tables.services.rows import check_may_act, lock, parse_move, rules_of, seat_of, seat_row, seats
from apps.tables.services.seating import remove_seat

Actor = MoveLog.Actor

#: Moves only the table itself makes; a player who sends one gets an error.
TABLE_ONLY_MOVES = frozenset({"timeout", "auto"})


def game_move(
    *,
    table_id: int,
    by: User,
    move: str | Mapping[str, Any],
    expected_version: int | None = None,
    client_id: str = "",
) -> MoveOutcome:
    """A seated player's move. The same `client_id` sent twice is applied once."""
    client_id = client_id[:CLIENT_ID_LENGTH]  # as long as MoveLog keeps it, so that the duplicate check matches
    with transaction.atomic():
        table = lock(table_id)
        seat = seat_of(table, by)
        if seat is None:
            raise NotAllowed(_("You are watching this table: only its players can move."))
        if table.status != Table.Status.PLAYING or table.current_game is None:
            raise NotAllowed(_("There is no game in progress at this table."))
        if seat["left"]:
            raise NotAllowed(_("You have left this match."))
        game = table.current_game
        if expected_version != table.version:
            # A move sent for the version the table is at cannot have been applied already (it would
            # have raised the version): only a move sent for another version, or for none, is looked up.
            if client_id and MoveLog.objects.filter(game=game, seat=seat["index"], client_id=client_id).exists():
                return MoveOutcome(table.version, duplicate=True)
            if expected_version is not None:
                raise StaleVersion(expected_version, table.version)
        rules = rules_of(table)
        parsed = parse_move(rules, move)
        if parsed.kind in TABLE_ONLY_MOVES:
            raise InvalidMove(_("%(move)r is a move only the table makes.") % {"move": str(parsed)})
        if isinstance(parsed, Leave):  # a barred player may still stand up
            rows = seats(table)
            seat_in_rows = seat_row(rows, by)
            assert seat_in_rows is not None
            remove_seat(table, rows, seat_in_rows, actor=Actor.PLAYER)
            return MoveOutcome(table.version)
        check_may_act(by)  # the row at hand, no query: a ban closes the sockets that hold an older one
        state = rules.from_dict(game.state)
        if rules.is_over(state):
            raise IllegalMove(_("This game is over; the next one starts in a moment."))
        apply_and_save(table, rules, state, seat["index"], parsed, actor=Actor.PLAYER, client_id=client_id)
        return MoveOutcome(table.version)


def game_draft(*, table_id: int, by: User, move: str | Mapping[str, Any] | None) -> None:
    """Keep the play a player is preparing (the rearrange game's scratchpad) so a legal one can stand
    if the clock runs out. Nobody else sees it; the version does not change."""
    check_may_act(by)
    with transaction.atomic():
        table = lock(table_id)
        seat = seat_of(table, by)
        game = table.current_game
        if seat is None or game is None or table.status != Table.Status.PLAYING:
            raise NotAllowed(_("You have no game in progress at this table."))
        rules = rules_of(table)
        state = rules.from_dict(game.state)
        if rules.to_move(state) != seat["index"]:
            raise NotAllowed(_("It is not your turn."))
        # Malformed drafts are refused now, not at the deadline; the draft is kept in the engine's own
        # notation, never as the client sent it (which may hold anything JSON can, NUL included).
        parsed = None if move is None else str(parse_move(rules, move))
        game.draft = None if parsed is None else {"seat": seat["index"], "turn": game.turn, "move": parsed}
        # The table's row is written too (its `updated_at`, not its version): a service waiting for the
        # lock then reads the game again (sql.lock_table), and a timeout plays this draft, not the one before.
        sql.write((game, ["draft"]), (table, ["updated_at"]))


def game_back(*, table_id: int, by: User) -> MoveOutcome:
    """"I'm back": the seat leaves autopilot."""
    return game_move(table_id=table_id, by=by, move=str(Back()))
