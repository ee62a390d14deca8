"""A brute-force reference for the Rearrange solver, for small positions only (tests).

It knows nothing of the solver: it lists every legal set by hand (runs with jokers at any places, groups
with jokers), tries every sub-multiset of the rack and every way to cut the table plus those tiles into
listed sets, and asks the game's own check (`check_play`) whether the result is a legal play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from itertools import combinations

from apps.engine.errors import IllegalMove
from apps.engine.rearrange.melds import OPENING_MINIMUM, rack_value, read_meld, try_read_meld
from apps.engine.rearrange.solver import default_weight
from apps.engine.rearrange.validate import check_play
from apps.engine.tiles import COLOURS, JOKER, Tile

Faces = tuple[Tile, ...]


@cache
def every_set() -> tuple[Faces, ...]:
    """Every legal set in table order (a group once per choice of colours and jokers)."""
    found: list[Faces] = []
    for colour in COLOURS:
        for start in range(1, 12):
            for end in range(start + 2, 14):
                run = [Tile(colour, number) for number in range(start, end + 1)]
                for jokers in range(3):
                    for places in combinations(range(len(run)), jokers):
                        found.append(tuple(JOKER if at in places else tile for at, tile in enumerate(run)))
    for number in range(1, 14):
        for count in range(1, 5):
            for colours in combinations(COLOURS, count):
                real = tuple(Tile(colour, number) for colour in colours)
                for jokers in range(3):
                    if count + jokers in (3, 4):
                        found.append(real + (JOKER,) * jokers)
                if count == 1:  # a lone tile with two jokers, in every order (some read as runs)
                    found += [(JOKER, real[0], JOKER), (JOKER, JOKER, real[0])]
    return tuple(dict.fromkeys(meld for meld in found if try_read_meld(meld) is not None))


def arrangements(tiles: Counter[Tile], sets: Sequence[Faces]) -> Iterator[list[Faces]]:
    """Every way to cut `tiles` into `sets` (each cut once, up to order)."""
    if not +tiles:
        yield []
        return
    first = min(tiles.elements(), key=lambda tile: tile.key)
    for meld in sets:
        if first not in meld:
            continue
        need = Counter(meld)
        if need - tiles:
            continue
        for rest in arrangements(tiles - need, sets):
            yield [meld, *rest]


def best_score(
    table: Sequence[Faces], rack: Sequence[Tile], *, opened: bool = True, weights: Mapping[Tile, int] | None = None
) -> int | None:
    """The best score of a legal play (the solver's default weights, or these), or None when no play
    scores above 0."""
    best: int | None = None
    everything = Counter(tile for meld in table for tile in meld) + Counter(rack)
    candidates = [meld for meld in every_set() if not Counter(meld) - everything]
    seen: set[Faces] = set()
    ordered = sorted(rack, key=lambda tile: tile.key)
    for size in range(len(rack), 0, -1):
        for chosen in combinations(ordered, size):
            if chosen in seen:
                continue
            seen.add(chosen)
            score = sum((weights or {}).get(tile, default_weight(tile)) for tile in chosen)
            if score <= 0 or (best is not None and score <= best):
                continue
            if _playable(table, rack, chosen, candidates, opened):
                best = score
    return best


def _playable(table: Sequence[Faces], rack: Sequence[Tile], chosen: Faces, candidates: list[Faces], opened: bool) -> bool:
    if not opened:
        for new_sets in arrangements(Counter(chosen), candidates):
            if sum(read_meld(meld).points for meld in new_sets) >= OPENING_MINIMUM:
                return True
        return False
    tiles = Counter(tile for meld in table for tile in meld) + Counter(chosen)
    for arrangement in arrangements(tiles, candidates):
        try:
            check_play(table, rack, arrangement, opened=True)
        except IllegalMove:
            continue
        return True
    return False


def face_value(tiles: Sequence[Tile]) -> int:
    return sum(rack_value(tile) for tile in tiles)
