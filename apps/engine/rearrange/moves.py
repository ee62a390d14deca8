"""The moves of the Rearrange game and their notation.

    play r1 r2 r3 | r4 y4 b4 | J k7 k8   a play: the whole table as the player leaves it (every set, in
                                         table order); the rack tiles it uses are the new ones
    draw                                 draw one tile and end the turn (a pass when the pool is empty)
    timeout                              the clock ran out: the table goes back to the turn's start and the
                                         player draws 3 (fewer if the pool is short; a pass if it is empty)
    timeout r1 r2 r3 | ...               ... with the table the player had when it ran out: it stands if it
                                         passes every End-turn check, otherwise as above
    auto | back | leave                  autopilot's turn (a draw or a pass), "I'm back", standing up
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from apps.engine.errors import InvalidMove
from apps.engine.game import JSON, Auto, Back, Draw, Leave, Move, parse_move_of
from apps.engine.tiles import Tile, format_melds, parse_melds

Faces = tuple[Tile, ...]
Table = tuple[Faces, ...]


def _table_from_notation(rest: str, text: str) -> Table:
    melds = parse_melds(rest)
    if not melds:
        raise InvalidMove(f"{text!r}: write the whole table after the play, like 'play r1 r2 r3 | k10 y10 b10'", "play_form", move=text)
    return tuple(tuple(meld) for meld in melds)


def _table_from_fields(value: Any, data: Mapping[str, Any]) -> Table:
    if isinstance(value, str) or not isinstance(value, Sequence) or not value:
        raise InvalidMove(f"{dict(data)!r}: 'table' is a list of sets, each a list of faces like ['r5', 'J']", "table_form", move=repr(dict(data)))
    table = []
    for meld in value:
        if isinstance(meld, str) or not isinstance(meld, Sequence) or not all(isinstance(face, str) for face in meld):
            raise InvalidMove(f"{dict(data)!r}: 'table' is a list of sets, each a list of faces like ['r5', 'J']", "table_form", move=repr(dict(data)))
        if not meld:
            raise InvalidMove(f"{dict(data)!r}: a set on the table has at least one tile", "empty_set", move=repr(dict(data)))
        table.append(tuple(Tile.parse(face) for face in meld))
    return tuple(table)


def _table_dict(table: Table) -> list[list[str]]:
    return [[str(tile) for tile in meld] for meld in table]


@dataclass(frozen=True, slots=True)
class Play(Move):
    """A play: `table` is the whole table as the player leaves it."""

    kind: ClassVar[str] = "play"
    table: Table

    def __str__(self) -> str:
        return f"play {format_melds(self.table)}"

    def to_dict(self) -> JSON:
        return {"type": self.kind, "table": _table_dict(self.table)}

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        return cls(_table_from_notation(rest, text))

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        return cls(_table_from_fields(data["table"], data))


@dataclass(frozen=True, slots=True)
class Timeout(Move):
    """The table's move when the turn clock runs out. `table`: what the player had arranged (None: nothing
    or nothing legal); it stands if it is a legal play. Puts the seat on autopilot, as in the house game."""

    kind: ClassVar[str] = "timeout"
    table: Table | None = None

    def __str__(self) -> str:
        return self.kind if self.table is None else f"{self.kind} {format_melds(self.table)}"

    def to_dict(self) -> JSON:
        data: JSON = {"type": self.kind}
        if self.table is not None:
            data["table"] = _table_dict(self.table)
        return data

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        return cls(_table_from_notation(rest, text) if rest else None)

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        value = data.get("table")
        return cls(None if value is None else _table_from_fields(value, data))


REARRANGE_MOVES: tuple[type[Move], ...] = (Draw, Timeout, Auto, Back, Leave, Play)


def parse_move(data: str | Mapping[str, Any]) -> Move:
    """A Rearrange move from its notation or dict form."""
    return parse_move_of(REARRANGE_MOVES, data)
