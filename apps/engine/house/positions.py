"""Positions of the house game written in notation, for tests, the rules page's worked examples and bot
puzzles: `position(racks=["r1 r2 r3 ...", "..."], melds=[(0, "r5 r6 r7")], ...)`.

Faces become physical tiles in the order indicator, racks, melds, discards, pile: each face takes the
lower id of its two copies that is still free (so a rack holding the indicator's face holds its twin).
Every tile not named goes to the end of the draw pile in id order, so the position holds all 106 tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apps.engine.errors import InvalidMove
from apps.engine.house.state import HouseState, Phase, TableMeld
from apps.engine.tiles import TILE_COUNT, Tile, TileId, ids_of, parse_tiles, twin_of


class _Allocator:
    def __init__(self) -> None:
        self.free = set(range(TILE_COUNT))

    def take(self, faces: Iterable[Tile]) -> tuple[TileId, ...]:
        taken = []
        for face in faces:
            copy = next((tile for tile in ids_of(face) if tile in self.free), None)
            if copy is None:
                raise InvalidMove(f"There are only two {face} in the game", "only_two_copies", tile=str(face))
            self.free.remove(copy)
            taken.append(copy)
        return tuple(taken)


def position(
    racks: Sequence[str],
    *,
    melds: Sequence[tuple[int, str]] = (),
    indicator: str = "k7",
    discards: str = "",
    discard_open: bool = False,
    pile: str = "",
    pile_size: int | None = None,
    turn: int = 0,
    phase: Phase | str = Phase.PLAY,
    opened: Iterable[int] = (),
    opened_this_turn: Iterable[int] = (),
    turn_no: int = 5,
    starter: int = 0,
    joker_by: tuple[int | None, int | None] = (None, None),
    left: Iterable[int] = (),
) -> HouseState:
    """A house-game position. `melds` are (seat that laid it, tiles). `opened` seats opened on an earlier
    turn, `opened_this_turn` on this one. `pile` names the next tiles drawn (first drawn first); the rest of
    the tiles follow, unless `pile_size` cuts the pile there (the cut tiles go to the discards' bottom)."""
    allocate = _Allocator()
    indicator_id = allocate.take(parse_tiles(indicator))[0]
    rack_ids = tuple(tuple(sorted(allocate.take(parse_tiles(rack)))) for rack in racks)
    table = []
    for owner, text in melds:
        tiles = allocate.take(parse_tiles(text))
        table.append(TableMeld(tiles, (owner,) * len(tiles), owner))
    discard_ids = allocate.take(parse_tiles(discards))
    pile_ids = allocate.take(parse_tiles(pile))
    rest = tuple(sorted(allocate.free))
    pile_ids += rest
    if pile_size is not None:
        discard_ids = pile_ids[pile_size:] + discard_ids
        pile_ids = pile_ids[:pile_size]
    seats = len(racks)
    opened_on: list[int | None] = [None] * seats
    for seat in opened:
        opened_on[seat] = 0
    for seat in opened_this_turn:
        opened_on[seat] = turn_no
    twin = twin_of(indicator_id)
    gone_seats = set(left)
    return HouseState(
        seats=seats,
        starter=starter,
        indicator=indicator_id,
        twin_seat=next((seat for seat, rack in enumerate(rack_ids) if twin in rack), None),
        racks=rack_ids,
        pile=pile_ids,
        discards=discard_ids,
        discard_open=discard_open,
        melds=tuple(table),
        opened_on=tuple(opened_on),
        turn=turn,
        turn_no=turn_no,
        phase=Phase(phase),
        left=tuple(seat in gone_seats for seat in range(seats)),
        away=(False,) * seats,
        joker_by=joker_by,
    )
