"""Look-ahead for the Rearrange Hard bot (issue 18): hidden racks sampled from a seat's view, and candidate
plays played out over those samples with a fast policy.

- `sample_hidden(seat, rng)`: one deal of the tiles the seat cannot see, consistent with its view: every
  face is in the game twice (two jokers), so the unseen tiles are the 106 less its rack and the table; the
  other seats still in get as many as their tile counts say, the pool as many as it holds. It is given the
  `RearrangeSeatView` only (which holds no hidden information), never the state. (The view keeps no
  history of draws and plays, and a bot keeps no state between calls, so nothing more is known: every
  consistent deal is equally likely.)
- `playout(...)`: from a position on faces, every seat plays the fast policy (`fast_move`: the solver's
  play that places the most tiles while keeping table jokers where they stand, or the best opening; else a
  draw) for a number of rounds, or to the end of the game; `evaluate` scores the result for one seat.
- `rank(...)`: each candidate's mean result over the same samples (common random numbers: the candidates
  differ by the candidate, not by the luck of the draw).

Pure: the only randomness is the `random.Random` passed in, and nothing iterates a set or a dict of tiles
in hash order (the same seed gives the same moves whatever PYTHONHASHSEED is).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from apps.engine.rearrange.bots.view import Faces, RearrangeSeatView
from apps.engine.rearrange.melds import rack_value
from apps.engine.rearrange.solver import solve, solve_opening
from apps.engine.tiles import JOKER, Tile, full_set, tile_of

Table = tuple[Faces, ...]

# The faces of the whole box, in tile-id order (each face twice, in key order, then the two jokers: a fixed
# order, so shuffles depend on the seed only).
_ALL_FACES: tuple[Tile, ...] = tuple(tile_of(tile_id) for tile_id in full_set())


@dataclass(frozen=True, slots=True)
class Hidden:
    """One sample of what the seat cannot see: the other seats' racks (by seat; the seat's own is its
    real rack) and the pool in drawing order."""

    racks: tuple[Faces, ...]
    pool: Faces


def unseen(seat: RearrangeSeatView) -> list[Tile]:
    """The tiles the seat cannot see (other racks, the pool, racks of seats that left), in key order."""
    seen = Counter(seat.rack)
    for meld in seat.table:
        seen.update(meld)
    left: list[Tile] = []
    for face in _ALL_FACES:
        if seen[face]:
            seen[face] -= 1
        else:
            left.append(face)
    return left


def sample_hidden(seat: RearrangeSeatView, rng: random.Random) -> Hidden:
    """A deal of the unseen tiles consistent with the view (see the module's docstring)."""
    tiles = unseen(seat)
    rng.shuffle(tiles)
    racks: list[Faces] = []
    at = 0
    for other in range(seat.seats):
        if other == seat.seat:
            racks.append(seat.rack)
        elif seat.left[other]:
            racks.append(())
        else:
            count = seat.tiles[other]
            racks.append(tuple(tiles[at : at + count]))
            at += count
    return Hidden(tuple(racks), tuple(tiles[at : at + seat.pool]))


def fast_move(table: Table, rack: Faces, opened: bool) -> tuple[Table, Faces] | None:
    """The fast policy: (new table, tiles placed), or None for a draw."""
    if opened:
        found = solve(table, rack, free_jokers=False)
    else:
        found = solve_opening(rack, table)
    return None if found is None else (found.table, found.placed)


def without(rack: Faces, placed: Faces) -> Faces:
    """What `rack` holds once `placed` (tiles of it) went down."""
    left = list(rack)
    for tile in placed:
        left.remove(tile)
    return tuple(left)


@dataclass(slots=True)
class Position:
    """A position on faces, for play-outs: mutable, one per play-out."""

    table: Table
    racks: list[Faces]
    pool: list[Tile]
    opened: list[bool]
    left: tuple[bool, ...]
    turn: int
    passes: int = 0
    out: int | None = None
    over: bool = False


def play(position: Position, move: tuple[Table, Faces] | None) -> Position:
    """The seat to move makes `move` (None: it draws, or passes on an empty pool), in place."""
    seat = position.turn
    if move is None:
        if position.pool:
            position.racks[seat] = (*position.racks[seat], position.pool.pop(0))
            position.passes = 0
        else:
            position.passes += 1
            position.over = position.passes >= sum(1 for flag in position.left if not flag)
    else:
        position.table = move[0]
        position.racks[seat] = without(position.racks[seat], move[1])
        position.opened[seat] = True
        position.passes = 0
        if not position.racks[seat]:
            position.out = seat
            position.over = True
    position.turn = _next(position, seat)
    return position


def playout(position: Position, rounds: int) -> Position:
    """Play the fast policy for every seat, `rounds` turns each (or to the game's end)."""
    for _ in range(rounds * sum(1 for flag in position.left if not flag)):
        if position.over:
            break
        seat = position.turn
        play(position, fast_move(position.table, position.racks[seat], position.opened[seat]))
    return position


def _next(position: Position, seat: int) -> int:
    seats = len(position.racks)
    for step in range(1, seats + 1):
        other = (seat + step) % seats
        if not position.left[other]:
            return other
    return seat


def evaluate(position: Position, me: int) -> float:
    """How good the position is for seat `me`, in 0..1: 1 if it went out, 0 if another did; else from
    the difference between its tiles and the fewest tiles of another seat (and its rack value against
    the lowest other rack value once the game ended on an empty pool)."""
    if position.out is not None:
        return 1.0 if position.out == me else 0.0
    others = [seat for seat in range(len(position.racks)) if seat != me and not position.left[seat]]
    if not others:
        return 1.0
    mine = position.racks[me]
    fewest = min(len(position.racks[seat]) for seat in others)
    lowest = min(sum(rack_value(tile) for tile in position.racks[seat]) for seat in others)
    value = sum(rack_value(tile) for tile in mine)
    if position.over:
        return 1.0 if value < lowest else 0.5 if value == lowest else 0.0
    # Tiles first (a tile is a turn), value a little (it is what a loser pays).
    margin = (fewest - len(mine)) + (lowest - value) / 40
    return 1 / (1 + math.exp(-0.6 * margin))


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move the Hard bot considers: the new table and the rack tiles it places (a draw places none)."""

    name: str
    table: Table | None  # None: draw
    placed: Faces


def after(seat: RearrangeSeatView, hidden: Hidden, candidate: Candidate) -> Position:
    """The position (on faces) after the seat makes `candidate`, with the sampled hidden tiles."""
    position = Position(seat.table, list(hidden.racks), list(hidden.pool), list(seat.opened), seat.left, seat.seat, sum(seat.passed))
    return play(position, None if candidate.table is None else (candidate.table, candidate.placed))


def rank(seat: RearrangeSeatView, candidates: Sequence[Candidate], deals: Sequence[Hidden], rounds: int) -> list[float]:
    """Each candidate's mean `evaluate` after `rounds` rounds of play-out, over the sampled `deals` (the
    same deals for every candidate)."""
    totals = [0.0] * len(candidates)
    for hidden in deals:
        for index, candidate in enumerate(candidates):
            totals[index] += evaluate(playout(after(seat, hidden, candidate), rounds), seat.seat)
    return [total / len(deals) for total in totals]


# --- the endgame: an empty pool ---------------------------------------------------------------------------


def _moves_of(table: Table, rack: Faces, opened: bool, holds: int) -> list[tuple[Table, Faces] | None]:
    """A seat's moves in the endgame search: a pass (None), the most tiles, the plays that hold back one
    of the `holds` highest tiles the most-tiles play places (costing no other tile), and the best play
    that keeps the rack's jokers."""
    moves: list[tuple[Table, Faces] | None] = [None]
    if opened:
        full = solve(table, rack)  # racks are short here: jokers may be freed
    else:
        full = solve_opening(rack, table)
    if full is None:
        return moves
    moves.append((full.table, full.placed))
    if not opened or len(full.placed) == len(rack):
        return moves
    numbered = sorted({tile for tile in full.placed if not tile.is_joker}, key=lambda tile: (-rack_value(tile), tile.key))
    for tile in numbered[:holds]:
        held = solve(table, rack, keep=[tile])
        if held is not None and len(held.placed) == len(full.placed) - 1:
            moves.append((held.table, held.placed))
    jokers = [tile for tile in rack if tile.is_joker]
    if jokers and JOKER in full.placed:
        kept = solve(table, rack, keep=jokers)
        if kept is not None:
            moves.append((kept.table, kept.placed))
    return moves


