"""The public functions: a problem from the tiles (counts, checks, tiles no set could hold left out), then
`solve` and `solve_opening`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from apps.engine.errors import InvalidMove
from apps.engine.rearrange.melds import OPENING_MINIMUM, read_meld
from apps.engine.rearrange.solver.build import _ALL_FACES, _FACES
from apps.engine.rearrange.solver.model import Solution, default_weight
from apps.engine.rearrange.solver.search import _Problem, _TableJoker
from apps.engine.rearrange.solver.strategy import _solution
from apps.engine.tiles import COLOURS, Tile

# hashes the enum member in Python code, for the hundred tiles of a position.
_COLOUR_INDEX = {id(colour): index for index, colour in enumerate(COLOURS)}


def _counts(tiles: Iterable[Tile]) -> tuple[list[list[int]], int]:
    """Tiles per [colour][number] (numbers 1-13; the grid is 16 wide for looking ahead), and jokers."""
    grid = [[0] * 16 for _ in range(4)]
    jokers = 0
    colour_index = _COLOUR_INDEX
    for tile in tiles:
        number = tile.number
        if number is None:
            jokers += 1
        else:
            grid[colour_index[id(tile.colour)]][number] += 1
    return grid, jokers


def _check_counts(table: tuple[list[list[int]], int], rack: tuple[list[list[int]], int]) -> None:
    if table[1] + rack[1] > 2:
        raise InvalidMove(f"There are only two jokers: the table and the rack hold {table[1] + rack[1]}", "too_many_jokers", count=table[1] + rack[1])
    for colour, (table_row, rack_row) in enumerate(zip(table[0], rack[0], strict=True)):
        for number, count in enumerate(map(int.__add__, table_row, rack_row)):
            if count > 2:
                face = _FACES[colour * 13 + number - 1]
                raise InvalidMove(f"There are only two of each tile: the table and the rack hold {count} x {face}", "too_many_copies", count=count, tile=str(face))


_DEFAULT_WEIGHTS = [default_weight(Tile.from_key(key)) for key in range(53)]


def _drop_unplaceable(table: list[list[int]], rack: list[list[int]], jokers: int) -> None:
    """Take off `rack` the tiles that no set could hold: no three faces in a row of their colour around
    them, nor two other colours of their number, among the tiles there are (table and rack, `jokers`
    filling gaps). They stay on the rack whatever the play, and the search is smaller without them."""
    if jokers >= 2:
        return  # two jokers make a run with any tile
    there = [
        sum(1 << number for number in range(1, 14) if table_row[number] or rack_row[number])
        for table_row, rack_row in zip(table, rack, strict=True)
    ]
    for colour, rack_row in enumerate(rack):
        row = there[colour]
        for number in range(1, 14):
            if not rack_row[number]:
                continue
            others = sum(there[other] >> number & 1 for other in range(4) if other != colour)
            if others + jokers >= 2:
                continue  # a group
            if any(
                (7 << start & ~row).bit_count() <= jokers  # the missing faces of the run start..start + 2
                for start in range(max(1, number - 2), min(number, 11) + 1)
            ):
                continue
            rack_row[number] = 0


def _weights(weights: Mapping[Tile, int] | None) -> list[int]:
    if not weights:
        return _DEFAULT_WEIGHTS
    return [weights.get(_ALL_FACES[key], _DEFAULT_WEIGHTS[key]) for key in range(53)]


def _without(rack: Sequence[Tile], keep: Iterable[Tile]) -> list[Tile]:
    left = list(rack)
    for tile in keep:
        if tile in left:
            left.remove(tile)
    return left


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    *,
    weights: Mapping[Tile, int] | None = None,
    keep: Iterable[Tile] = (),
    free_jokers: bool = True,
) -> Solution | None:
    """The best play of a player who has opened, or None when no play has a positive score (with the
    default weights: when no rack tile can be placed).

    `table`: the sets on the table (legal, in table order: it says what each joker stands for).
    `weights`: what placing one tile of a face is worth (faces not given: `default_weight`).
    `keep`: rack tiles that stay on the rack whatever happens (each listed tile once).
    `free_jokers`: False looks only at plays that keep every table joker where it may stand (much cheaper
    when a table joker could be freed: a bot's quick look-ahead)."""
    melds = [read_meld(meld) for meld in table]
    grid, jokers = _counts(tile for meld in melds for tile in meld.tiles)
    _check_counts((grid, jokers), _counts(rack))
    usable = _without(rack, keep) if keep else rack
    rack_grid, rack_jokers = _counts(usable)
    _drop_unplaceable(grid, rack_grid, jokers + rack_jokers)
    table_jokers = [
        _TableJoker(frozenset(face.key for face in meld.stands_for[at]), meld.start if meld.colour is None else meld.start + at)
        for meld in melds
        for at, tile in enumerate(meld.tiles)
        if tile.is_joker
    ]
    problem = _Problem(grid, rack_grid, table_jokers, rack_jokers, _weights(weights), opening=False, minimum=0, allow_freed=free_jokers)
    return _solution(problem)


def solve_opening(
    rack: Sequence[Tile],
    table: Sequence[Sequence[Tile]] = (),
    *,
    weights: Mapping[Tile, int] | None = None,
    keep: Iterable[Tile] = (),
    minimum: int = OPENING_MINIMUM,
) -> Solution | None:
    """The best opening: new sets made only of rack tiles, worth at least `minimum` (face values, a joker
    counting as what it stands for), the sets on `table` left as they are and listed first. None when the
    rack has no opening (or none with a positive score)."""
    melds = [tuple(read_meld(meld).tiles) for meld in table]
    _check_counts(_counts(tile for meld in melds for tile in meld), _counts(rack))
    rack_grid, rack_jokers = _counts(_without(rack, keep))
    _drop_unplaceable([[0] * 16 for _ in range(4)], rack_grid, rack_jokers)
    empty = [[0] * 16 for _ in range(4)]
    problem = _Problem(empty, rack_grid, [], rack_jokers, _weights(weights), opening=True, minimum=min(minimum, 63))
    found = _solution(problem)
    if found is None:
        return None
    points = sum(read_meld(meld).points for meld in found.table)
    return Solution(found.placed, tuple(melds) + found.table, found.score, found.value, points)
