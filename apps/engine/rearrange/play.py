"""The Rearrange game's state machine: `apply(state, seat, move)` (SPEC 4 "The turn" to "Time limit").

A turn is one move: a play (the whole table as the player leaves it, checked against the turn's start by
`validate.check_play`), a draw (a pass when the pool is empty), or the table's moves (timeout, autopilot).
Every function here is pure: it builds a new state with `dataclasses.replace`.

Which physical tile a face means: tiles already on the table stay on the table (the lowest ids of a face
first), new ones come from the rack (lowest id first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from apps.engine.common import apply_seat_move, next_in_play, seat_leaves, with_seat
from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.game import Auto, Draw, Move
from apps.engine.game import Timeout as TableTimeout
from apps.engine.rearrange.moves import Play, Table, Timeout
from apps.engine.rearrange.state import RearrangeState
from apps.engine.rearrange.validate import PlayCheck, check_play
from apps.engine.tiles import Tile, TileId, tile_of

PENALTY = 3


def faces(tiles: Sequence[TileId]) -> tuple[Tile, ...]:
    return tuple(tile_of(tile) for tile in tiles)


def table_faces(state: RearrangeState) -> Table:
    return tuple(faces(meld) for meld in state.table)


def check(state: RearrangeState, seat: int, table: Table) -> PlayCheck:
    """Would `seat` playing `table` now be legal? (IllegalMove naming the first rule broken.) The UI's line
    under the table and the bots ask this before sending a play."""
    return check_play(table_faces(state), faces(state.racks[seat]), table, opened=state.opened[seat])


def _over(state: RearrangeState, end: str, out: int | None = None) -> RearrangeState:
    return replace(state, end=end, out=out)


def _next_turn(state: RearrangeState) -> RearrangeState:
    return replace(state, turn=next_in_play(state.turn + 1, state.left), turn_no=state.turn_no + 1)


def _all_passed(state: RearrangeState) -> bool:
    return not state.pool and all(state.passed[seat] for seat in state.in_play)


def _draw(state: RearrangeState, seat: int, count: int) -> RearrangeState:
    """The seat draws `count` tiles (as many as the pool has); with an empty pool that is a pass. Ends the turn."""
    if not state.pool:
        passed = replace(state, passed=with_seat(state.passed, seat, True))
        return _over(passed, "pile") if _all_passed(passed) else _next_turn(passed)
    drawn, pool = state.pool[:count], state.pool[count:]
    rack = tuple(sorted((*state.racks[seat], *drawn)))
    after = replace(state, racks=with_seat(state.racks, seat, rack), pool=pool, passed=(False,) * state.seats)
    return _next_turn(after)


def _play(state: RearrangeState, seat: int, table: Table) -> RearrangeState:
    check(state, seat, table)
    on_table: dict[Tile, list[TileId]] = {}
    for tile in sorted(tile for meld in state.table for tile in meld):
        on_table.setdefault(tile_of(tile), []).append(tile)
    on_rack: dict[Tile, list[TileId]] = {}
    for tile in state.racks[seat]:
        on_rack.setdefault(tile_of(tile), []).append(tile)
    new_table: list[tuple[TileId, ...]] = []
    for meld in table:
        new_table.append(tuple((on_table.get(face) or on_rack[face]).pop(0) for face in meld))
    rack = tuple(sorted(tile for tiles in on_rack.values() for tile in tiles))
    after = replace(
        state,
        table=tuple(new_table),
        racks=with_seat(state.racks, seat, rack),
        opened=with_seat(state.opened, seat, True),
        passed=(False,) * state.seats,
    )
    if not rack:
        return _over(after, "out", out=seat)
    return _next_turn(after)


def _timeout(state: RearrangeState, seat: int, table: Table | None) -> RearrangeState:
    """SPEC 4 "Time limit": a table that passes every End-turn check stands; otherwise the table is as it was
    at the turn's start (it never changed here: only final tables reach the engine) and the player draws 3,
    fewer if the pool is short, a pass if it is empty."""
    if table is not None:
        try:
            return _play(state, seat, table)
        except IllegalMove:
            pass
    return _draw(state, seat, PENALTY)


def _leave(state: RearrangeState, seat: int) -> RearrangeState:
    """The seat's rack leaves the game (kept in `gone`); the table stays; the game ends below two players."""
    after = replace(seat_leaves(state, seat), passed=with_seat(state.passed, seat, False))
    if len(after.in_play) < 2:
        return _over(after, "left")
    if _all_passed(after):
        return _over(after, "pile")
    return _next_turn(after) if seat == state.turn else after


def _turn_move(state: RearrangeState, seat: int, move: Move) -> RearrangeState:
    if isinstance(move, Play):
        return _play(state, seat, move.table)
    if isinstance(move, (Draw, Auto)):
        return _draw(state, seat, 1)
    if isinstance(move, Timeout):
        return _timeout(state, seat, move.table)
    if isinstance(move, TableTimeout):
        return _timeout(state, seat, None)
    raise InvalidMove(f"{str(move)!r} is not a move of Tile Rummy: Rearrange", "not_a_rearrange_move", move=str(move))


def apply(state: RearrangeState, seat: int, move: Move) -> RearrangeState:
    return apply_seat_move(
        state,
        seat,
        move,
        over=state.over,
        leave=_leave,
        turn_move=_turn_move,
        autopilot_moves=(Timeout, TableTimeout, Auto),
    )