def _child(position: Position, move: tuple[Table, Faces] | None) -> Position:
    copy = Position(position.table, list(position.racks), list(position.pool), list(position.opened), position.left, position.turn, position.passes)
    return play(copy, move)


def endgame(position: Position, depth: int, holds: int = 1) -> Position:
    """With the pool empty: the position `depth` turns on (or at the game's end) when every seat, in
    turn, makes the move whose end is best for itself by `evaluate` (max-n search over `_moves_of`)."""
    if position.over or depth == 0:
        return position
    seat = position.turn
    best: Position | None = None
    best_value = -1.0
    for move in _moves_of(position.table, position.racks[seat], position.opened[seat], holds):
        leaf = endgame(_child(position, move), depth - 1, holds)
        value = evaluate(leaf, seat)
        if best is None or value > best_value:
            best, best_value = leaf, value
    assert best is not None
    return best


def rank_endgame(seat: RearrangeSeatView, candidates: Sequence[Candidate], deals: Sequence[Hidden], depth: int) -> list[float]:
    """As `rank`, with the pool empty: after each candidate, the endgame search `depth` turns deep (with
    two players the other rack is known exactly: one deal is enough)."""
    totals = [0.0] * len(candidates)
    for hidden in deals:
        for index, candidate in enumerate(candidates):
            totals[index] += evaluate(endgame(after(seat, hidden, candidate), depth), seat.seat)
    return [total / len(deals) for total in totals]
