"""Melds of the house game (SPEC 3 "Melds", "Opening") and their opening values.

A meld is a sequence of faces in table order. Runs are ascending; a 1 is rank 1 at the start of a run or
rank 14 after 13. A joker's place in a run says what it stands for; in a set it stands for any missing
colour. There are only two jokers, so no meld holds three (SPEC 2). `read_meld` reads a meld once
(cached): its kind, what each joker stands for and each tile's opening value, or the rule it breaks.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from apps.engine.common import MeldReader
from apps.engine.errors import Phrase
from apps.engine.tiles import COLOURS, Colour, Tile, copies_problem, format_tiles

OPENING_MINIMUM = 45
MAX_RUN = 13
MAX_SET = 4
MIN_MELD = 3


class MeldKind(enum.Enum):
    RUN = "run"
    SET = "set"

    def __repr__(self) -> str:
        return f"MeldKind.{self.name}"


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal meld. `stands_for[i]` is () for a real tile; for a joker, the faces it may stand for (one in
    a run; every missing colour in a set). `values[i]` is the opening value of position i (a joker: the
    value of what it stands for). `start` is a run's first rank (14: a 1 after 13) or a set's number;
    `colour` is a run's colour (None for a set)."""

    tiles: tuple[Tile, ...]
    kind: MeldKind
    stands_for: tuple[tuple[Tile, ...], ...]
    values: tuple[int, ...]
    start: int
    colour: Colour | None

    @property
    def points(self) -> int:
        return sum(self.values)

    @property
    def end(self) -> int:
        """A run's last rank (14: a 1 after 13)."""
        return self.start + len(self.tiles) - 1

    @property
    def joker_positions(self) -> tuple[int, ...]:
        return tuple(i for i, tile in enumerate(self.tiles) if tile.is_joker)

    def __str__(self) -> str:
        return format_tiles(self.tiles)


def rank_value(rank: int) -> int:
    """Opening value of a run position: ranks 1-9 (a 1 at the start included) are 5, 10-14 (14: a 1 after 13) are 10."""
    return 10 if rank >= 10 else 5


def set_value(number: int) -> int:
    """Opening value of a tile in a set: a 1 is 25, 2-9 are 5, 10-13 are 10."""
    if number == 1:
        return 25
    return 10 if number >= 10 else 5


def rack_penalty(tile: Tile) -> int:
    """What a tile left on the rack costs (SPEC 3 scoring): 2-9: 5; 10-13: 10; 1: 25; joker: 50."""
    if tile.number is None:
        return 50
    if tile.number == 1:
        return 25
    return 10 if tile.number >= 10 else 5


def _joker_problem(tiles: Sequence[Tile]) -> str | None:
    too_many = copies_problem(tiles)
    if too_many is not None:
        return too_many
    jokers = sum(1 for tile in tiles if tile.is_joker)
    if len(tiles) - jokers < 2 * jokers:
        return Phrase("a meld needs at least twice as many real tiles as jokers", "meld_jokers_twice")
    for left, right in zip(tiles, tiles[1:], strict=False):
        if left.is_joker and right.is_joker:
            return Phrase("two jokers can never sit side by side", "meld_jokers_adjacent")
    return None


def _read_set(tiles: tuple[Tile, ...], number: int) -> Meld | str:
    if len(tiles) > MAX_SET:
        return Phrase("a set has at most 4 tiles, one of each colour", "set_too_long")
    colours = [tile.colour for tile in tiles if not tile.is_joker]
    if len(set(colours)) != len(colours):
        return Phrase("a set needs tiles of different colours", "set_colours")
    missing = tuple(Tile(colour, number) for colour in COLOURS if colour not in colours)
    value = set_value(number)
    stands_for = tuple(missing if tile.is_joker else () for tile in tiles)
    return Meld(tiles, MeldKind.SET, stands_for, (value,) * len(tiles), number, None)


def _read_run(tiles: tuple[Tile, ...]) -> Meld | str:
    if len(tiles) > MAX_RUN:
        return Phrase("a run has at most 13 tiles (a 1 is never at both ends)", "run_too_long")
    last = len(tiles) - 1
    for i, tile in enumerate(tiles):
        if tile.number == 1 and 0 < i < last:
            return Phrase("a 1 can start a run or follow 13, never sit in the middle", "run_one_inside")
    anchor = next(((i, tile.number) for i, tile in enumerate(tiles) if tile.number not in (None, 1)), None)
    if anchor is None:
        return Phrase("a run needs consecutive numbers", "run_consecutive")
    start = anchor[1] - anchor[0]
    if start < 1:
        return Phrase("a run can't go below 1", "run_below_one")
    if start + last > 14:
        return Phrase("a run can't go past a 1 after 13", "run_past_one")
    colour = tiles[anchor[0]].colour
    for i, tile in enumerate(tiles):
        if tile.is_joker:
            continue
        rank = start + i
        if tile.number != rank and not (tile.number == 1 and rank == 14):
            return Phrase("a run needs consecutive numbers", "run_consecutive")
    stands_for = tuple(
        (Tile(colour, start + i if start + i <= 13 else 1),) if tile.is_joker else () for i, tile in enumerate(tiles)
    )
    values = tuple(rank_value(start + i) for i in range(len(tiles)))
    return Meld(tiles, MeldKind.RUN, stands_for, values, start, colour)


@lru_cache(maxsize=65536)
def _read(tiles: tuple[Tile, ...]) -> Meld | str:
    if len(tiles) < MIN_MELD:
        return Phrase("a meld needs at least 3 tiles", "meld_too_short")
    problem = _joker_problem(tiles)
    if problem is not None:
        return problem
    real = [tile for tile in tiles if not tile.is_joker]
    numbers = {tile.number for tile in real}
    colours = {tile.colour for tile in real}
    if len(numbers) == 1:
        number = real[0].number
        assert number is not None
        return _read_set(tiles, number)
    if len(colours) == 1:
        return _read_run(tiles)
    return Phrase("a run is one colour and a set is one number", "meld_mixed")


_MELDS = MeldReader(_read, "meld", "not_a_meld")

#: The rule these tiles break as a meld (a sentence without the tiles), or None when legal.
meld_problem = _MELDS.problem
#: The meld these faces make, or None.
try_read_meld = _MELDS.meld
#: The meld these faces make, or IllegalMove quoting them (or a context, e.g. the move) and naming the rule.
read_meld = _MELDS.read


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """The opening value of a selection of melds and whether it opens (SPEC 3 "Opening")."""

    points: int
    has_run: bool
    missing: int  # points still missing to reach 45 (0 when reached)

    @property
    def qualifies(self) -> bool:
        return self.missing == 0 and self.has_run

    @property
    def reason(self) -> Phrase | None:
        """Why it does not open (None when it does)."""
        if self.missing:
            return Phrase(
                f"An opening needs at least {OPENING_MINIMUM} points: this is {self.points}, {self.missing} short",
                "opening_short",
                points=self.points,
                needed=OPENING_MINIMUM,
                missing=self.missing,
            )
        if not self.has_run:
            return Phrase("An opening needs at least one run", "opening_needs_run")
        return None


def opening_check(melds: Iterable[Meld]) -> OpeningCheck:
    points = 0
    has_run = False
    for meld in melds:
        points += meld.points
        has_run = has_run or meld.kind is MeldKind.RUN
    return OpeningCheck(points, has_run, max(0, OPENING_MINIMUM - points))

