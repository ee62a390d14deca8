"""The state of a house game: an immutable value (tuples throughout, so a move shares what it does not
change), its deal and its JSON form.

Tiles are physical ids (0-105, tiles.py) wherever the engine keeps them, so that the indicator's twin,
each joker's first player and every tile's whereabouts are exact. Faces are for notation and views.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apps.engine.common import (
    deal_fields,
    deal_json,
    deal_racks,
    dealt_racks,
    flags,
    holds_every_tile,
    playing_seats,
    reading,
    seat_or_none,
    tile_ids,
)
from apps.engine.errors import InvalidMove
from apps.engine.game import JSON, Randomness
from apps.engine.tiles import JOKER_IDS, Tile, TileId, tile_of, twin_of

GAME = "Tile Rummy"
HAND = 14
STARTER_HAND = 15


class Phase(enum.Enum):
    DRAW = "draw"  # the seat to move draws (or takes the last discard)
    PLAY = "play"  # drawn (or the starter's first turn): lay down, then discard
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its tiles in table order, who put each one there, and who laid it first."""

    tiles: tuple[TileId, ...]
    placed_by: tuple[int, ...]
    owner: int

    @property
    def faces(self) -> tuple[Tile, ...]:
        return tuple(tile_of(tile) for tile in self.tiles)

    def to_dict(self) -> JSON:
        return {"tiles": list(self.tiles), "placed_by": list(self.placed_by), "owner": self.owner}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableMeld:
        return cls(tile_ids(data["tiles"]), tuple(int(seat) for seat in data["placed_by"]), int(data["owner"]))


@dataclass(frozen=True, slots=True)
class HouseState:
    """Everything about one house game. `pile[0]` is the next tile drawn. `joker_by[i]` is the seat that
    first put joker `JOKER_IDS[i]` on the table. `gone` holds the racks of seats that left (out of play,
    kept so that every one of the 106 tiles stays accounted for)."""

    seats: int
    starter: int
    indicator: TileId
    twin_seat: int | None
    racks: tuple[tuple[TileId, ...], ...]
    pile: tuple[TileId, ...]
    discards: tuple[TileId, ...] = ()
    discard_open: bool = False
    melds: tuple[TableMeld, ...] = ()
    opened_on: tuple[int | None, ...] = ()
    turn: int = 0
    turn_no: int = 0
    phase: Phase = Phase.PLAY
    drawn: TileId | None = None
    left: tuple[bool, ...] = ()
    away: tuple[bool, ...] = ()
    joker_by: tuple[int | None, int | None] = (None, None)
    gone: tuple[TileId, ...] = ()
    out: int | None = None
    out_by_joker: bool = False
    end: str | None = None  # "out" | "pile" | "left" once over

    @property
    def is_double(self) -> bool:
        """A double game: the indicator is a 1 or a joker."""
        face = tile_of(self.indicator)
        return face.is_joker or face.number == 1

    @property
    def in_play(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seats) if not self.left[seat])

    def all_tiles(self) -> list[TileId]:
        """Every physical tile, wherever it is (tile conservation: always the 106 ids once each)."""
        tiles = [self.indicator, *self.pile, *self.discards, *self.gone]
        for rack in self.racks:
            tiles.extend(rack)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles


def _rack_sizes(seats: int, starter: int, absent: Collection[int]) -> list[int]:
    return [0 if seat in absent else STARTER_HAND if seat == starter else HAND for seat in range(seats)]


def deal(seats: int, rng: Randomness, starter: int | None, absent: Collection[int] = ()) -> HouseState:
    """Shuffle with `rng` and deal: 14 tiles to each seat in play, 15 to the starter, one indicator."""
    absent_seats = frozenset(absent)
    playing = playing_seats(GAME, seats, absent_seats)
    if starter is None:
        starter = playing[rng.randrange(len(playing))]
    elif starter not in playing:
        raise InvalidMove(f"Seat {starter} cannot start: it is not in the game", "starter_absent", seat=starter)
    racks, rest = deal_racks(rng, _rack_sizes(seats, starter, absent_seats))
    return from_deal_parts(seats, starter, rest[0], racks, rest[1:], absent_seats)


