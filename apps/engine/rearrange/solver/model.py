"""The solver's model: the objective (`TILE_WEIGHT`, `default_weight`), the `Solution`, what a tile at a cell is
(item kinds), the run codes of a colour's open runs and their registry, and the bit fields of a search state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, TypeVar, cast

from apps.engine.rearrange.melds import rack_value
from apps.engine.tiles import Tile

Faces = tuple[Tile, ...]

#: Placing one tile is worth this much more than any difference in face value (tiles first, then value).
TILE_WEIGHT = 1000


def default_weight(tile: Tile) -> int:
    """The default objective: every tile placed counts `TILE_WEIGHT`, plus its face value (a joker 30)."""
    return TILE_WEIGHT + rack_value(tile)


@dataclass(frozen=True, slots=True)
class Solution:
    """A play: the rack tiles it places, and the whole new table (legal sets, in table order).

    `score` is the objective (the sum of the weights of the placed tiles); `value` the face value placed
    (a joker 30); `opening_points` the value of the new sets when it is an opening (else None)."""

    placed: Faces
    table: tuple[Faces, ...]
    score: int
    value: int
    opening_points: int | None = None


_Function = TypeVar("_Function", bound=Callable[..., Any])


def _memo(function: _Function) -> _Function:
    """`functools.cache` for positional arguments, keyed by the plain tuple of the arguments: the garbage
    collector stops tracking a tuple of ints, but never the list that `cache` makes its key (these caches
    live as long as the process, and a full collection walks every tracked object)."""
    table: dict[tuple[Any, ...], Any] = {}
    missing = object()

    def memoised(*args: Any) -> Any:
        found = table.get(args, missing)
        if found is missing:
            found = table[args] = function(*args)
        return found

    memoised.__doc__ = function.__doc__
    memoised.cache_clear = table.clear  # type: ignore[attr-defined]  # as functools.cache's functions have it
    return cast(_Function, memoised)


# --- item kinds and run codes ----------------------------------------------------------------------------

# What a tile at a cell is: a table tile, a rack tile, a kept table joker (standing for this face), a joker
# from the rack, a freed table joker.
T, R, V, W, F = 0, 1, 2, 3, 4
_RACK_ITEMS = (R, W)

# Run codes: 1..3 a plain run of that length (3: legal, may end). A freed joker must end in a set holding
# two more rack tiles: if that set is a run, the run is *designated* at its first rack tile or freed joker
# (one per freed joker still to place, several at one cell if need be) and is the only run that keeps
# count: 4 + (length - 1) + 3 * (rack tiles + 3 * holds the joker).
# If it is a group, the number is designated instead ("hosts" the joker): only there does the group pool
# tell rack tiles from table tiles.


def _code(length: int, designated: bool, rack: int = 0, freed: int = 0) -> int:
    length = min(length, 3)
    if not designated:
        return length
    return 4 + (length - 1) + 3 * (min(rack, 2) + 3 * freed)


def _length(code: int) -> int:
    return code if code < 4 else (code - 4) % 3 + 1


def _designated(code: int) -> bool:
    return code >= 4


def _rack(code: int) -> int:
    return ((code - 4) // 3) % 3


def _freed(code: int) -> int:
    return (code - 4) // 9 if code >= 4 else 0


def _may_end(code: int) -> bool:
    if _length(code) < 3:
        return False
    return not _designated(code) or (_freed(code) == 1 and _rack(code) == 2)


def _extend(code: int, item: int) -> int:
    if not _designated(code):
        return min(code + 1, 3)
    return _code(_length(code) + 1, True, _rack(code) + (item in _RACK_ITEMS), max(_freed(code), int(item == F)))


# Run tuples (sorted run codes of one colour) get small ids, shared by every solve of the process.
_DESCS: list[tuple[int, ...]] = [()]
_DESC_IDS: dict[tuple[int, ...], int] = {(): 0}


def _desc_id(desc: tuple[int, ...]) -> int:
    found = _DESC_IDS.get(desc)
    if found is None:
        found = len(_DESCS)
        _DESCS.append(desc)
        _DESC_IDS[desc] = found
    return found


def _dominates(better: int, worse: int) -> bool:
    """Can a run with code `better` do whatever a run with code `worse` can (and end no later)? A longer
    plain run (3 may end any time); a designated run as long, with as many rack tiles and the same joker."""
    if not _designated(better) and not _designated(worse):
        return better >= worse
    if _designated(better) and _designated(worse):
        return (
            _freed(better) == _freed(worse)
            and _rack(better) >= _rack(worse)
            and _length(better) >= _length(worse)
        )
    return False


_UPGRADES: dict[int, tuple[int, tuple[int, ...]]] = {}  # desc id -> (registry size then, upgrades)


def _upgrades(desc_id: int) -> tuple[int, ...]:
    """Ids of the known run tuples that dominate this one by one step: one run upgraded, or one more legal
    plain run (it may end at once). (Recomputed when the registry of run tuples has grown.)"""
    known = _UPGRADES.get(desc_id)
    if known is not None and known[0] == len(_DESCS):
        return known[1]
    desc = _DESCS[desc_id]
    candidates = {tuple(sorted((*desc, 3)))}
    for index, code in enumerate(desc):
        for better in range(1, 22):
            if better != code and _dominates(better, code):
                candidates.add(tuple(sorted((*desc[:index], better, *desc[index + 1 :]))))
    found = tuple(_DESC_IDS[candidate] for candidate in candidates if candidate in _DESC_IDS)
    _UPGRADES[desc_id] = (len(_DESCS), found)
    return found


# --- state bit fields --------------------------------------------------------------------------------------

DESC_BITS = 13
DESC_MASK = (1 << DESC_BITS) - 1
ACC_SHIFT = 4 * DESC_BITS  # the group pool: per colour (table tiles, rack tiles, kept jokers), 2 bits each
ACC_BITS = 6
ACC_MASK = (1 << (4 * ACC_BITS)) - 1
X_SHIFT = ACC_SHIFT + 4 * ACC_BITS  # jokers and duties (the `extra` bits):
JL_SHIFT = X_SHIFT  # rack jokers left (2 bits)
FL_SHIFT = X_SHIFT + 2  # freed jokers left to place (2 bits)
PEND_SHIFT = X_SHIFT + 4  # per table joker j: bit 2j kept (to place), bit 2j+1 freed (replacement due)
HOST_SHIFT = X_SHIFT + 8  # this number hosts a freed joker in a group
WAIT_SHIFT = X_SHIFT + 9  # designated runs still waiting for their freed joker (2 bits)
X_BITS = 11
X_MASK = (1 << X_BITS) - 1
POOL_X_MASK = (1 << (4 * ACC_BITS + X_BITS)) - 1  # the pool and the extra bits, above ACC_SHIFT
PTS_SHIFT = X_SHIFT + X_BITS
LOW_MASK = (1 << PTS_SHIFT) - 1
HOST = 1 << HOST_SHIFT
# A walk's cache (`_Walk.cache`) keys a layer's moves by the state's bits under `KEEP[layer]`, those the
# moves depend on (a cell: its colour's run tuple, the pool and the extra bits; a group step: the pool, the
# extra bits and the points), | `TAG[layer]` (the layer, past every state bit: points stay far below 2^16);
# `TAG[65 + layer]` for the moves of the place-everything walk (`_Walk.place_all`).
KEY_SHIFT = PTS_SHIFT + 16
KEEP = tuple(
    DESC_MASK << (layer % 5 * DESC_BITS) | POOL_X_MASK << ACC_SHIFT
    if layer % 5 < 4
    else (1 << KEY_SHIFT) - (1 << ACC_SHIFT)
    for layer in range(65)
)
TAG = tuple(layer << KEY_SHIFT for layer in range(2 * 65))


@_memo
def _subsets(mask: int, size: int) -> tuple[int, ...]:
    """Every way to pick `size` of the bits set in `mask`."""
    bits = [bit for bit in range(8) if mask >> bit & 1]
    return tuple(sum(1 << bit for bit in chosen) for chosen in combinations(bits, size))


# Moves: flat tuples of ints, three per move: state delta, value gain, plan (a cell option's id, or a group
# split's id). Flat, the garbage collector stops tracking them at its first look (a tuple of tuples can take
# it a few collections, and what it still tracks then is promoted to the oldest generation, which makes the
# next full collection come sooner); and `zip(it, it, it)` walks them as fast as a tuple of triples.
Moves = tuple[int, ...]
