"""A brute-force reference for the house game's turn search, for small positions only (tests).

It knows nothing of the search: from a position where the seat has opened on an earlier turn, it tries
every move the engine accepts (a new meld in any order of any tiles of the rack, lay-offs of up to three
tiles at either end of any meld, every joker the seat can take), one after another, and asks `apply`
each time; the worth of a turn is what left the rack, each tile counting `TILE` plus its rack points.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations

from apps.engine.errors import EngineError
from apps.engine.game import Move
from apps.engine.house import RULES
from apps.engine.house.helpers import joker_takes
from apps.engine.house.melds import rack_penalty, try_read_meld
from apps.engine.house.moves import Lay, LayOff
from apps.engine.house.review import TILE
from apps.engine.house.state import HouseState
from apps.engine.tiles import Tile, tile_of


def _rack(state: HouseState, seat: int) -> list[Tile]:
    return sorted((tile_of(tile) for tile in state.racks[seat]), key=lambda tile: tile.key)


def hand_worth(tiles: list[Tile]) -> int:
    return sum(TILE + rack_penalty(tile) for tile in tiles)


def _moves(state: HouseState, seat: int) -> Iterator[Move]:
    rack = _rack(state, seat)
    seen: set[tuple[Tile, ...]] = set()
    for size in range(3, len(rack)):
        for chosen in combinations(rack, size):
            for order in permutations(chosen):
                if order not in seen and try_read_meld(order) is not None:
                    seen.add(order)
                    yield Lay((order,))
    for index in range(len(state.melds)):
        for size in range(1, min(3, len(rack) - 1) + 1):
            for chosen in set(permutations(rack, size)):
                for cut in range(size + 1):
                    yield LayOff(index, chosen[:cut], chosen[cut:])
    yield from joker_takes(state, seat)


def best_worth(state: HouseState, seat: int, memo: dict[tuple[object, ...], int] | None = None) -> int:
    """The most worth any sequence of moves of this turn takes off the seat's rack (0: none)."""
    memo = {} if memo is None else memo
    key = (tuple(_rack(state, seat)), tuple(meld.faces for meld in state.melds))
    if key in memo:
        return memo[key]
    before = hand_worth(_rack(state, seat))
    best = 0
    for move in _moves(state, seat):
        try:
            after = RULES.apply(state, seat, move)
        except EngineError:
            continue
        best = max(best, before - hand_worth(_rack(after, seat)) + best_worth(after, seat, memo))
    memo[key] = best
    return best
