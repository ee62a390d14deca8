"""The moves of the house game and their notation.

    draw                      draw from the pile
    take r3 r4 r5             take the last discard (here r5 or any face of the meld that was discarded)
                              and lay it at once in this new meld with tiles from the rack
    lay r1 r2 r3 | k10 y10 b10  lay new melds (the opening, if not yet open: all its melds at once)
    add 2 r8                  lay off on table meld 2 (0-based, in the order melds were laid), after it
    add 2 r4 ..               ... before it ("..": the meld already there)
    add 2 r4 .. r8            ... on both ends
    joker 2 r6                take the joker from meld 2 by putting r6 in its place
    joker 2 b9 k9             ... from a 3-tile set: both missing colours
    discard r5                discard and end the turn
    timeout | auto | back | leave   (game.py: the table's moves, "I'm back", standing up)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from apps.engine.errors import InvalidMove
from apps.engine.game import COMMON_MOVES, JSON, Move, parse_move_of
from apps.engine.tiles import Tile, format_melds, format_tiles, parse_melds, parse_tiles

Faces = tuple[Tile, ...]


def _faces(words: Sequence[Any], text: object) -> Faces:
    if isinstance(words, str) or not all(isinstance(word, str) for word in words):
        raise InvalidMove(f"{text!r}: tiles are a list of faces like ['r5', 'J']", "tiles_form", move=str(text))
    return tuple(Tile.parse(word) for word in words)


def _meld_index(word: object, text: object) -> int:
    if isinstance(word, bool) or not (isinstance(word, int) or (isinstance(word, str) and word.isdigit())):
        raise InvalidMove(f"{text!r}: a table meld is named by its number, 0 for the first meld laid", "meld_number_form", move=str(text))
    return int(word)


def _one_meld(rest: str, text: str) -> Faces:
    melds = parse_melds(rest)
    if len(melds) != 1:
        raise InvalidMove(f"{text!r}: write exactly one meld, like 'take r3 r4 r5'", "take_form", move=text)
    return tuple(melds[0])


@dataclass(frozen=True, slots=True)
class TakeDiscard(Move):
    """Take the last discard and lay it at once in the new meld `meld` with at least two rack tiles."""

    kind: ClassVar[str] = "take"
    meld: Faces

    def __str__(self) -> str:
        return f"take {format_tiles(self.meld)}"

    def to_dict(self) -> JSON:
        return {"type": self.kind, "meld": [str(tile) for tile in self.meld]}

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        return cls(_one_meld(rest, text))

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        return cls(_faces(data["meld"], data))


@dataclass(frozen=True, slots=True)
class Lay(Move):
    """Lay new melds from the rack (all the melds of the opening at once)."""

    kind: ClassVar[str] = "lay"
    melds: tuple[Faces, ...]

    def __str__(self) -> str:
        return f"lay {format_melds(self.melds)}"

    def to_dict(self) -> JSON:
        return {"type": self.kind, "melds": [[str(tile) for tile in meld] for meld in self.melds]}

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        melds = parse_melds(rest)
        if not melds:
            raise InvalidMove(f"{text!r}: write the melds to lay, like 'lay r1 r2 r3 | k10 y10 b10'", "lay_form", move=text)
        return cls(tuple(tuple(meld) for meld in melds))

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        melds = data["melds"]
        if isinstance(melds, str) or not melds:
            raise InvalidMove(f"{dict(data)!r}: 'melds' is a list of melds, each a list of faces", "melds_form", move=repr(dict(data)))
        return cls(tuple(_faces(meld, data) for meld in melds))


@dataclass(frozen=True, slots=True)
class LayOff(Move):
    """Lay off rack tiles on table meld `meld`: `before` go in front of it, `after` behind it."""

    kind: ClassVar[str] = "add"
    meld: int
    before: Faces = ()
    after: Faces = ()

    @property
    def tiles(self) -> Faces:
        return self.before + self.after

    def __str__(self) -> str:
        if not self.before:
            return f"add {self.meld} {format_tiles(self.after)}"
        parts = [format_tiles(self.before), ".."] + ([format_tiles(self.after)] if self.after else [])
        return f"add {self.meld} " + " ".join(parts)

    def to_dict(self) -> JSON:
        return {
            "type": self.kind,
            "meld": self.meld,
            "before": [str(tile) for tile in self.before],
            "after": [str(tile) for tile in self.after],
        }

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        index, _, tiles = rest.partition(" ")
        meld = _meld_index(index, text)
        if tiles.count("..") > 1:
            raise InvalidMove(f"{text!r}: write '..' once, for the meld already on the table", "lay_off_dots", move=text)
        before_text, dots, after_text = tiles.partition("..")
        before, after = (parse_tiles(before_text), parse_tiles(after_text)) if dots else ([], parse_tiles(tiles))
        if not before and not after:
            raise InvalidMove(f"{text!r}: write the tiles to lay off, like 'add 2 r8' or 'add 2 r4 ..'", "lay_off_form", move=text)
        return cls(meld, tuple(before), tuple(after))

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        before = _faces(data.get("before", []), data)
        after = _faces(data.get("after", []), data)
        if not before and not after:
            raise InvalidMove(f"{dict(data)!r}: lay off at least one tile", "lay_off_nothing", move=repr(dict(data)))
        return cls(_meld_index(data["meld"], data), before, after)


@dataclass(frozen=True, slots=True)
class TakeJoker(Move):
    """Take a joker from table meld `meld` by putting `tiles` (what it stands for) in its place."""

    kind: ClassVar[str] = "joker"
    meld: int
    tiles: Faces

    def __str__(self) -> str:
        return f"joker {self.meld} {format_tiles(self.tiles)}"

    def to_dict(self) -> JSON:
        return {"type": self.kind, "meld": self.meld, "tiles": [str(tile) for tile in self.tiles]}

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        index, _, tiles = rest.partition(" ")
        faces = tuple(parse_tiles(tiles))
        if not faces:
            raise InvalidMove(f"{text!r}: write the tile that replaces the joker, like 'joker 2 r6'", "joker_form", move=text)
        return cls(_meld_index(index, text), faces)

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        faces = _faces(data["tiles"], data)
        if not faces:
            raise InvalidMove(f"{dict(data)!r}: give the tile that replaces the joker", "joker_nothing", move=repr(dict(data)))
        return cls(_meld_index(data["meld"], data), faces)


@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Discard a tile: ends the turn (discarding the last tile goes out)."""

    kind: ClassVar[str] = "discard"
    tile: Tile

    def __str__(self) -> str:
        return f"discard {self.tile}"

    def to_dict(self) -> JSON:
        return {"type": self.kind, "tile": str(self.tile)}

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Self:
        faces = parse_tiles(rest)
        if len(faces) != 1:
            raise InvalidMove(f"{text!r}: discard exactly one tile, like 'discard r5'", "discard_form", move=text)
        return cls(faces[0])

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        tile = data["tile"]
        if not isinstance(tile, str):
            raise InvalidMove(f"{dict(data)!r}: 'tile' is a face like 'r5'", "discard_tile_form", move=repr(dict(data)))
        return cls(Tile.parse(tile))


HOUSE_MOVES: tuple[type[Move], ...] = (*COMMON_MOVES, TakeDiscard, Lay, LayOff, TakeJoker, Discard)


def parse_move(data: str | Mapping[str, Any]) -> Move:
    """A house-game move from its notation or dict form."""
    return parse_move_of(HOUSE_MOVES, data)