def from_deal_parts(
    seats: int,
    starter: int,
    indicator: TileId,
    racks: Sequence[Sequence[TileId]],
    pile: Sequence[TileId],
    absent: Collection[int] = (),
) -> HouseState:
    """The freshly dealt state, checked: every tile once, the right rack sizes."""
    if not 2 <= seats <= 4 or len(racks) != seats:
        raise InvalidMove(f"A deal has 2-4 racks, one per seat: got {len(racks)} for {seats} seats", "deal_racks", count=len(racks), seats=seats)
    if not 0 <= starter < seats or starter in absent:
        raise InvalidMove(f"Seat {starter} cannot start this deal", "deal_starter", seat=starter)
    rack_tuples = dealt_racks(racks, _rack_sizes(seats, starter, absent))
    if not holds_every_tile([indicator, *pile, *(tile for rack in rack_tuples for tile in rack)]):
        raise InvalidMove("A deal must hold each of the 106 tiles exactly once", "deal_tiles")
    twin = twin_of(indicator)
    twin_seat = next((seat for seat, rack in enumerate(rack_tuples) if twin in rack), None)
    return HouseState(
        seats=seats,
        starter=starter,
        indicator=indicator,
        twin_seat=twin_seat,
        racks=rack_tuples,
        pile=tuple(pile),
        opened_on=(None,) * seats,
        turn=starter,
        phase=Phase.PLAY,  # the starter's first turn has no draw
        left=tuple(seat in absent for seat in range(seats)),
        away=(False,) * seats,
    )


def deal_to_dict(state: HouseState) -> JSON:
    if state.turn_no or state.discards or state.melds or state.gone:
        raise InvalidMove("Only a freshly dealt game has a deal to record", "deal_not_fresh")
    return deal_json(state, indicator=state.indicator, pile=list(state.pile))


def deal_from_dict(data: Mapping[str, Any]) -> HouseState:
    with reading(f"a deal of {GAME}"):
        seats, starter, racks, absent = deal_fields(data)
        return from_deal_parts(seats, starter, int(data["indicator"]), racks, tile_ids(data["pile"]), absent)


def state_to_dict(state: HouseState) -> JSON:
    return {
        "seats": state.seats,
        "starter": state.starter,
        "indicator": state.indicator,
        "twin_seat": state.twin_seat,
        "racks": [list(rack) for rack in state.racks],
        "pile": list(state.pile),
        "discards": list(state.discards),
        "discard_open": state.discard_open,
        "melds": [meld.to_dict() for meld in state.melds],
        "opened_on": list(state.opened_on),
        "turn": state.turn,
        "turn_no": state.turn_no,
        "phase": state.phase.value,
        "drawn": state.drawn,
        "left": list(state.left),
        "away": list(state.away),
        "joker_by": list(state.joker_by),
        "gone": list(state.gone),
        "out": state.out,
        "out_by_joker": state.out_by_joker,
        "end": state.end,
    }


def state_from_dict(data: Mapping[str, Any]) -> HouseState:
    with reading(f"a {GAME} state"):
        joker_by = [seat_or_none(seat) for seat in data["joker_by"]]
        if len(joker_by) != len(JOKER_IDS):
            raise ValueError("joker_by has one entry per joker")
        state = HouseState(
            seats=int(data["seats"]),
            starter=int(data["starter"]),
            indicator=int(data["indicator"]),
            twin_seat=seat_or_none(data["twin_seat"]),
            racks=tuple(tile_ids(rack) for rack in data["racks"]),
            pile=tile_ids(data["pile"]),
            discards=tile_ids(data["discards"]),
            discard_open=bool(data["discard_open"]),
            melds=tuple(TableMeld.from_dict(meld) for meld in data["melds"]),
            opened_on=tuple(seat_or_none(turn) for turn in data["opened_on"]),
            turn=int(data["turn"]),
            turn_no=int(data["turn_no"]),
            phase=Phase(data["phase"]),
            drawn=seat_or_none(data["drawn"]),
            left=flags(data["left"]),
            away=flags(data["away"]),
            joker_by=(joker_by[0], joker_by[1]),
            gone=tile_ids(data["gone"]),
            out=seat_or_none(data["out"]),
            out_by_joker=bool(data["out_by_joker"]),
            end=None if data["end"] is None else str(data["end"]),
        )
    if not holds_every_tile(state.all_tiles()):
        raise InvalidMove(f"Not a {GAME} state: it must hold each of the 106 tiles exactly once", "state_tiles", game=GAME)
    return state
