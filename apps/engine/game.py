"""The game-independent interface: every game of the catalog is a `Rules` object looked up by slug.

The service layer, the bots, match.py, records.py and the CLI only ever talk to a game through this
interface, so adding a game means adding a module and one line in `_GAME_MODULES`, never an
`if game == ...` branch elsewhere.

A game state is an immutable value owned by its game module (a frozen dataclass): callers treat it as
opaque, keep it, serialise it with `to_dict`/`from_dict`, and hand it back. `apply` never mutates its
input; it returns a new state or raises `InvalidMove` (malformed) / `IllegalMove` (against the rules).

Moves are frozen dataclasses: `str(move)` is the notation (the game's `parse_move` reads it back),
`move.to_dict()` is a JSON-able dict (also read back by `parse_move`), and `repr(move)` reads like the
call that makes it. Time and randomness are always passed in: the engine never reads the clock or the
global random generator.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from apps.engine.errors import InvalidMove
from apps.engine.log_events import seat_events
from apps.engine.tiles import Tile

JSON = dict[str, Any]


class GameState(Protocol):
    """What every game's state exposes to generic code (read-only)."""

    @property
    def seats(self) -> int: ...


StateT = TypeVar("StateT", bound=GameState)


class Randomness(Protocol):
    """What a deal draws with: a `random.Random` (simulations, tests, replays of seeded games) or a fair
    deal's `apps.engine.fair.FairStream` (the site's matches: SPEC 11). A game deals with these two calls
    only, so a fair deal is specified by the order of its calls (docs/fair-deals.md)."""

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: list[Any], /) -> None: ...


# ---------------------------------------------------------------------------------------------------
# Moves


class Move:
    """Base of every move. Subclasses are frozen dataclasses with a class-level `kind` (the first word of
    the notation and the "type" of the dict form)."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> JSON:
        """The JSON-able form: {"type": kind, ...fields in notation}."""
        return {"type": self.kind}

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        """The move from the notation after its first word (`text` is the whole input, for messages).
        The default suits moves that are a single word."""
        if rest:
            raise InvalidMove(f"{text!r}: {cls.kind!r} takes nothing after it", "move_takes_nothing", text=text, kind=cls.kind)
        return cls()

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        """The move from its dict form (`to_dict`)."""
        return cls()

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Draw a tile (in the rearrange game: a pass when the pool is empty). Ends the turn where the game says so."""

    kind: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Timeout(Move):
    """The table's move when the turn clock runs out (SPEC 3 / 4 "Time"). Puts the seat on autopilot."""

    kind: ClassVar[str] = "timeout"

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Auto(Move):
    """A turn the table plays for a seat on autopilot."""

    kind: ClassVar[str] = "auto"

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Back(Move):
    """"I'm back": the seat leaves autopilot. Allowed at any time, even out of turn."""

    kind: ClassVar[str] = "back"

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Leave(Move):
    """The seat stands up: out of the game (and the match). Allowed at any time, even out of turn."""

    kind: ClassVar[str] = "leave"

    def __str__(self) -> str:
        return self.kind


#: Moves every game understands, with the same notation.
COMMON_MOVES: tuple[type[Move], ...] = (Draw, Timeout, Auto, Back, Leave)


def parse_move_of(move_types: Sequence[type[Move]], data: str | Mapping[str, Any]) -> Move:
    """A game's `parse_move`: the notation (`"add 2 r8"`) or the dict form (`{"type": "add", ...}`, or
    `{"move": "add 2 r8"}`) of one of `move_types`."""
    by_kind = {move_type.kind: move_type for move_type in move_types}
    if isinstance(data, str):
        word, _, rest = data.strip().partition(" ")
        move_type = by_kind.get(word.lower())
        if move_type is None:
            raise InvalidMove(f"{data!r} is not a move: a move starts with one of {', '.join(by_kind)}", "unknown_move", move=data, kinds=", ".join(by_kind))
        return move_type.from_notation(rest.strip(), data)
    if not isinstance(data, Mapping):
        raise InvalidMove(f"{data!r} is not a move: send its notation or its dict form", "not_a_move_form", move=repr(data))
    if isinstance(data.get("move"), str):
        return parse_move_of(move_types, data["move"])
    kind = data.get("type")
    move_type = by_kind.get(kind) if isinstance(kind, str) else None
    if move_type is None:
        raise InvalidMove(f"{dict(data)!r} is not a move: its 'type' must be one of {', '.join(by_kind)}", "unknown_move_type", move=repr(dict(data)), kinds=", ".join(by_kind))
    try:
        return move_type.from_fields(data)
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidMove(f"{dict(data)!r} is not a well-formed {kind!r} move ({error})", "malformed_move", move=repr(dict(data)), kind=str(kind)) from None


