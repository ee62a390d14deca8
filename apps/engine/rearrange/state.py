"""The state of a Rearrange game: an immutable value (tuples throughout), its deal with the start
ceremony, and its JSON form.

Tiles are physical ids (0-105, tiles.py) wherever the engine keeps them; faces are for notation and views.

The start ceremony (SPEC 4 "Deal and order"): every seat in play draws a tile; a joker does not count
and that seat draws again at once; the highest number starts; seats tied for the highest draw again, in
a new round. The tiles go back and everything is reshuffled before the deal. The ceremony's draws are
part of the deal (and so of the game record): `ceremony[round]` lists `(seat, tile)` in drawing order.
Later games of a match rotate the start instead: their ceremony is empty.
"""

from __future__ import annotations

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
    tile_id,
    tile_ids,
)
from apps.engine.errors import InvalidMove
from apps.engine.game import JSON, Randomness
from apps.engine.tiles import TileId, full_set, tile_of

GAME = "Tile Rummy: Rearrange"
HAND = 14

Draws = tuple[tuple[int, TileId], ...]


@dataclass(frozen=True, slots=True)
class RearrangeState:
    """Everything about one Rearrange game. `pool[0]` is the next tile drawn. `table` holds the sets in
    table order (physical ids). `passed[seat]`: the seat passed (drew on an empty pool) since the last
    turn that was not a pass; when every seat still in has, the game is over. `gone` holds the racks of
    seats that left (out of play, kept so every one of the 106 tiles stays accounted for)."""

    seats: int
    starter: int
    ceremony: tuple[Draws, ...]
    racks: tuple[tuple[TileId, ...], ...]
    pool: tuple[TileId, ...]
    table: tuple[tuple[TileId, ...], ...] = ()
    opened: tuple[bool, ...] = ()
    turn: int = 0
    turn_no: int = 0
    passed: tuple[bool, ...] = ()
    left: tuple[bool, ...] = ()
    away: tuple[bool, ...] = ()
    gone: tuple[TileId, ...] = ()
    out: int | None = None
    end: str | None = None  # "out" | "pile" | "left" once over

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def in_play(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seats) if not self.left[seat])

    def all_tiles(self) -> list[TileId]:
        """Every physical tile, wherever it is (tile conservation: always the 106 ids once each)."""
        tiles = [*self.pool, *self.gone]
        for rack in self.racks:
            tiles.extend(rack)
        for meld in self.table:
            tiles.extend(meld)
        return tiles


# --- the start ceremony ------------------------------------------------------------------------------------


def start_ceremony(playing: Sequence[int], rng: Randomness) -> tuple[tuple[Draws, ...], int]:
    """Draw for the start with `rng`: the rounds of draws and the seat that starts."""
    tiles = full_set()
    rng.shuffle(tiles)
    at = 0
    rounds: list[Draws] = []
    contenders = list(playing)
    while True:
        draws: list[tuple[int, TileId]] = []
        drawn: dict[int, int] = {}
        for seat in contenders:
            while seat not in drawn:
                if at == len(tiles):  # (practically never) the tiles go back and are reshuffled
                    tiles = full_set()
                    rng.shuffle(tiles)
                    at = 0
                tile = tiles[at]
                at += 1
                draws.append((seat, tile))
                number = tile_of(tile).number
                if number is not None:
                    drawn[seat] = number
        rounds.append(tuple(draws))
        highest = max(drawn.values())
        contenders = [seat for seat in contenders if drawn[seat] == highest]
        if len(contenders) == 1:
            return tuple(rounds), contenders[0]


def ceremony_starter(rounds: Sequence[Draws], playing: Sequence[int]) -> int:
    """The seat a recorded ceremony makes the starter (checked: every contender draws until it has a
    number, nobody else draws, and the last round has one highest number)."""
    contenders = list(playing)
    if not rounds:
        raise InvalidMove("A start ceremony has at least one round of draws", "ceremony_empty")
    for index, draws in enumerate(rounds):
        if not contenders:
            raise InvalidMove("The start ceremony goes on after its starter was found", "ceremony_too_long")
        drawn: dict[int, int] = {}
        for seat, tile in draws:
            if seat not in contenders or seat in drawn:
                raise InvalidMove(f"Round {index + 1} of the start ceremony: seat {seat} may not draw now", "ceremony_seat", round=index + 1, seat=seat)
            number = tile_of(tile).number
            if number is not None:
                drawn[seat] = number
        if set(drawn) != set(contenders):
            raise InvalidMove(f"Round {index + 1} of the start ceremony: every contender draws until it has a number", "ceremony_number", round=index + 1)
        highest = max(drawn.values())
        contenders = [seat for seat in contenders if drawn[seat] == highest]
        if len(contenders) == 1 and index < len(rounds) - 1:
            contenders = []
    if len(contenders) != 1:
        raise InvalidMove("The start ceremony ends with a tie: the tied seats must draw again", "ceremony_tie")
    return contenders[0]


# --- the deal ------------------------------------------------------------------------------------------------


def _rack_sizes(seats: int, playing: Collection[int]) -> list[int]:
    return [HAND if seat in playing else 0 for seat in range(seats)]


