"""Sets of the Rearrange game (SPEC 4 "Sets" and its decisions) and their face values.

A set is a sequence of faces in table order. A **group** is 3 or 4 tiles of one number in different
colours; a **run** is 3 or more consecutive numbers of one colour, ascending, never below 1 or past 13,
jokers included (no `12 13 1`). Jokers stand in for any tile, two may sit in one set (never three: there
are only two, SPEC 2), and a joker's place says what it stands for: in a run, the number of its position;
in a group, any missing colour.

When the order reads as a run, the set is a run: one real tile with two jokers reads as a run where it
can (`r5 J J` is 5-6-7, worth 18); `r13 J J` cannot be a run (14, 15), so it is a group of 13s.

A `Meld` has the same shape as the house game's (kind, what each joker stands for, each position's
value), defined here so that the solver and the rules of this game import nothing of the house game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from apps.engine.common import MeldReader
from apps.engine.errors import Phrase
from apps.engine.tiles import COLOURS, Colour, Tile, copies_problem, format_tiles

__all__ = [
    "JOKER_RACK_VALUE",
    "LOWEST",
    "HIGHEST",
    "OPENING_MINIMUM",
    "Meld",
    "meld_problem",
    "rack_value",
    "read_meld",
    "try_read_meld",
]

OPENING_MINIMUM = 30
JOKER_RACK_VALUE = 30
LOWEST = 1
HIGHEST = 13
MIN_MELD = 3
MAX_GROUP = 4

Kind = Literal["run", "set"]  # "set" is a group: the word the engine's CLI and views use (SPEC 9)


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal set. `stands_for[i]` is () for a numbered tile; for a joker, the faces it may stand for (one
    in a run; every missing colour in a group). `values[i]` is the face value of position i (a joker: the
    number it stands for). `start` is a run's first number or a group's number; `colour` a run's colour."""

    tiles: tuple[Tile, ...]
    kind: Kind
    stands_for: tuple[tuple[Tile, ...], ...]
    values: tuple[int, ...]
    start: int
    colour: Colour | None

    @property
    def points(self) -> int:
        return sum(self.values)

    def __str__(self) -> str:
        return format_tiles(self.tiles)


def rack_value(tile: Tile) -> int:
    """What a tile counts on a rack at the end of a game (SPEC 4): its number; a joker 30."""
    return JOKER_RACK_VALUE if tile.number is None else tile.number


def _read_run(tiles: tuple[Tile, ...]) -> Meld | str:
    anchor = next(i for i, tile in enumerate(tiles) if not tile.is_joker)
    number = tiles[anchor].number
    assert number is not None
    start = number - anchor
    for i, tile in enumerate(tiles):
        if tile.is_joker or tile.number == start + i:
            continue
        if tile.number == 1 and start + i > HIGHEST:
            return Phrase("1 is always the lowest number: a run never goes on from 13 to 1", "rr_run_no_wrap")
        return Phrase("a run goes up one number at a time, in table order", "rr_run_consecutive")
    if start < LOWEST:
        return Phrase("a run can't go below 1, jokers included", "rr_run_below_one")
    if start + len(tiles) - 1 > HIGHEST:
        return Phrase("a run can't go past 13, jokers included", "rr_run_past_13")
    colour = tiles[anchor].colour
    stands_for = tuple((Tile(colour, start + i),) if tile.is_joker else () for i, tile in enumerate(tiles))
    values = tuple(range(start, start + len(tiles)))
    return Meld(tiles, "run", stands_for, values, start, colour)


def _read_group(tiles: tuple[Tile, ...], number: int) -> Meld | str:
    if len(tiles) > MAX_GROUP:
        return Phrase("a group has at most 4 tiles, one of each colour", "rr_group_too_long")
    colours = [tile.colour for tile in tiles if not tile.is_joker]
    if len(set(colours)) != len(colours):
        return Phrase("a group has each colour only once", "rr_group_colours")
    missing = tuple(Tile(colour, number) for colour in COLOURS if colour not in colours)
    stands_for = tuple(missing if tile.is_joker else () for tile in tiles)
    return Meld(tiles, "set", stands_for, (number,) * len(tiles), number, None)


@lru_cache(maxsize=65536)
def _read(tiles: tuple[Tile, ...]) -> Meld | str:
    if len(tiles) < MIN_MELD:
        return Phrase(f"a set needs at least {MIN_MELD} tiles", "rr_set_too_short", count=MIN_MELD)
    too_many = copies_problem(tiles)
    if too_many is not None:
        return too_many
    real = [tile for tile in tiles if not tile.is_joker]
    if not real:
        return Phrase("a set needs at least one numbered tile", "rr_set_numbered")
    colours = {tile.colour for tile in real}
    numbers = {tile.number for tile in real}
    if len(colours) == 1:
        run = _read_run(tiles)
        if isinstance(run, Meld) or len(numbers) != 1:
            return run
    if len(numbers) == 1:
        number = real[0].number
        assert number is not None
        return _read_group(tiles, number)
    return Phrase("a run is one colour with consecutive numbers, a group is one number in different colours", "rr_set_mixed")


_SETS = MeldReader(_read, "set", "not_a_set")

#: The rule these tiles break as a set (a phrase without the tiles), or None when they are a set.
meld_problem = _SETS.problem
#: The set these faces make in this order, or None.
try_read_meld = _SETS.meld
#: The set these faces make in this order, or IllegalMove quoting them and naming the rule.
read_meld = _SETS.read