# ---------------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a seat's score breakdown, in the order of calculation.

    `points` is what the line adds to the running total; a multiplier line (factor 2) adds the running
    total again, so its points are the total before it. `detail` is a short human text (the tiles, "x2").
    `key` is the line's stable code and `params` the numbers of its label and detail (SPEC 12: the site
    says them in the player's language; `label` and `detail` stay English, for the command line).
    """

    key: str
    label: str
    points: int
    detail: str = ""
    factor: int = 1
    params: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> JSON:
        data: JSON = {"key": self.key, "label": self.label, "points": self.points, "detail": self.detail, "factor": self.factor}
        if self.params:
            data["params"] = dict(self.params)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoreLine:
        params = tuple(sorted((str(name), int(value)) for name, value in dict(data.get("params", {})).items()))
        return cls(str(data["key"]), str(data["label"]), int(data["points"]), str(data["detail"]), int(data["factor"]), params)


@dataclass(frozen=True, slots=True)
class SeatScore:
    seat: int
    lines: tuple[ScoreLine, ...]
    total: int
    left: bool = False

    def to_dict(self) -> JSON:
        return {"seat": self.seat, "lines": [line.to_dict() for line in self.lines], "total": self.total, "left": self.left}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatScore:
        return cls(
            int(data["seat"]),
            tuple(ScoreLine.from_dict(line) for line in data["lines"]),
            int(data["total"]),
            bool(data["left"]),
        )


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended and every seat's score with its breakdown.

    `reason`: "out" (someone went out / emptied the rack), "pile" (the draw pile or pool ran out),
    "left" (fewer than two players remained). `winner`: the seat that went out, if any.
    """

    reason: str
    winner: int | None
    seats: tuple[SeatScore, ...]

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(seat.total for seat in self.seats)

    def to_dict(self) -> JSON:
        return {
            "reason": self.reason,
            "winner": self.winner,
            "scores": list(self.scores),
            "seats": [seat.to_dict() for seat in self.seats],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        winner = data["winner"]
        return cls(
            str(data["reason"]),
            None if winner is None else int(winner),
            tuple(SeatScore.from_dict(seat) for seat in data["seats"]),
        )


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The answer to "is this one meld legal in this game" (the CLI's `meld`, the UI's selection)."""

    valid: bool
    kind: str | None  # "run" | "set" | None
    points: int
    reason: str | None = None

    def to_dict(self) -> JSON:
        data: JSON = {"valid": self.valid, "kind": self.kind, "points": self.points}
        if self.reason is not None:
            data["reason"] = self.reason
        return data


# ---------------------------------------------------------------------------------------------------
# The interface


class Rules(ABC, Generic[StateT]):
    """One game of the catalog. Subclasses are stateless singletons (`RULES` in the game's module).

    Everything the site and the page know of a game comes from here (CONVENTIONS 27): its seats and paces,
    its moves, its views (each meld on the table with its reading and value) and the log entries of a
    change (`events`). The site picks a game by slug and never branches on its name."""

    slug: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    #: The seconds per turn a host may choose (0: no timer), the default first (SPEC 3-5 "Time").
    paces: ClassVar[tuple[int, ...]]

    @classmethod
    def seat_counts(cls) -> tuple[int, ...]:
        """How many seats a table of this game may have."""
        return tuple(range(cls.min_seats, cls.max_seats + 1))

    # -- dealing -------------------------------------------------------------------------------------

    @abstractmethod
    def new_game(
        self,
        seats: int,
        rng: Randomness,
        starter: int | None = None,
        *,
        absent: Collection[int] = (),
    ) -> StateT:
        """Shuffle with `rng` and deal. `starter=None` lets the game choose (at random, or by the game's own
        start ceremony); a match passes the rotated starter. `absent` seats (left the match earlier) get
        no tiles and never play."""

    @abstractmethod
    def deal_of(self, state: StateT) -> JSON:
        """The deal of a freshly dealt state, as JSON (game records): enough for `from_deal` to rebuild it."""

    @abstractmethod
    def from_deal(self, deal: Mapping[str, Any]) -> StateT:
        """The freshly dealt state a record's deal describes (checked: a bad deal raises InvalidMove)."""

    # -- moves -----------------------------------------------------------------------------------------

    @abstractmethod
    def parse_move(self, data: str | Mapping[str, Any]) -> Move:
        """A move from its notation or its dict form. Raises InvalidMove quoting the input."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, move: Move) -> StateT:
        """The state after `seat` plays `move`. Pure: never mutates `state`."""

    def leave(self, state: StateT, seat: int) -> StateT:
        """`seat` stands up (allowed at any time)."""
        return self.apply(state, seat, Leave())

    @abstractmethod
    def timeout(self, state: StateT, seat: int, pending: Move | None = None) -> Move:
        """The move the table makes for `seat` whose clock ran out. `pending` is the play the seat had
        prepared but not sent (the rearrange game lets a legal one stand); the house game ignores it."""

    @abstractmethod
    def autopilot(self, state: StateT, seat: int) -> Move:
        """The move the table makes for `seat` on autopilot."""

    # -- questions -------------------------------------------------------------------------------------

    @abstractmethod
    def to_move(self, state: StateT) -> int | None:
        """The seat whose turn it is, or None when the game is over."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> frozenset[str]:
        """The kinds of move (`Move.kind`) `seat` may make now: what the UI enables. Kinds allowed at any
        time ("leave", "back") are included where they apply."""

    @abstractmethod
    def is_away(self, state: StateT, seat: int) -> bool:
        """Whether `seat` is on autopilot."""

    @abstractmethod
    def has_left(self, state: StateT, seat: int) -> bool:
        """Whether `seat` has left (or was absent from the deal)."""

    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abstractmethod
    def result(self, state: StateT) -> GameResult | None:
        """The scores, once the game is over (None before)."""

    @abstractmethod
    def meld_check(self, tiles: Sequence[Tile]) -> MeldCheck:
        """Is this one meld (tiles in table order) legal in this game, and what is it worth."""

    # -- the log ---------------------------------------------------------------------------------------

    def events(self, before: JSON, after: JSON) -> list[JSON]:
        """What one change of a game did, for its "What happened" log (SPEC 13): entries of a code and its
        parameters (no words; each page says them), found by comparing the spectators' views (`view_for`
        of None) before and after the change, so nothing hidden goes into the log. The game's own entries
        first (`play_events`), then the seats that left, went on autopilot or came back, and the end."""
        return [*self.play_events(before, after), *seat_events(before, after)]

    @abstractmethod
    def play_events(self, before: JSON, after: JSON) -> list[JSON]:
        """The entries of what the moves of this game did between two spectators' views."""

    # -- views and storage -------------------------------------------------------------------------------

    @abstractmethod
    def view_for(self, state: StateT, seat: int | None) -> JSON:
        """What `seat` may see (None: a spectator), JSON-able. Never another seat's rack, never the pile."""

    def views_for(self, state: StateT, seats: Iterable[int], public: JSON | None = None) -> dict[int | None, JSON]:
        """Every view one change of a table is sent with: the spectators' (key None) and each of `seats`'.
        Each equals `view_for` of that seat; a game may build the part every viewer shares only once.
        `public` is the spectators' view of this very state if the caller built it already."""
        if public is None:
            public = self.view_for(state, None)
        return {None: public, **{seat: self.view_for(state, seat) for seat in seats}}

    @abstractmethod
    def to_dict(self, state: StateT) -> JSON:
        """The whole state, JSON-able (hidden information included: for storage, never for a viewer)."""

    @abstractmethod
    def from_dict(self, data: Mapping[str, Any]) -> StateT: ...


# ---------------------------------------------------------------------------------------------------
# The registry

#: slug -> the game's package, which defines `RULES` (and holds the game's `bots` and `review`). Modules
#: are imported on first use. A new game is one package and one line here (docs/adding-a-game.md).
_GAME_MODULES: dict[str, str] = {
    "tile-rummy": "apps.engine.house",
    "tile-rummy-rearrange": "apps.engine.rearrange",
}


def game_slugs() -> tuple[str, ...]:
    """Every game of the catalog, available or not yet."""
    return tuple(_GAME_MODULES)


def game_package(slug: str) -> str | None:
    """The engine package of the game `slug` (its `RULES`, and beside them its `bots` and `review`), or
    None for an unknown game."""
    return _GAME_MODULES.get(slug)


def get_rules(slug: str) -> Rules[Any]:
    """The rules of the game `slug`. Raises InvalidMove for an unknown or not yet available game."""
    module_name = _GAME_MODULES.get(slug)
    if module_name is None:
        known = ", ".join(_GAME_MODULES)
        raise InvalidMove(f"There is no game {slug!r}: the games are {known}", "unknown_game", game=slug, games=known)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise InvalidMove(f"The game {slug!r} is not available yet", "game_not_available", game=slug) from None
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, Rules):
        raise InvalidMove(f"The game {slug!r} is not available yet", "game_not_available", game=slug)
    return rules


def is_available(slug: str) -> bool:
    try:
        get_rules(slug)
    except InvalidMove:
        return False
    return True
