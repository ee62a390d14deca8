"""The state of a house game: an immutable value (tuples throughout, so a move shares what it does not
change), its deal and its JSON form.

Tiles are physical ids (0-105, tiles.py) wherever the engine keeps them, so that the indicator's twin,
each joker's first player and every tile's whereabouts are exact. Faces are for notation and views.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apps.engine.errors import InvalidMove
from apps.engine.game import JSON
from apps.engine.tiles import JOKER_IDS, TILE_COUNT, Tile, TileId, full_set, tile_of, twin_of

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
        return cls(_ids(data["tiles"]), tuple(int(seat) for seat in data["placed_by"]), int(data["owner"]))


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


def deal(seats: int, rng: random.Random, starter: int | None, absent: Collection[int] = ()) -> HouseState:
    """Shuffle with `rng` and deal: 14 tiles to each seat in play, 15 to the starter, one indicator."""
    if not 2 <= seats <= 4:
        raise InvalidMove(f"Tile Rummy is played by 2, 3 or 4 players, not {seats}")
    absent_seats = frozenset(absent)
    if any(not 0 <= seat < seats for seat in absent_seats):
        raise InvalidMove(f"Absent seats {sorted(absent_seats)} are not all seats of a {seats}-seat table")
    playing = [seat for seat in range(seats) if seat not in absent_seats]
    if len(playing) < 2:
        raise InvalidMove("A game needs at least two players")
    if starter is None:
        starter = playing[rng.randrange(len(playing))]
    elif starter not in playing:
        raise InvalidMove(f"Seat {starter} cannot start: it is not in the game")
    tiles = full_set()
    rng.shuffle(tiles)
    racks: list[tuple[TileId, ...]] = []
    at = 0
    for seat in range(seats):
        size = 0 if seat in absent_seats else STARTER_HAND if seat == starter else HAND
        racks.append(tuple(sorted(tiles[at : at + size])))
        at += size
    return from_deal_parts(seats, starter, tiles[at], racks, tiles[at + 1 :], absent_seats)


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
        raise InvalidMove(f"A deal has 2-4 racks, one per seat: got {len(racks)} for {seats} seats")
    if not 0 <= starter < seats or starter in absent:
        raise InvalidMove(f"Seat {starter} cannot start this deal")
    rack_tuples = tuple(tuple(sorted(rack)) for rack in racks)
    for seat, rack in enumerate(rack_tuples):
        expected = 0 if seat in absent else STARTER_HAND if seat == starter else HAND
        if len(rack) != expected:
            raise InvalidMove(f"Seat {seat} must be dealt {expected} tiles, not {len(rack)}")
    every = [indicator, *pile]
    for rack in rack_tuples:
        every.extend(rack)
    if sorted(every) != list(range(TILE_COUNT)):
        raise InvalidMove("A deal must hold each of the 106 tiles exactly once")
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
        raise InvalidMove("Only a freshly dealt game has a deal to record")
    return {
        "seats": state.seats,
        "starter": state.starter,
        "indicator": state.indicator,
        "racks": [list(rack) for rack in state.racks],
        "pile": list(state.pile),
        "absent": [seat for seat in range(state.seats) if state.left[seat]],
    }


def deal_from_dict(data: Mapping[str, Any]) -> HouseState:
    try:
        return from_deal_parts(
            int(data["seats"]),
            int(data["starter"]),
            int(data["indicator"]),
            [_ids(rack) for rack in data["racks"]],
            _ids(data["pile"]),
            frozenset(int(seat) for seat in data.get("absent", [])),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidMove(f"Not a deal of Tile Rummy: {error}") from None


def _ids(values: Any) -> tuple[TileId, ...]:
    ids = tuple(int(value) for value in values)
    if any(not 0 <= tile < TILE_COUNT for tile in ids):
        raise InvalidMove(f"Tile ids go from 0 to 105: {list(ids)}")
    return ids


def _seat_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


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
    try:
        joker_by = [_seat_or_none(seat) for seat in data["joker_by"]]
        if len(joker_by) != len(JOKER_IDS):
            raise ValueError("joker_by has one entry per joker")
        state = HouseState(
            seats=int(data["seats"]),
            starter=int(data["starter"]),
            indicator=int(data["indicator"]),
            twin_seat=_seat_or_none(data["twin_seat"]),
            racks=tuple(_ids(rack) for rack in data["racks"]),
            pile=_ids(data["pile"]),
            discards=_ids(data["discards"]),
            discard_open=bool(data["discard_open"]),
            melds=tuple(TableMeld.from_dict(meld) for meld in data["melds"]),
            opened_on=tuple(_seat_or_none(turn) for turn in data["opened_on"]),
            turn=int(data["turn"]),
            turn_no=int(data["turn_no"]),
            phase=Phase(data["phase"]),
            drawn=_seat_or_none(data["drawn"]),
            left=tuple(bool(flag) for flag in data["left"]),
            away=tuple(bool(flag) for flag in data["away"]),
            joker_by=(joker_by[0], joker_by[1]),
            gone=_ids(data["gone"]),
            out=_seat_or_none(data["out"]),
            out_by_joker=bool(data["out_by_joker"]),
            end=None if data["end"] is None else str(data["end"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidMove(f"Not a Tile Rummy state: {error}") from None
    if sorted(state.all_tiles()) != list(range(TILE_COUNT)):
        raise InvalidMove("Not a Tile Rummy state: it must hold each of the 106 tiles exactly once")
    return state
