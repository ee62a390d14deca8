"""The Easy bot of the Rearrange game (SPEC 7; the computer opponent of `002_*`): it lays sets from its own
rack (its first play only once they reach 30) and adds single tiles to the ends of sets already on the
table; it never takes the table apart. When it can place nothing it draws.

Its sets are found the way a casual player finds them: runs and groups on the rack, longest first, a joker
filling one gap; no search for the best combination.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from apps.engine.game import JSON, Draw, Move
from apps.engine.rearrange.bots.view import Faces, RearrangeSeatView
from apps.engine.rearrange.melds import OPENING_MINIMUM, read_meld, try_read_meld
from apps.engine.rearrange.moves import Play
from apps.engine.tiles import COLOURS, JOKER, Tile


def rack_sets(rack: Sequence[Tile]) -> list[Faces]:
    """Disjoint sets from the rack, chosen greedily: the longest runs and groups first (a joker fills one
    gap or missing colour)."""
    left = Counter(rack)
    found: list[Faces] = []
    while True:
        best: Faces | None = None
        for candidate in _candidates(left):
            if best is None or (len(candidate), _points(candidate)) > (len(best), _points(best)):
                best = candidate
        if best is None:
            return found
        found.append(best)
        left.subtract(best)


def _points(meld: Faces) -> int:
    read = try_read_meld(meld)
    return 0 if read is None else read.points


def _candidates(left: Counter[Tile]) -> list[Faces]:
    jokers = left[JOKER]
    candidates: list[Faces] = []
    for colour in COLOURS:
        for start in range(1, 12):
            run: list[Tile] = []
            used = 0
            for number in range(start, 14):
                face = Tile(colour, number)
                if left[face] > 0:
                    run.append(face)
                elif used < min(jokers, 1) and run:
                    run.append(JOKER)
                    used += 1
                else:
                    break
            while run and run[-1].is_joker:
                run.pop()
            if len(run) >= 3 and try_read_meld(run) is not None:
                candidates.append(tuple(run))
    for number in range(1, 14):
        present = [Tile(colour, number) for colour in COLOURS if left[Tile(colour, number)] > 0]
        if len(present) >= 3:
            candidates.append(tuple(present))
        elif len(present) == 2 and jokers:
            candidates.append((*present, JOKER))
    return candidates


def add_single_tiles(table: Sequence[Faces], rack: Sequence[Tile]) -> tuple[list[Faces], list[Tile]]:
    """Add rack tiles one at a time to either end of a set on the table while one fits (highest first).
    Returns the new table and the tiles left on the rack."""
    sets = list(table)
    left = sorted((tile for tile in rack if not tile.is_joker), key=lambda tile: -(tile.number or 0))
    jokers = [tile for tile in rack if tile.is_joker]  # a casual player keeps a joker for a set of its own
    progress = True
    while progress and left:
        progress = False
        spots = _spots(sets)
        for tile in left:
            spot = spots.get(tile)
            if spot is None:
                continue
            index, at_end = spot
            sets[index] = (*sets[index], tile) if at_end else (tile, *sets[index])
            left.remove(tile)
            progress = True
            break
    return sets, [*left, *jokers]


def _spots(sets: Sequence[Faces]) -> dict[Tile, tuple[int, bool]]:
    """Where one more tile fits on these sets: face -> (set index, at the end rather than the front)."""
    spots: dict[Tile, tuple[int, bool]] = {}
    for index, meld in enumerate(sets):
        read = read_meld(meld)
        if read.kind == "set":
            if len(meld) < 4:
                for colour in COLOURS:
                    face = Tile(colour, read.start)
                    if face not in meld:
                        spots.setdefault(face, (index, True))
            continue
        assert read.colour is not None
        end = read.start + len(meld) - 1
        if end < 13:
            spots.setdefault(Tile(read.colour, end + 1), (index, True))
        if read.start > 1:
            spots.setdefault(Tile(read.colour, read.start - 1), (index, False))
    return spots


class EasyRearrangeBot:
    level = "easy"

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        seat = RearrangeSeatView.of(view)
        new_sets = rack_sets(seat.rack)
        if not seat.has_opened:
            if new_sets and sum(_points(meld) for meld in new_sets) >= OPENING_MINIMUM:
                return Play((*seat.table, *new_sets))
            return Draw()
        rest = list(seat.rack)
        for meld in new_sets:
            for tile in meld:
                rest.remove(tile)
        table, left = add_single_tiles(seat.table, rest)
        if len(left) == len(seat.rack):
            return Draw()
        return Play((*table, *new_sets))
