"""The Easy bot of the house game (SPEC 7): a casual player.

It draws (never takes the last discard), opens as soon as its rack can, then lays any meld its rack makes,
lays off single tiles where they fit, and discards its least useful tile: the one with fewest neighbours
on the rack, the most expensive first among equals. It never plans ahead and never takes a joker.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from apps.engine.game import JSON, Draw, Move
from apps.engine.house.bots.view import SeatView
from apps.engine.house.helpers import find_opening, lay_off_spots, melds_from_rack
from apps.engine.house.melds import rack_penalty
from apps.engine.house.moves import Discard, Lay
from apps.engine.house.state import Phase
from apps.engine.tiles import Tile


def neighbours(tile: Tile, rack: Sequence[Tile]) -> int:
    """How many other rack tiles could share a meld with `tile`: same colour within two numbers (13 and 1
    are neighbours), or same number in another colour. A joker is everybody's neighbour."""
    if tile.is_joker:
        return len(rack)
    count = 0
    for other in rack:
        if other is tile or other.is_joker:
            count += other.is_joker
            continue
        assert tile.number is not None and other.number is not None
        if other.colour is tile.colour:
            gap = abs(tile.number - other.number)
            if 0 < gap <= 2 or gap >= 11:
                count += 1
        elif other.number == tile.number:
            count += 1
    return count


def least_useful(rack: Sequence[Tile]) -> Tile:
    """The tile a casual player discards: fewest neighbours, then the most expensive, then the highest."""
    counts = Counter(rack)

    def keep(tile: Tile) -> tuple[int, int, int, int]:
        # A duplicate copy of a face is worth nothing to a meld: count it as having no neighbours.
        links = 0 if counts[tile] > 1 and not tile.is_joker else neighbours(tile, rack)
        return (tile.is_joker, links, -rack_penalty(tile), -(tile.number or 0))

    return min(rack, key=keep)


class EasyHouseBot:
    level = "easy"

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        seat = SeatView.of(view)
        if seat.phase is Phase.DRAW:
            return Draw()
        rack = seat.rack
        if len(rack) > 1:
            if not seat.has_opened:
                opening = find_opening(rack)
                if opening is not None:
                    return Lay(tuple(meld.tiles for meld in opening))
            else:
                for meld in sorted(melds_from_rack(rack), key=lambda meld: (-len(meld.tiles), -meld.points)):
                    if len(meld.tiles) < len(rack):
                        return Lay((meld.tiles,))
                if seat.opened_before:
                    for tile in sorted(set(rack), key=lambda tile: (-rack_penalty(tile), tile.key)):
                        spots = lay_off_spots(seat.table, tile)
                        if spots:
                            return spots[0]
        return Discard(least_useful(rack))
