"""Planning a turn of the house game from what a seat sees: which melds to lay from the rack, which tiles
to lay off, what to keep, and how good a rack is. Pure functions on faces, built on the engine's own
helpers (`melds_from_rack`, `lay_off_spots`, `read_meld`), used by the Hard bot.

A plan is what the whole rest of the turn should do; the bot plays its first step, and plans again from
the next view (bots keep no state between calls).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from apps.engine.house.helpers import lay_off_spots, melds_from_rack
from apps.engine.house.melds import OPENING_MINIMUM, Meld, MeldKind, rack_penalty, read_meld
from apps.engine.house.moves import LayOff
from apps.engine.tiles import COLOURS, JOKER, Tile

Faces = tuple[Tile, ...]


def face_key(tile: Tile) -> int:
    return tile.key


def sorted_faces(tiles: Iterable[Tile]) -> Faces:
    return tuple(sorted(tiles, key=face_key))


# --- partitions of a rack into melds -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Partition:
    """Disjoint melds the rack can make, and the tiles left over."""

    melds: tuple[Meld, ...]
    rest: Faces

    @property
    def tiles(self) -> int:
        return sum(len(meld.tiles) for meld in self.melds)

    @property
    def points(self) -> int:
        return sum(meld.points for meld in self.melds)

    @property
    def has_run(self) -> bool:
        return any(meld.kind is MeldKind.RUN for meld in self.melds)

    @property
    def opens(self) -> bool:
        return self.points >= OPENING_MINIMUM and self.has_run


def partitions(rack: Sequence[Tile], *, limit: int = 3000, keep: int = 1) -> list[Partition]:
    """Every maximal choice of disjoint melds from the rack that leaves at least `keep` tiles (to discard),
    found by a depth-first search over `melds_from_rack` (at most `limit` steps; longest melds first)."""
    return list(_partitions(sorted_faces(rack), limit, keep))


@lru_cache(maxsize=4096)
def _partitions(rack: Faces, limit: int, keep: int) -> tuple[Partition, ...]:
    candidates = sorted(melds_from_rack(rack), key=lambda meld: (-len(meld.tiles), -meld.points))
    counts = Counter(rack)
    total = len(rack)
    found: list[Partition] = []
    chosen: list[Meld] = []
    steps = 0

    def fits(meld: Meld) -> bool:
        need = Counter(meld.tiles)
        return all(counts[face] >= amount for face, amount in need.items())

    def search(at: int, used: int) -> None:
        nonlocal steps
        extended = False
        for index in range(at, len(candidates)):
            steps += 1
            if steps > limit:
                break
            meld = candidates[index]
            if used + len(meld.tiles) > total - keep or not fits(meld):
                continue
            extended = True
            counts.subtract(meld.tiles)
            chosen.append(meld)
            search(index, used + len(meld.tiles))
            chosen.pop()
            counts.update(meld.tiles)
        if not extended and not any(
            used + len(meld.tiles) <= total - keep and fits(meld) for meld in candidates[:at]
        ):
            found.append(Partition(tuple(chosen), sorted_faces(counts.elements())))

    search(0, 0)
    if not found:
        found.append(Partition((), rack))
    return tuple(found)


# --- lay-offs ----------------------------------------------------------------------------------------------


def extend(meld: Faces, lay_off: LayOff) -> Faces:
    return lay_off.before + meld + lay_off.after


def greedy_lay_offs(table: Sequence[Faces], rest: Sequence[Tile], *, keep: int = 1) -> tuple[list[LayOff], Faces]:
    """Lay off tiles of `rest` on `table` one at a time while one fits (real tiles first, the most expensive
    first, then jokers), keeping at least `keep` tiles. Returns the lay-offs in order (meld indexes of
    `table`) and the tiles left."""
    melds = list(table)
    left = sorted(rest, key=lambda tile: (tile.is_joker, -rack_penalty(tile), face_key(tile)))
    done: list[LayOff] = []
    progress = True
    while progress and len(left) > keep:
        progress = False
        for tile in left:
            spots = lay_off_spots(melds, tile)
            if not spots:
                continue
            spot = spots[0]
            melds[spot.meld] = extend(melds[spot.meld], spot)
            left.remove(tile)
            done.append(spot)
            progress = True
            break
    return done, sorted_faces(left)


# --- how good a rack is ------------------------------------------------------------------------------------


def unseen_counts(seen: Iterable[Tile]) -> Counter[Tile]:
    """How many copies of each face are still hidden (in other racks or the pile) given what this seat saw."""
    unseen: Counter[Tile] = Counter()
    for colour in COLOURS:
        for number in range(1, 14):
            unseen[Tile(colour, number)] = 2
    unseen[JOKER] = 2
    unseen.subtract(seen)
    return +unseen


def _run_neighbour(tile: Tile, step: int) -> Tile | None:
    assert tile.colour is not None and tile.number is not None
    number = tile.number + step
    if number == 14:
        number = 1  # a 1 after 13
    if not 1 <= number <= 13 or (tile.number == 1 and step < 0):
        return None
    return Tile(tile.colour, number)


def completions(a: Tile, b: Tile) -> tuple[Tile, ...]:
    """The faces that turn the pair (a, b) into a three-tile meld ((): not a partial meld)."""
    if a.is_joker or b.is_joker or a == b:
        return ()
    assert a.number is not None and b.number is not None
    if a.colour is b.colour:
        low, high = (a, b) if (a.number < b.number) else (b, a)
        assert low.number is not None and high.number is not None
        gap = high.number - low.number
        if high.number == 13 and low.number == 1:
            low, high, gap = high, low, 1  # 13 then 1 after it
        elif high.number == 12 and low.number == 1:
            return (Tile(low.colour, 13),)
        faces = []
        if gap == 1:
            for face in (_run_neighbour(low, -1), _run_neighbour(high, 1)):
                if face is not None:
                    faces.append(face)
        elif gap == 2:
            middle = _run_neighbour(low, 1)
            if middle is not None:
                faces.append(middle)
        return tuple(faces)
    if a.number == b.number:
        return tuple(Tile(colour, a.number) for colour in COLOURS if colour not in (a.colour, b.colour))
    return ()


def tile_value(tile: Tile, rack: Sequence[Tile], unseen: Counter[Tile]) -> float:
    """How much `tile` is worth keeping on this rack: one point per hidden tile that would complete a
    partial meld it is part of (a joker is worth most of all)."""
    if tile.is_joker:
        return 20.0
    value = 0.0
    seen_partners: set[Tile] = set()
    for other in rack:
        if other is tile or other in seen_partners:
            continue
        seen_partners.add(other)
        if other.is_joker:
            value += 1.5
            continue
        value += sum(unseen[face] for face in completions(tile, other))
    return value


def meld_points(meld: Faces) -> int:
    return read_meld(meld).points

