"""Positions of the Rearrange game written in notation, for tests, the rules page's worked examples and bot
puzzles: `position(racks=["r1 r2 r3 ...", "..."], table="r5 r6 r7 | y2 b2 k2", opened=[0])`.

Faces become physical tiles in the order racks, table, pool (each face takes the lower free copy, as in
the house game's positions). Every tile not named goes to the end of the pool in id order, so the
position holds all 106 tiles, unless `pool_size` cuts the pool there (the cut tiles leave the game with
an imaginary seat, in `gone`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apps.engine.house.positions import _Allocator
from apps.engine.rearrange.state import RearrangeState
from apps.engine.tiles import parse_melds, parse_tiles


def position(
    racks: Sequence[str],
    *,
    table: str = "",
    pool: str = "",
    pool_size: int | None = None,
    turn: int = 0,
    turn_no: int = 5,
    opened: Iterable[int] = (),
    starter: int = 0,
    left: Iterable[int] = (),
    passed: Iterable[int] = (),
    away: Iterable[int] = (),
) -> RearrangeState:
    """A Rearrange position: racks by seat, the table's sets, the pool's first tiles (drawn first)."""
    allocate = _Allocator()
    rack_ids = tuple(tuple(sorted(allocate.take(parse_tiles(rack)))) for rack in racks)
    melds = tuple(allocate.take(meld) for meld in parse_melds(table))
    pool_ids = allocate.take(parse_tiles(pool)) + tuple(sorted(allocate.free))
    gone: tuple[int, ...] = ()
    if pool_size is not None:
        pool_ids, gone = pool_ids[:pool_size], pool_ids[pool_size:]
    seats = len(racks)
    opened_seats, left_seats, passed_seats, away_seats = set(opened), set(left), set(passed), set(away)
    return RearrangeState(
        seats=seats,
        starter=starter,
        ceremony=(),
        racks=rack_ids,
        pool=pool_ids,
        table=melds,
        opened=tuple(seat in opened_seats for seat in range(seats)),
        turn=turn,
        turn_no=turn_no,
        passed=tuple(seat in passed_seats for seat in range(seats)),
        left=tuple(seat in left_seats for seat in range(seats)),
        away=tuple(seat in away_seats for seat in range(seats)),
        gone=gone,
    )
