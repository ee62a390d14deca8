"""Applying one move to a locked table's game: the hot path of the site (CONVENTIONS 6, 7 and 19).

One move is, after the table's locking read (which brings the game and match along): one INSERT of the
numbered move (the game counts its moves: no COUNT), one UPDATE of the game, one UPDATE of the table's
few changed columns, sent as one statement (apps/tables/services/sql.py, written once per process). Who
sits where is read from `Table.seating`, never the seat rows. The frames are built from what was just
saved and published once, after the commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from apps.engine.game import Leave, Move, Rules
from apps.engine.match import Match as EngineMatch
from apps.lib import metrics
from apps.lib.events import Event
from apps.live.guard import CLIENT_ID_LENGTH
from apps.tables import effects, history, rated
from apps.tables.events import GameFinished
from apps.tables.models import Game, MoveLog, Table
from apps.tables.services import sql
from apps.tables.services.flow import Due, abort_absent, finish_match, schedule, seconds, turn_passed
from apps.tables.services.rows import bump

Actor = MoveLog.Actor

#: The table's columns a move may change (the others stay as they are: nothing else is written).
MOVE_FIELDS = ("version", "due_action", "due_at", "status", "updated_at")


def counts_own_turns(table: Table, game: Game) -> bool:
    """Whether the game's own turns are still counted: the first game of a rated match while its abort
    window is open (from rows already in memory: no query)."""
    match = table.match
    if match is None or not match.rated or game.number != 1:
        return False
    return rated.window_open(table.seating, game.own_turns or (), first_game=True, over=False)


def apply_and_save(
    table: Table,
    rules: Rules[Any],
    state: Any,
    seat: int,
    move: Move,
    *,
    actor: str,
    client_id: str = "",
    now: datetime | None = None,
    table_fields: tuple[str, ...] = (),
    events: Sequence[Event] = (),
) -> None:
    """Apply one move to the locked table's current game, log it, decide what is due next, save, and
    register the effects. `now` is the table's clock (the sweep passes its own; tests a fake one);
    `table_fields` are further table columns the caller changed, `events` what else it has to tell."""
    game = table.current_game
    assert game is not None
    before_to_move = rules.to_move(state)
    status_before = table.status
    after = rules.apply(state, seat, move)
    now = now or timezone.now()
    bump(table)
    metrics.move_applied(table_id=table.pk, version=table.version, game=table.game, actor=actor)
    game.move_count += 1
    logged = MoveLog(
        game=game,
        seq=game.move_count,
        seat=seat,
        move=str(move),
        actor=actor,
        at=now,
        offset_ms=max(0, int((now - game.started_at).total_seconds() * 1000)),
        client_id=client_id[:CLIENT_ID_LENGTH],
        version=table.version,
    )
    game_fields = ["state", "turn", "move_count", "deadline"]
    new_turn = rules.to_move(after) != before_to_move
    if new_turn:
        game.turn += 1
        game.draft = None
        game_fields.append("draft")
        if actor == Actor.PLAYER and seat == before_to_move and not isinstance(move, Leave) and (
            counts_own_turns(table, game) or table.seating[seat].get("berserk")
        ):
            # The seat ended its own turn (not autopilot, not a timeout): the abort window's count (SPEC 11),
            # and a berserk seat's every turn (an arena's +1 needs 7 of its own, SPEC 16: read from the
            # seating at hand, so a seat that did not go berserk pays nothing more), written in the game's
            # UPDATE below.
            own = list(game.own_turns or ()) + [0] * (table.seat_count - len(game.own_turns or ()))
            own[seat] += 1
            game.own_turns = own
            game_fields.append("own_turns")
    game.state = rules.to_dict(after)
    # The log's lines, from what everyone could see before and after (saved in the same row update).
    public = rules.view_for(after, None)  # also the spectators' frame, after the commit
    game.log = history.kept(game.log, history.entries(rules.view_for(state, None), public))
    game_fields.append("log")
    match = table.match
    if rules.is_over(after):
        result = rules.result(after)
        assert result is not None and match is not None
        game.result = result.to_dict()
        game.finished_at = now
        game.deadline = None
        game_fields += ["result", "finished_at"]
        engine_match = EngineMatch.from_dict(match.state).finish_game(after)
        match.state = engine_match.to_dict()
        match.save(update_fields=["state"])
        events = (*events, GameFinished(game.pk, match.pk, table.pk))
        absent = rated.absent_seat(table.seating, game.own_turns or ()) if counts_own_turns(table, game) else None
        if absent is not None:  # SPEC 11: a rated match nobody played is aborted, however it ends
            events = (*events, abort_absent(table, absent))
            table_fields = (*table_fields, "rated")
        elif engine_match.is_over:
            events = (*events, finish_match(table))
        else:
            table.due_action = Due.NEXT_GAME
            table.due_at = now + seconds("TABLE_NEXT_GAME_DELAY", 20)
    else:
        schedule(table, game, rules, after, now, new_turn=new_turn)
        if new_turn and not table.turn_seconds:  # a slow table says whose turn it is; a timed one only compares
            events = (*events, *turn_passed(table, rules, after))
    sql.write((logged, None), (game, game_fields), (table, [*MOVE_FIELDS, *table_fields]))
    # The lobby lists seats and status, which a move changes only when it ends the match.
    effects.after_commit(
        table,
        lobby=table.status != status_before or "seating" in table_fields,
        frames=effects.Frames(game, match, after, public),
        events=events,
    )