def deal(seats: int, rng: Randomness, starter: int | None, absent: Collection[int] = ()) -> RearrangeState:
    """The start ceremony (unless `starter` is given: a later game of a match), then a fresh shuffle and
    14 tiles to each seat in play; the rest is the pool."""
    absent_seats = frozenset(absent)
    playing = playing_seats(GAME, seats, absent_seats)
    ceremony: tuple[Draws, ...] = ()
    if starter is None:
        ceremony, starter = start_ceremony(playing, rng)
    elif starter not in playing:
        raise InvalidMove(f"Seat {starter} cannot start: it is not in the game", "starter_absent", seat=starter)
    racks, pool = deal_racks(rng, _rack_sizes(seats, playing))
    return from_deal_parts(seats, starter, ceremony, racks, pool, absent_seats)


def from_deal_parts(
    seats: int,
    starter: int,
    ceremony: Sequence[Draws],
    racks: Sequence[Sequence[TileId]],
    pool: Sequence[TileId],
    absent: Collection[int] = (),
) -> RearrangeState:
    """The freshly dealt state, checked: the ceremony's starter, every tile once, the right rack sizes."""
    playing = playing_seats(GAME, seats, absent)
    if len(racks) != seats:
        raise InvalidMove(f"A deal has one rack per seat: got {len(racks)} for {seats} seats", "deal_racks", count=len(racks), seats=seats)
    if starter not in playing:
        raise InvalidMove(f"Seat {starter} cannot start this deal", "deal_starter", seat=starter)
    if ceremony and ceremony_starter(ceremony, playing) != starter:
        raise InvalidMove(
            f"The start ceremony makes seat {ceremony_starter(ceremony, playing)} the starter, not {starter}",
            "ceremony_starter",
            seat=ceremony_starter(ceremony, playing),
            starter=starter,
        )
    rack_tuples = dealt_racks(racks, _rack_sizes(seats, playing))
    if not holds_every_tile([*pool, *(tile for rack in rack_tuples for tile in rack)]):
        raise InvalidMove("A deal must hold each of the 106 tiles exactly once", "deal_tiles")
    return RearrangeState(
        seats=seats,
        starter=starter,
        ceremony=tuple(tuple(draws) for draws in ceremony),
        racks=rack_tuples,
        pool=tuple(pool),
        opened=(False,) * seats,
        passed=(False,) * seats,
        turn=starter,
        left=tuple(seat not in playing for seat in range(seats)),
        away=(False,) * seats,
    )


def _ceremony_json(ceremony: Sequence[Draws]) -> list[list[list[int]]]:
    return [[[seat, tile] for seat, tile in draws] for draws in ceremony]


def _ceremony_from(value: Any) -> tuple[Draws, ...]:
    return tuple(tuple((int(seat), tile_id(tile)) for seat, tile in draws) for draws in value)


def deal_to_dict(state: RearrangeState) -> JSON:
    if state.turn_no or state.table or state.gone:
        raise InvalidMove("Only a freshly dealt game has a deal to record", "deal_not_fresh")
    return deal_json(state, ceremony=_ceremony_json(state.ceremony), pool=list(state.pool))


def deal_from_dict(data: Mapping[str, Any]) -> RearrangeState:
    with reading(f"a deal of {GAME}"):
        seats, starter, racks, absent = deal_fields(data)
        return from_deal_parts(seats, starter, _ceremony_from(data.get("ceremony", [])), racks, tile_ids(data["pool"]), absent)


def state_to_dict(state: RearrangeState) -> JSON:
    return {
        "seats": state.seats,
        "starter": state.starter,
        "ceremony": _ceremony_json(state.ceremony),
        "racks": [list(rack) for rack in state.racks],
        "pool": list(state.pool),
        "table": [list(meld) for meld in state.table],
        "opened": list(state.opened),
        "turn": state.turn,
        "turn_no": state.turn_no,
        "passed": list(state.passed),
        "left": list(state.left),
        "away": list(state.away),
        "gone": list(state.gone),
        "out": state.out,
        "end": state.end,
    }


def state_from_dict(data: Mapping[str, Any]) -> RearrangeState:
    with reading(f"a {GAME} state"):
        state = RearrangeState(
            seats=int(data["seats"]),
            starter=int(data["starter"]),
            ceremony=_ceremony_from(data["ceremony"]),
            racks=tuple(tile_ids(rack) for rack in data["racks"]),
            pool=tile_ids(data["pool"]),
            table=tuple(tile_ids(meld) for meld in data["table"]),
            opened=flags(data["opened"]),
            turn=int(data["turn"]),
            turn_no=int(data["turn_no"]),
            passed=flags(data["passed"]),
            left=flags(data["left"]),
            away=flags(data["away"]),
            gone=tile_ids(data["gone"]),
            out=seat_or_none(data["out"]),
            end=None if data["end"] is None else str(data["end"]),
        )
    if not holds_every_tile(state.all_tiles()):
        raise InvalidMove(f"Not a {GAME} state: it must hold each of the 106 tiles exactly once", "state_tiles", game=GAME)
    return state
