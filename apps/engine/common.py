"""What every game module needs the same way and no rule of one game decides: dealing racks, reading a
stored state or deal back from JSON, asking a game's meld reader its three questions, the seat
bookkeeping around a move, and the parts of a seat's view that every game shows alike.

Each game's `state.py`, `melds.py`, `play.py` and `view.py` build on these, so that, say, "which seats are
dealt in" or "is this seat allowed to move at all" is written once for the whole catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from apps.engine.errors import IllegalMove, InvalidMove, Phrase
from apps.engine.game import JSON, Back, GameResult, Leave, Move, Randomness, Rules
from apps.engine.tiles import TILE_COUNT, Tile, TileId, format_tiles, full_set, tile_of

MeldT = TypeVar("MeldT")
ValueT = TypeVar("ValueT")


class SeatedState(Protocol):
    """What every game's state has (a frozen dataclass): seats, racks, a turn, who left or is away, and the
    racks of seats that left (`gone`)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def seats(self) -> int: ...
    @property
    def starter(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def turn_no(self) -> int: ...
    @property
    def racks(self) -> tuple[tuple[TileId, ...], ...]: ...
    @property
    def left(self) -> tuple[bool, ...]: ...
    @property
    def away(self) -> tuple[bool, ...]: ...
    @property
    def gone(self) -> tuple[TileId, ...]: ...


StateT = TypeVar("StateT", bound=SeatedState)


# ---------------------------------------------------------------------------------------------------
# The deal


def playing_seats(game: str, seats: int, absent: Collection[int]) -> list[int]:
    """The seats dealt in: all but the `absent` ones (seats that left the match earlier), checked."""
    if not 2 <= seats <= 4:
        raise InvalidMove(f"{game} is played by 2, 3 or 4 players, not {seats}", "seat_count", game=game, seats=seats)
    if any(not 0 <= seat < seats for seat in absent):
        raise InvalidMove(f"Absent seats {sorted(absent)} are not all seats of a {seats}-seat table", "absent_seats", absent=sorted(absent), seats=seats)
    playing = [seat for seat in range(seats) if seat not in absent]
    if len(playing) < 2:
        raise InvalidMove("A game needs at least two players", "too_few_players")
    return playing


def deal_racks(rng: Randomness, sizes: Sequence[int]) -> tuple[list[tuple[TileId, ...]], list[TileId]]:
    """Shuffle the 106 tiles with `rng` and deal one rack (sorted) of each size, seat by seat: the racks
    and the tiles left over, in their shuffled order."""
    tiles = full_set()
    rng.shuffle(tiles)
    racks: list[tuple[TileId, ...]] = []
    at = 0
    for size in sizes:
        racks.append(tuple(sorted(tiles[at : at + size])))
        at += size
    return racks, tiles[at:]


def dealt_racks(racks: Sequence[Sequence[TileId]], sizes: Sequence[int]) -> tuple[tuple[TileId, ...], ...]:
    """A deal's racks, sorted, checked against the sizes each seat must be dealt."""
    rack_tuples = tuple(tuple(sorted(rack)) for rack in racks)
    for seat, (rack, expected) in enumerate(zip(rack_tuples, sizes, strict=True)):
        if len(rack) != expected:
            raise InvalidMove(f"Seat {seat} must be dealt {expected} tiles, not {len(rack)}", "rack_size", seat=seat, expected=expected, count=len(rack))
    return rack_tuples


def holds_every_tile(tiles: Iterable[TileId]) -> bool:
    """Tile conservation: these are the 106 physical tiles, each exactly once."""
    return sorted(tiles) == list(range(TILE_COUNT))


def deal_json(state: SeatedState, **parts: Any) -> JSON:
    """A fresh deal as JSON (game records): the seats, the starter, the game's own `parts` (the pile or
    the pool, the indicator, the start ceremony), the racks and the seats left out."""
    return {
        "seats": state.seats,
        "starter": state.starter,
        **parts,
        "racks": [list(rack) for rack in state.racks],
        "absent": [seat for seat, gone in enumerate(state.left) if gone],
    }


def deal_fields(data: Mapping[str, Any]) -> tuple[int, int, list[tuple[TileId, ...]], frozenset[int]]:
    """The seats, the starter, the racks and the absent seats of a deal's JSON (`deal_json`)."""
    racks = [tile_ids(rack) for rack in data["racks"]]
    return int(data["seats"]), int(data["starter"]), racks, frozenset(int(seat) for seat in data.get("absent", []))


# ---------------------------------------------------------------------------------------------------
# Seats and turns


def check_seat(seat: int, seats: int) -> None:
    if not 0 <= seat < seats:
        raise InvalidMove(f"There is no seat {seat} at this {seats}-seat table", "no_such_seat", seat=seat, seats=seats)


def with_seat(values: tuple[ValueT, ...], seat: int, value: ValueT) -> tuple[ValueT, ...]:
    """`values` (one per seat) with the seat's entry replaced (the same tuple when it holds `value` already)."""
    if values[seat] == value:
        return values
    return values[:seat] + (value,) + values[seat + 1 :]


def next_in_play(seat: int, left: Sequence[bool]) -> int:
    """The first seat still in, going clockwise from `seat` (itself included; any int, taken round the table)."""
    seats = len(left)
    seat %= seats
    while left[seat]:
        seat = (seat + 1) % seats
    return seat


def seat_leaves(state: StateT, seat: int) -> StateT:
    """`seat` stands up: its rack leaves the game (kept in `gone`, so every tile stays accounted for), and
    the seat is out and no longer away."""
    return replace(
        state,
        racks=with_seat(state.racks, seat, ()),
        gone=state.gone + state.racks[seat],
        left=with_seat(state.left, seat, True),
        away=with_seat(state.away, seat, False),
    )


def apply_seat_move(
    state: StateT,
    seat: int,
    move: Move,
    *,
    over: bool,
    leave: Callable[[StateT, int], StateT],
    turn_move: Callable[[StateT, int, Move], StateT],
    autopilot_moves: tuple[type[Move], ...],
) -> StateT:
    """A game's `apply`, the part every game shares: a seat may leave or say "I'm back" at any time, any
    other move only on its turn (`turn_move` plays it), and a move the table makes for the seat
    (`autopilot_moves`) puts it on autopilot, while a move of its own takes it off."""
    if not isinstance(move, Move):
        raise InvalidMove(f"{move!r} is not a move", "not_a_move", move=repr(move))
    check_seat(seat, state.seats)
    if over:
        raise IllegalMove(f"{str(move)!r}: the game is over", "game_over", move=str(move))
    if state.left[seat]:
        raise IllegalMove(f"{str(move)!r}: seat {seat} is no longer in this game", "seat_left", move=str(move), seat=seat)
    if isinstance(move, Leave):
        return leave(state, seat)
    if isinstance(move, Back):
        return replace(state, away=with_seat(state.away, seat, False))
    if seat != state.turn:
        raise IllegalMove(f"{str(move)!r}: it is not your turn (seat {state.turn} is playing)", "not_your_turn", move=str(move), seat=state.turn)
    after = turn_move(state, seat, move)
    away = isinstance(move, autopilot_moves)
    if after.away[seat] != away:
        after = replace(after, away=with_seat(after.away, seat, away))
    return after


# ---------------------------------------------------------------------------------------------------
# Reading JSON back


@contextmanager
def reading(what: str) -> Iterator[None]:
    """A missing key or a value of the wrong type met while reading stored JSON becomes
    InvalidMove("Not {what}: ...")."""
    try:
        yield
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidMove(f"Not {what}: {error}", "unreadable", what=what, error=str(error)) from None


def tile_id(value: Any) -> TileId:
    tile = int(value)
    if not 0 <= tile < TILE_COUNT:
        raise InvalidMove(f"Tile ids go from 0 to 105, not {tile}", "tile_id", id=tile)
    return tile


def tile_ids(values: Any) -> tuple[TileId, ...]:
    return tuple(tile_id(value) for value in values)


def seat_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def flags(values: Any) -> tuple[bool, ...]:
    """One flag per seat (left, away, opened...)."""
    return tuple(bool(flag) for flag in values)


# ---------------------------------------------------------------------------------------------------
# Melds


class MeldReader(Generic[MeldT]):
    """The three questions every caller asks of a game's meld rules, answered from one reading.

    `read(faces)` is the game's own reading (cached there): the meld the faces make in this order, or the
    rule they break as a phrase without the tiles. `noun` is what the game calls a meld in messages.
    """

    def __init__(self, read: Callable[[tuple[Tile, ...]], MeldT | str], noun: str, message_code: str) -> None:
        self._read = read
        self._noun = noun
        self._message_code = message_code  # of "... is not a meld: <rule>"

    def problem(self, tiles: Iterable[Tile]) -> str | None:
        """The rule these tiles break (a phrase without the tiles), or None when they are legal."""
        found = self._read(tuple(tiles))
        return found if isinstance(found, str) else None

    def meld(self, tiles: Iterable[Tile]) -> MeldT | None:
        """The meld these tiles make, or None."""
        found = self._read(tuple(tiles))
        return None if isinstance(found, str) else found

    def read(self, tiles: Iterable[Tile], context: Phrase | None = None) -> MeldT:
        """The meld these tiles make, or IllegalMove quoting them (or `context`, e.g. the move) and naming
        the rule (the rule goes to the message's `rule` parameter)."""
        faces = tuple(tiles)
        found = self._read(faces)
        if isinstance(found, str):
            if context is not None:
                raise IllegalMove(f"{context}: {found}", context.message_code, **context.params, rule=found)
            tiles_text = format_tiles(faces)
            raise IllegalMove(f"{tiles_text!r} is not a {self._noun}: {found}", self._message_code, tiles=tiles_text, rule=found)
        return found


# ---------------------------------------------------------------------------------------------------
# Views


def seat_actions(rules: Rules[Any], state: SeatedState, seat: int | None) -> list[str]:
    """What `seat` may do now, for its view (nothing for a spectator, None); a seat not at the table is an
    error."""
    if seat is None:
        return []
    check_seat(seat, state.seats)
    return sorted(rules.legal_actions(state, seat))


def tiles_text(count: int) -> str:
    """A score line's detail: how many tiles (not which: a result reaches every viewer)."""
    return f"{count} tile" + ("" if count == 1 else "s")


def faces_json(tiles: Iterable[Tile]) -> list[str]:
    return [str(tile) for tile in tiles]


def jokers_json(tiles: Sequence[Tile], stands_for: Sequence[Sequence[Tile]]) -> list[JSON]:
    """Where a meld's jokers are and what each may stand for."""
    return [{"at": at, "stands_for": faces_json(stands_for[at])} for at, tile in enumerate(tiles) if tile.is_joker]


def players_view(state: SeatedState, opened: Sequence[bool], **more: Sequence[Any]) -> list[JSON]:
    """Every seat as everyone may see it: how many tiles it holds (never which), whether it has opened,
    left or is away, then the game's own columns in `more` (one value per seat)."""
    return [
        {
            "seat": seat,
            "tiles": len(state.racks[seat]),
            "opened": opened[seat],
            "left": state.left[seat],
            "away": state.away[seat],
            **{key: values[seat] for key, values in more.items()},
        }
        for seat in range(state.seats)
    ]


def seat_view(
    state: SeatedState,
    seat: int | None,
    slug: str,
    actions: list[str],
    *,
    over: bool,
    result: GameResult | None,
    players: list[JSON],
    **parts: Any,
) -> JSON:
    """What `seat` (None: a spectator) sees of any game: the seats and whose turn it is, the game's own
    `parts`, the players, what the seat may do now, the result once over and, for a player, its own rack
    (never another's)."""
    view: JSON = {
        "game": slug,
        "seats": state.seats,
        "you": seat,
        "starter": state.starter,
        "turn": None if over else state.turn,
        "turn_no": state.turn_no,
        **parts,
        "players": players,
        "actions": actions,
        "over": over,
        "result": None if result is None else result.to_dict(),
    }
    if seat is not None:
        view["rack"] = faces_json(tile_of(tile) for tile in state.racks[seat])
    return view


def views_from_public(
    public: JSON,
    state: SeatedState,
    seats: Iterable[int],
    actions_of: Callable[[int], list[str]],
    own: Callable[[int], JSON] | None = None,
) -> dict[int | None, JSON]:
    """Every seat's view built on the spectators' one (`public`, built once): a seat's view is the same but
    for who it is, what it may do, its own rack and what `own` adds (the parts only that seat may see),
    in the same order as `seat_view` writes them."""
    views: dict[int | None, JSON] = {None: public}
    for seat in seats:
        view = {**public, "you": seat, "actions": actions_of(seat)}
        view["rack"] = faces_json(tile_of(tile) for tile in state.racks[seat])
        if own is not None:
            view.update(own(seat))
        views[seat] = view
    return views
