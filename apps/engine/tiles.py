"""Tiles and their notation (SPEC section 2).

A `Tile` is a face: what the notation writes (`r5`, `k13`, `J`). The 106 physical tiles are the ints
0-105 (`TileId`): every face exists twice, and the indicator's "twin" is the other physical copy.
Physical ids: colour index * 26 + (number - 1) * 2 + copy for numbered tiles (0-103); jokers 104 and 105.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from apps.engine.errors import InvalidMove, Phrase

TileId = int

NUMBERS = range(1, 14)
TILE_COUNT = 106
COPIES = 2  # every face is in the game twice, and there are two jokers
JOKER_IDS: tuple[TileId, TileId] = (104, 105)
ALL_TILE_IDS: tuple[TileId, ...] = tuple(range(TILE_COUNT))


class Colour(enum.Enum):
    RED = "r"
    YELLOW = "y"
    BLUE = "b"
    BLACK = "k"

    @property
    def index(self) -> int:
        return _COLOUR_INDEX[self]

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.YELLOW, Colour.BLUE, Colour.BLACK)
_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}
_COLOUR_BY_LETTER = {colour.value: colour for colour in COLOURS}


@dataclass(frozen=True, slots=True)
class Tile:
    """A face: a colour and a number, or the joker (both None)."""

    colour: Colour | None
    number: int | None

    def __post_init__(self) -> None:
        if (self.colour is None) != (self.number is None):
            raise InvalidMove("A tile has both a colour and a number, or neither (a joker)", "tile_half_made")
        if self.number is not None and self.number not in NUMBERS:
            raise InvalidMove(f"Tile numbers go from 1 to 13, not {self.number}", "tile_number", number=self.number)

    @classmethod
    def parse(cls, text: str) -> Tile:
        word = text.strip()
        if word in ("J", "j"):
            return JOKER
        colour = _COLOUR_BY_LETTER.get(word[:1].lower())
        digits = word[1:]
        if colour is None or not digits.isdigit() or not 1 <= int(digits) <= 13 or digits != str(int(digits)):
            raise InvalidMove(
                f"{text!r} is not a tile: write a colour letter (r, y, b, k) and a number 1-13, like r5 or k13, or J for a joker",
                "not_a_tile",
                text=text,
            )
        return cls(colour, int(digits))

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def key(self) -> int:
        """A dense index of the face: colour index * 13 + number - 1 (0-51); the joker is 52."""
        if self.colour is None or self.number is None:
            return 52
        return self.colour.index * 13 + self.number - 1

    @classmethod
    def from_key(cls, key: int) -> Tile:
        if key == 52:
            return JOKER
        if not 0 <= key < 52:
            raise InvalidMove(f"{key} is not a face index", "face_index", key=key)
        return cls(COLOURS[key // 13], key % 13 + 1)

    def __str__(self) -> str:
        if self.colour is None:
            return "J"
        return f"{self.colour.value}{self.number}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


JOKER = Tile(None, None)


def _face_of_id(tile_id: TileId) -> Tile:
    if tile_id >= 104:
        return JOKER
    return Tile(COLOURS[tile_id // 26], (tile_id % 26) // 2 + 1)


_FACE_OF_ID: tuple[Tile, ...] = tuple(_face_of_id(tile_id) for tile_id in range(TILE_COUNT))


def tile_of(tile_id: TileId) -> Tile:
    """The face of a physical tile (a table look-up: the engine asks this very often)."""
    if not 0 <= tile_id < TILE_COUNT:
        raise InvalidMove(f"There is no tile number {tile_id}: physical tiles are 0-105", "tile_id", id=tile_id)
    return _FACE_OF_ID[tile_id]


def ids_of(tile: Tile) -> tuple[TileId, TileId]:
    """Both physical copies of a face."""
    if tile.colour is None or tile.number is None:
        return JOKER_IDS
    first = tile.colour.index * 26 + (tile.number - 1) * 2
    return (first, first + 1)


def twin_of(tile_id: TileId) -> TileId:
    """The other physical copy of the same face (for a joker, the other joker)."""
    tile_of(tile_id)  # validates
    return tile_id ^ 1


def copies_problem(tiles: Iterable[Tile]) -> str | None:
    """Why these faces cannot all be in play at once, as a phrase without the tiles (SPEC 2: 106 tiles, every
    face twice and two jokers), or None. Melds, meld checks and whole tables proposed by a move ask it."""
    counts = Counter(tiles)
    jokers = counts[JOKER]
    if jokers > COPIES:
        return Phrase(f"there are only two jokers in the game, not {jokers}", "copies_jokers", count=jokers)
    extra = sorted((face for face, count in counts.items() if count > COPIES), key=lambda face: face.key)
    if extra:
        face = extra[0]
        return Phrase(
            f"there are only two of each tile in the game, not {counts[face]} {face}",
            "copies_tiles",
            count=counts[face],
            tile=str(face),
        )
    return None


def parse_tiles(text: str) -> list[Tile]:
    """`"r5 k13 J"` -> three faces. Commas are accepted as separators too."""
    words = text.replace(",", " ").split()
    return [Tile.parse(word) for word in words]


def parse_melds(text: str) -> list[list[Tile]]:
    """`"r12 r13 r1 | r9 y9 J"` -> two melds. An empty text is no melds."""
    if not text.strip():
        return []
    melds = []
    for part in text.split("|"):
        tiles = parse_tiles(part)
        if not tiles:
            raise InvalidMove(f"{text!r} has an empty meld between two '|'", "empty_meld", text=text)
        melds.append(tiles)
    return melds


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(tile) for tile in tiles)


def format_melds(melds: Iterable[Sequence[Tile]]) -> str:
    return " | ".join(format_tiles(meld) for meld in melds)


def full_set() -> list[TileId]:
    """All 106 physical tiles in id order (shuffle a copy with a passed-in generator)."""
    return list(ALL_TILE_IDS)
