"""How far a rack is from opening (house game, issue 18), for the Hard bot's discards before it opens.

The measure is the one mahjong players call shanten and ukeire: the fewest tiles the rack still needs to
open (45 points of melds, at least one a run), and how many hidden tiles would bring it one tile nearer.
A *target* is a meld the rack already holds, or holds but for one tile (a hidden face, or a joker of
the rack standing in); an opening plan is a set of disjoint targets worth 45 with a run, and its distance
is the tiles it misses less the rack's jokers. Every plan at the least distance is listed once per rack
(`OpeningPlans`), so the distance and the useful draws of the rack less any one tile are read from the
same list: a discard that some closest plan does not use keeps the distance, and the draws that shorten
it are the missing faces of the closest plans that do not use it (exactly: a draw that shortens the
distance fills a missing tile of such a plan). Pure functions of faces and hidden counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from apps.engine.house.melds import MAX_RUN, OPENING_MINIMUM, rank_value, set_value
from apps.engine.tiles import COLOURS, JOKER, Tile

#: Give up (no answer) past this many search steps, or past this distance.
STEPS = 40000
MAX_DISTANCE = 4

_FACES: tuple[Tile, ...] = tuple(Tile(colour, number) for colour in COLOURS for number in range(1, 14))
_INDEX: dict[Tile, int] = {face: index for index, face in enumerate(_FACES)}
_SET_COLOURS: tuple[tuple[int, ...], ...] = (tuple(range(len(COLOURS))), *combinations(range(len(COLOURS)), 3))


def target_face(index: int) -> Tile:
    """The face of a face index (as in `Target` and `OpeningPlans`)."""
    return _FACES[index]


def _face_index(colour_index: int, rank: int) -> int:
    return colour_index * 13 + (rank - 1 if rank <= 13 else 0)


@dataclass(frozen=True, slots=True)
class Target:
    """A meld the rack holds or nearly holds: the rack faces it uses (indexes, with repeats when a face
    is used twice), the missing faces, its opening points and whether it is a run."""

    uses: tuple[int, ...]
    missing: tuple[int, ...]
    points: int
    run: bool


def targets(counts: Sequence[int], unseen: Sequence[int], jokers: int) -> list[Target]:
    """Every target of a rack given as counts per face index: runs of 3 or more and sets of 3 or 4 the
    rack holds all but at most one tile of (that one hidden, or a joker of the rack to stand in); with a
    joker on the rack, all but two (one of them the joker's)."""
    found: list[Target] = []
    most = 2 if jokers else 1

    def missing_ok(index: int) -> bool:
        return unseen[index] > 0 or jokers > 0

    for colour_index in range(len(COLOURS)):
        for start in range(1, 13):
            uses: list[int] = []
            missing: list[int] = []
            points = 0
            for rank in range(start, min(start + MAX_RUN, 15)):
                index = _face_index(colour_index, rank)
                if counts[index] > 0:
                    uses.append(index)
                elif len(missing) < most and missing_ok(index):
                    missing.append(index)
                else:
                    break
                points += rank_value(rank)
                if rank - start >= 2:
                    found.append(Target(tuple(uses), tuple(missing), points, True))
    for number in range(1, 14):
        present = {c for c in range(len(COLOURS)) if counts[c * 13 + number - 1]}
        if len(present) < 3 - most:
            continue
        value = set_value(number)
        for colours in _SET_COLOURS:
            lacking = [c for c in colours if c not in present]
            if len(lacking) > most:
                continue
            gaps = tuple(c * 13 + number - 1 for c in lacking)
            if not all(missing_ok(gap) for gap in gaps):
                continue
            held = tuple(c * 13 + number - 1 for c in colours if c not in lacking)
            found.append(Target(held, gaps, value * len(colours), False))
    unique: dict[tuple[tuple[int, ...], tuple[int, ...]], Target] = {}
    for target in found:
        unique.setdefault((target.uses, target.missing), target)
    return sorted(unique.values(), key=lambda target: (-target.points, len(target.missing), target.uses, target.missing))


@dataclass(frozen=True, slots=True)
class OpeningPlans:
    """The closest opening plans of a rack: each as (rack face uses as a Counter of indexes, missing face
    indexes), all at `distance` (tiles still needed after the rack's jokers)."""

    distance: int
    plans: tuple[tuple[Counter[int], tuple[int, ...]], ...]


def opening_plans(rack: Sequence[Tile], unseen: Counter[Tile], *, steps: int = STEPS) -> OpeningPlans | None:
    """The closest opening plans of `rack` (None: none within `MAX_DISTANCE`, or the search ran out)."""
    counts = [0] * len(_FACES)
    jokers = 0
    for tile in rack:
        if tile.is_joker:
            jokers += 1
        else:
            counts[_INDEX[tile]] += 1
    hidden = [unseen[face] for face in _FACES]
    found = targets(counts, hidden, jokers)
    if not found:
        return None
    budget = [steps]
    for bound in range(MAX_DISTANCE + jokers + 1):
        plans: list[tuple[Counter[int], tuple[int, ...]]] = []
        if not _search(found, counts, jokers, bound, plans, budget):
            return None
        if plans:
            return OpeningPlans(max(0, bound - jokers), tuple(plans))
    return None


def _search(
    found: Sequence[Target],
    counts: list[int],
    jokers: int,
    bound: int,
    plans: list[tuple[Counter[int], tuple[int, ...]]],
    budget: list[int],
) -> bool:
    """Every plan missing exactly `bound` tiles (none misses fewer: the caller deepens the bound), into
    `plans`. False when the step budget ran out."""
    chosen: list[Target] = []
    tiles = sum(counts)

    least = 1 if jokers else 2  # rack tiles a target uses

    def search(at: int, points: int, missing: int, run: bool, left: int) -> bool:
        if points >= OPENING_MINIMUM and run:
            if missing == bound:
                uses: Counter[int] = Counter()
                gaps: list[int] = []
                for target in chosen:
                    uses.update(target.uses)
                    gaps.extend(target.missing)
                plans.append((uses, tuple(gaps)))
            return True
        for index in range(at, len(found)):
            target = found[index]
            # Every further target uses at least `least` rack tiles and is worth at most this one.
            if points + (left // least) * target.points < OPENING_MINIMUM:
                return True
            budget[0] -= 1
            if budget[0] < 0:
                return False
            extra = len(target.missing)
            if missing + extra > bound:
                continue
            held = target.uses
            if any(counts[face] <= 0 for face in held):
                continue
            for face in held:
                counts[face] -= 1
            chosen.append(target)
            complete = search(index, points + target.points, missing + extra, run or target.run, left - len(held))
            chosen.pop()
            for face in held:
                counts[face] += 1
            if not complete:
                return False
        return True

    return search(0, 0, 0, False, tiles)


@dataclass(frozen=True, slots=True)
class DiscardRating:
    """What discarding one face leaves: the distance to opening and the hidden tiles that shorten it."""

    tile: Tile
    distance: int
    useful: int
    draws: tuple[Tile, ...] = ()  # the faces that shorten it (a hidden joker too)


def rate_discards(rack: Sequence[Tile], unseen: Counter[Tile], candidates: Sequence[Tile]) -> list[DiscardRating] | None:
    """For each candidate face (no jokers), the distance and useful draws of the rack without it; None when
    the rack is too far from opening to say (the caller keeps its older rule)."""
    found = opening_plans(rack, unseen)
    if found is None:
        return None
    counts = Counter(rack)
    hidden_jokers = unseen[JOKER]
    ratings: list[DiscardRating] = []
    for tile in sorted(set(candidates), key=lambda tile: tile.key):
        if tile.is_joker:
            continue
        index = _INDEX[tile]
        gaps: set[int] = set()
        kept = False
        for uses, missing in found.plans:
            if uses[index] < counts[tile]:
                kept = True
                gaps.update(missing)
        if not kept:
            ratings.append(DiscardRating(tile, found.distance + 1, 0))
            continue
        draws = [_FACES[gap] for gap in sorted(gaps) if unseen[_FACES[gap]]]
        if gaps and hidden_jokers:
            draws.append(JOKER)  # a drawn joker fills any gap
        useful = sum(unseen[face] for face in draws)
        ratings.append(DiscardRating(tile, found.distance, useful, tuple(draws)))
    return ratings


def expected_draws(rack: Sequence[Tile], unseen: Counter[Tile], rating: DiscardRating) -> float:
    """Roughly how many draws the rack less `rating.tile` needs to open, looking two draws ahead: the
    draws to the first useful tile (hidden tiles over useful ones), then, averaged over the useful tiles,
    the draws from the best rack each leaves (itself rated one draw ahead; a rack one tile from opening
    exactly: hidden over its useful draws). Far racks add a draw per tile still missing."""
    hidden = max(1, sum(unseen.values()))
    if rating.useful <= 0:
        return float(hidden)
    first = hidden / rating.useful
    if rating.distance <= 1:
        return first
    kept = list(rack)
    kept.remove(rating.tile)
    then = 0.0
    for face in rating.draws:
        weight = unseen[face] / rating.useful
        after = Counter(unseen)
        after[face] -= 1
        grown = [*kept, face]
        ratings = rate_discards(grown, after, grown)
        best = max((next_rating.useful for next_rating in ratings or () if next_rating.distance < rating.distance), default=0)
        then += weight * (hidden - 1) / max(best, 0.5)
    return first + then + (rating.distance - 2) * first
