"""An exact solver for the Rearrange game (SPEC 4, SPEC 9 `solve`): which rack tiles can go on the table
this turn, and the whole new table that holds them.

    solve(table, rack)          the best play of a player who has opened: the most rack tiles placed
                                (ties: the highest face value placed, a joker counting 30), rearranging
                                the whole table; every table tile stays on the table.
    solve_opening(rack, table)  the best opening: new sets of rack tiles only, worth at least 30, the
                                table untouched.

Both take `weights` (what placing one tile of a face is worth to the caller; the default counts tiles
first, then face value) and `keep` (rack tiles that must stay on the rack), so a bot can ask for the best
play under its own preferences or the best play that holds certain tiles back, at the price of one solve.

Every returned play passes the game's own check (`apps.engine.rearrange.validate.check_play`), the
freed-joker rule included: a joker on the table either keeps standing for (one of) the tile(s) it stood
for, or it is freed, which needs a tile it stood for from the rack and a new set holding the joker and at
least two other rack tiles.

The method is the dynamic programme over the numbers 1..13 with per-colour open-run states of van Rijn,
Takes and Vis ("The complexity of Rummikub problems", 2015), extended to jokers and to the freed-joker rule,
and exact: it explores every way of building the table, up to interchangeable choices.

- The table is built number by number, colour by colour (52 cells, then a group step per number). At a
  cell, the tiles of that face (table tiles: all of them; rack tiles: any number) extend the colour's open
  runs, start new runs, or wait in the number's group pool; jokers placed in runs are extra tiles of the
  face. At the group step the pool (plus jokers) must split into legal groups.
- A colour's open runs are a sorted tuple of run codes: a plain run's length capped at 3 (3 = already a
  legal run, may end any time), or a "designated" run, one that will hold a freed joker, with how many
  rack tiles it has so far (capped at 2) and whether the joker is in it. A run is designated at its first
  rack tile or freed joker (without loss of generality: a longer lead of table tiles would be a run of
  its own); a freed joker's group instead makes its number "host" it, and only there does the group pool
  tell rack tiles from table tiles.
- A table joker is either kept (then it is a table tile of a face it stood for, placed at that number)
  or freed (then it is a joker that must be placed, in a designated run or a hosted group with two rack
  tiles, and a rack tile it stood for must be placed at its number). Both choices start the search.
- The state is one int (bit fields: each colour's run tuple id, the group pool, jokers left, pending joker
  duties, opening points); a layer is a dict state -> best value, with back pointers. Moves per cell are
  generated once per (run tuple, tiles, jokers) and cached for the process, as tuples of ints (the
  garbage collector has nothing to look at in them).
- Pruning that keeps the best play: a legal open run is never ended in the same cell where a plain run of
  that colour starts (extending it reaches every future the restart reaches); runs that cannot reach
  length 3 are never made; a state whose runs are dominated by another's, identical otherwise and worth
  as much, is dropped; a rack joker is kept in hand (and added to the finished table) unless placing it
  earlier pays; rack tiles that no set could hold are left out; a joker never takes a spot a rack tile of
  that face could take; a designated run counts only the rack tiles it could still reach (through
  numbers with a tile of its colour, or jokers in gaps).
- The order of work (`_solve`): a depth-first walk for a play that places everything (quick on a big
  table, where the full search is slowest); then searches with growing budgets of weight left unplaced
  (a search whose best play leaves no more than its budget has found the best play; so has one whose
  best play leaves less than any play it left out must leave, at least as many tiles as it takes to pass
  the budget). When a table joker may be freed, a search without that (and without rack jokers) gives a
  first play: the full search looks only at plays that leave less (one tight budget, then that one),
  and without rack jokers it leaves out the fate that keeps every joker, which the first play covers. Of
  two jokers at one number, one kept and one freed, a fate whose every play the other way round also
  allows is left out.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, permutations, product
from typing import Any, NamedTuple, TypeVar, cast

from apps.engine.errors import InvalidMove
from apps.engine.rearrange.melds import OPENING_MINIMUM, rack_value, read_meld, try_read_meld
from apps.engine.tiles import COLOURS, JOKER, Tile

__all__ = ["Solution", "default_weight", "solve", "solve_opening"]

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
    memoised.cache_clear = table.clear  # type: ignore[attr-defined]
    return cast(_Function, memoised)


# --- item kinds and run codes ----------------------------------------------------------------------------

# What a tile at a cell is: a table tile, a rack tile, a kept table joker (standing for this face), a joker
# from the rack, a freed table joker.
T, R, V, W, F = 0, 1, 2, 3, 4
_RACK_ITEMS = (R, W)

# Run codes: 1..3 a plain run of that length (3: legal, may end). A freed joker must end in a set holding
# two more rack tiles: if that set is a run, the run is *designated* when it starts (at most one open at a
# time) and is the only run that keeps count: 4 + (length - 1) + 3 * (rack tiles + 3 * holds the joker).
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
LAYER_SHIFT = 48  # a walk's caches: keys past the state bits that moves depend on (pool, extra, points)


CellOption = tuple[
    tuple[int, ...],  # desc: the colour's new run tuple
    tuple[int, int, int],  # pool: the group pool's share (table tiles, rack tiles, kept jokers)
    int,  # placed: rack tiles (numbered) placed at this cell
    int,  # kept: kept table jokers placed here
    int,  # rack_jokers: jokers from the rack placed in runs here
    int,  # freed: freed jokers placed in runs here
    int,  # waiting: change in the number of designated runs waiting for their freed joker
    tuple[int | None, ...],  # extend: for each old run the item that extends it (None: it ends)
    tuple[int, ...],  # starts: the items that start new runs
    tuple[int, ...],  # order: where each new-tuple run comes from
]
"""One way to use the tiles of a cell: the colour's new run tuple, the group pool's share, the counts used,
and the plan (for rebuilding the table). A plain tuple (not a NamedTuple): the garbage collector stops
tracking tuples of ints, and thousands of options are kept for the life of the process."""


@_memo
def _cell_options(
    desc: tuple[int, ...],
    table: int,
    rack: int,
    kept_max: int,
    jokers: int,
    freed: int,
    real1: int,
    real2: int,
    spare: int,
    rack_ahead: int,
    designate: bool,
    host: bool,
) -> tuple[CellOption, ...]:
    """Every way (up to interchangeable choices) to use the tiles of one cell, given the colour's open runs
    `desc`: `table` tiles (all used), up to `rack` rack tiles, up to `kept_max` kept jokers, and of the
    `jokers` rack jokers and `freed` freed jokers still to place, any number in runs here (freed ones
    only in the designated run). `designate`: a run starting here may be designated. `host`: the number
    hosts a freed joker's group, so the pool keeps rack tiles apart. `real1`, `real2`: the numbered tiles
    of the colour's next two cells; with the jokers left (`spare`: kept jokers still to place) they say
    which short runs could still reach 3 tiles (no others are made). `rack_ahead`: how many rack tiles
    (at most 2 counted) the colour's later cells and the rack jokers could still add to a designated run."""
    return tuple(
        option
        for option in _raw_options(desc, table, rack, kept_max, jokers, freed, designate, host)
        if _viable(
            option[0],
            real1,
            real2,
            jokers - option[4] + freed - option[5] + spare - option[3],
            freed - option[5],
            rack_ahead,
        )
    )


@_memo
def _raw_options(
    desc: tuple[int, ...],
    table: int,
    rack: int,
    kept_max: int,
    jokers: int,
    freed: int,
    designate: bool,
    host: bool,
) -> tuple[CellOption, ...]:
    """`_cell_options` before the look-ahead (which depends on the next cells): cached on fewer inputs."""
    watched = designate or any(_designated(code) for code in desc)
    apart = watched or host  # does it matter which tiles are rack tiles?
    found: dict[tuple[object, ...], CellOption] = {}
    for kept, placed, rack_jokers, freed_used in product(
        range(kept_max + 1), range(rack + 1), range(jokers + 1), range((freed if watched else 0) + 1)
    ):
        if placed < rack and rack_jokers:
            continue  # dominated: that rack tile in the joker's place, the joker added to the table at the end
        items = {T: table if apart else table + placed, R: placed if apart else 0, V: kept, W: rack_jokers, F: freed_used}
        for extend in _extensions(desc, items, designate):
            left = dict(items)  # what the extensions left (the generator has taken them out)
            for starts, pool in _starts(left, designate, host):
                for option in _options(desc, extend, starts, pool, placed, kept, rack_jokers, freed_used, freed, designate):
                    key = (option[0], option[1], placed, kept, rack_jokers, freed_used)
                    found.setdefault(key, option)
    return tuple(found.values())


def _extensions(desc: tuple[int, ...], items: dict[int, int], designate: bool) -> Iterator[tuple[int | None, ...]]:
    """For each open run: the item kind that extends it, or None (it ends: it must be legal). A freed
    joker extends the designated run, or a short plain run that becomes designated with it."""
    if not desc:
        yield ()
        return
    code, rest = desc[0], desc[1:]
    choices: list[int | None] = [None] if _may_end(code) else []
    joker_fits = _designated(code) or (designate and code < 3)
    choices += [item for item in (T, R, V, W, F) if items[item] and (item != F or joker_fits)]
    for item in choices:
        if item is not None:
            items[item] -= 1
        for tail in _extensions(rest, items, designate):
            yield (item, *tail)
        if item is not None:
            items[item] += 1


def _starts(left: dict[int, int], designate: bool, host: bool) -> Iterator[tuple[tuple[int, ...], tuple[int, int, int]]]:
    """The items left after extending: which start new runs and which go to the number's group pool.
    Jokers (rack or freed) always start runs here (a freed one only a designated run); groups get their
    jokers at the number's end."""
    if left[F] > (1 if designate else 0):
        return
    for table, rack, kept in product(range(left[T] + 1), range(left[R] + 1), range(left[V] + 1)):
        starts = (T,) * table + (R,) * rack + (V,) * kept + (W,) * left[W] + (F,) * left[F]
        to_table, to_rack, to_kept = left[T] - table, left[R] - rack, left[V] - kept
        yield starts, ((to_table, to_rack, to_kept) if host else (to_table + to_rack, 0, to_kept))


_SPECIAL = (R, W, F)  # what a designated run is made for: rack tiles and the freed joker


def _options(
    desc: tuple[int, ...],
    extend: tuple[int | None, ...],
    starts: tuple[int, ...],
    pool: tuple[int, int, int],
    placed: int,
    kept: int,
    rack_jokers: int,
    freed_used: int,
    freed: int,
    designate: bool,
) -> Iterator[CellOption]:
    """The cell options for one way of extending and starting runs: with no run designated here, or (if
    `designate`) with one designated. A run is designated at its first rack tile or freed joker, whether
    it starts here or is a plain run of 1 or 2 table tiles so far (without loss of generality: a longer
    lead of table tiles could be split off as a run of its own). A freed joker here must be in it."""
    if any(pooled > 3 for pooled in pool):
        return
    candidates: list[int | None] = []  # old run index, or len(desc) + start index
    forced = [index for index, item in enumerate(extend) if item == F and not _designated(desc[index])]
    forced += [len(desc) + index for index, item in enumerate(starts) if item == F]
    if len(forced) > 1:
        return
    if forced:
        candidates = list(forced)
    else:
        candidates = [None]
        if designate:
            candidates += [
                index for index, item in enumerate(extend) if item in _SPECIAL and not _designated(desc[index])
            ]
            candidates += [
                len(desc) + index
                for index, item in enumerate(starts)
                if item in _SPECIAL and (index == 0 or starts[index - 1] != item)
            ]
    for chosen in candidates:
        option = _option(desc, extend, starts, chosen, pool, placed, kept, rack_jokers, freed_used, freed)
        if option is not None:
            yield option


def _option(
    desc: tuple[int, ...],
    extend: tuple[int | None, ...],
    starts: tuple[int, ...],
    chosen: int | None,
    pool: tuple[int, int, int],
    placed: int,
    kept: int,
    rack_jokers: int,
    freed_used: int,
    freed: int,
) -> CellOption | None:
    runs: list[tuple[int, int]] = []  # (new code, source: old index, or len(desc) + start index)
    ended_plain = False
    waiting = 0
    for index, (code, item) in enumerate(zip(desc, extend, strict=True)):
        if item is None:
            ended_plain = ended_plain or not _designated(code)
            continue
        if index == chosen:
            waiting += item != F
            runs.append((_code(code + 1, True, int(item in _RACK_ITEMS), int(item == F)), index))
            continue
        if item == F and _designated(code) and not _freed(code):
            waiting -= 1
        runs.append((_extend(code, item), index))
    for index, item in enumerate(starts):
        if len(desc) + index == chosen:
            waiting += item != F
            code = _code(1, True, int(item in _RACK_ITEMS), int(item == F))
        else:
            if ended_plain:
                return None  # dominated: extending the run that ended reaches every future this one reaches
            code = 1
        runs.append((code, len(desc) + index))
    if freed == freed_used:
        # No freed joker left to place: a designated run with its joker and two rack tiles is a plain
        # legal run from now on.
        runs = [(3 if _freed(code) and _rack(code) == 2 else code, source) for code, source in runs]
    runs.sort()
    return (
        tuple(code for code, _ in runs),
        pool,
        placed,
        kept,
        rack_jokers,
        freed_used,
        waiting,
        extend,
        starts,
        tuple(source for _, source in runs),
    )


def _viable(desc: tuple[int, ...], real1: int, real2: int, jokers: int, freed_left: int, rack_ahead: int) -> bool:
    """Whether the short runs can still reach 3 tiles with the numbered tiles of the next two cells and
    the jokers left, and designated runs can still get what they lack: a freed joker each (those still
    to place), two rack tiles (`rack_ahead` more at most), and (without loss of generality: a longer lead
    of table tiles could be split off as a run of its own) a rack tile or the joker among their first 3."""
    waiting = 0
    for code in desc:
        if _designated(code):
            waiting += not _freed(code)
            if _rack(code) + rack_ahead < 2 or (_length(code) == 3 and not _rack(code) and not _freed(code)):
                return False
    if waiting > freed_left:
        return False
    short = sum(1 for code in desc if _length(code) < 3)
    if not short:
        return True
    single = sum(1 for code in desc if _length(code) == 1)
    return max(0, short - real1) + max(0, single - real2) <= jokers


# --- the group step ----------------------------------------------------------------------------------------


Group = tuple[tuple[int, int], ...]  # (colour index or -1 for a joker, item kind)

# Numbers where one tile and two jokers can be a group: written so that no run reads them (`J r1 J`,
# `J J r2`, `r12 J J`, `r13 J J`); at any other number every order of them reads as a run.
_LONE_GROUPS = (1, 2, 12, 13)


@_memo
def _group_split(pool: tuple[tuple[int, int, int], ...], jokers: int, freed: int, lone_ok: bool) -> tuple[Group, ...] | None:
    """Split a number's group pool (per colour: table tiles, rack tiles, kept jokers of that colour) plus
    `jokers` rack jokers and `freed` freed jokers into legal groups, or None. A group has 3-4 tiles of
    different colours, at least two numbered tiles (one is enough where `lone_ok`: a lone tile with two
    jokers reads as a group only for 1, 2, 12 and 13), and a group holding a freed joker has at least two
    other tiles from the rack."""
    items = [
        (colour, kind)
        for colour, (table, rack, kept) in enumerate(pool)
        for kind, amount in ((T, table), (R, rack), (V, kept))
        for _ in range(amount)
    ]
    total = len(items) + jokers + freed
    if total == 0:
        return ()
    by_colour = Counter(colour for colour, _ in items)
    least = max(max(by_colour.values(), default=0), -(-total // 4))
    for groups in range(least, total // 3 + 1):
        found = _split_into(items, groups, jokers, freed, lone_ok)
        if found is not None:
            return found
    return None


def _split_into(
    items: list[tuple[int, int]], groups: int, jokers: int, freed: int, lone_ok: bool
) -> tuple[Group, ...] | None:
    by_colour: dict[int, list[tuple[int, int]]] = {}
    for item in items:
        by_colour.setdefault(item[0], []).append(item)
    placements = [
        sorted(set(permutations(range(groups), len(colour_items))))
        for colour_items in by_colour.values()
    ]
    colour_lists = list(by_colour.values())
    for choice in product(*placements):
        buckets: list[list[tuple[int, int]]] = [[] for _ in range(groups)]
        for colour_items, where in zip(colour_lists, choice, strict=True):
            for item, group in zip(colour_items, where, strict=True):
                buckets[group].append(item)
        wild = [(-1, W)] * jokers + [(-1, F)] * freed
        for targets in product(range(groups), repeat=len(wild)):
            filled = [list(bucket) for bucket in buckets]
            for joker, group in zip(wild, targets, strict=True):
                filled[group].append(joker)
            if all(_group_ok(bucket, lone_ok) for bucket in filled):
                return tuple(tuple(bucket) for bucket in filled)
    return None


def _group_ok(bucket: list[tuple[int, int]], lone_ok: bool) -> bool:
    if not 3 <= len(bucket) <= 4:
        return False
    numbered = sum(1 for _, kind in bucket if kind in (T, R))
    if numbered < (1 if lone_ok else 2):
        return False
    if any(kind == F for _, kind in bucket):
        return sum(1 for _, kind in bucket if kind in _RACK_ITEMS) >= 2
    return True


# --- the search ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _TableJoker:
    faces: frozenset[int]  # face keys it may stand for (one number)
    number: int


@dataclass(slots=True)
class _Problem:
    table: list[list[int]]  # [colour][number] table tiles (number 1..13; index 0 and 14, 15 unused)
    rack: list[list[int]]
    table_jokers: list[_TableJoker]
    rack_jokers: int
    weight: list[int]  # by face key (52: joker)
    opening: bool
    minimum: int
    hold_jokers: bool = True  # prune plays that spend a rack joker for nothing (see `_drop_spent_jokers`)
    allow_freed: bool = True  # may table jokers be freed (off: a quick first search for a lower bound)

    def freeable(self, joker: _TableJoker) -> bool:
        """Can this table joker be freed: is a tile it stands for on the rack?"""
        return self.allow_freed and any(self.rack[key // 13][key % 13 + 1] for key in joker.faces)

    def numbered_nonnegative(self) -> bool:
        """Are the weights of the rack's numbered tiles all at least 0? (Budgets need it; a joker's weight
        below 0 is fine: it only makes placing the joker cost.)"""
        return all(
            self.weight[colour * 13 + number - 1] >= 0
            for colour in range(4)
            for number in range(1, 14)
            if self.rack[colour][number]
        )

    def reachable(self) -> int:
        """The score of placing every rack tile (an upper bound; weights below 0 count 0)."""
        total = max(self.weight[52], 0) * self.rack_jokers
        for colour in range(4):
            for number in range(1, 14):
                total += max(self.weight[colour * 13 + number - 1], 0) * self.rack[colour][number]
        return total


class _Step(NamedTuple):
    colour: int  # -1: the group step of `number`
    number: int
    info: int  # the plan: a cell option's id, or a group split's id


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
Found = tuple[int, list[_Step], int]  # (value, steps, rack jokers kept in hand)


class _Walk:
    """The search space of one problem: its start states, the moves of every layer (52 cells and 13
    group steps, in order) from any state, and which final states are legal tables. Moves are generated
    once per (layer, what the state's move depends on) and cached for the walk."""

    LAYERS = 65

    def __init__(self, problem: _Problem) -> None:
        self.problem = problem
        table, rack, weight = problem.table, problem.rack, problem.weight
        self.rack_colours = [
            (rack[0][number] > 0) + (rack[1][number] > 0) + (rack[2][number] > 0) + (rack[3][number] > 0)
            for number in range(15)
        ]
        kept_here = [[0] * 14 for _ in range(4)]
        freed_here = [[0] * 14 for _ in range(4)]
        self.due_at = [0] * 14
        for index, joker in enumerate(problem.table_jokers):
            for key in joker.faces:
                kept_here[key // 13][key % 13 + 1] |= 1 << (2 * index)
                freed_here[key // 13][key % 13 + 1] |= 1 << (2 * index + 1)
            self.due_at[joker.number] |= 3 << (2 * index)
        self.weight = weight
        self.opening = problem.opening
        # A joker kept in hand can be added to the finished table at the end (`_add_jokers`): worth `held`.
        self.held = max(weight[52], 0) if problem.rack_jokers and problem.hold_jokers else 0
        # Leave out the start with every table joker kept (a search without freeing has covered it).
        self.skip_kept = False
        # Moves by layer and what they depend on in the state: one dict (fewer objects for the garbage
        # collector to follow), keyed by the state's bits | layer << LAYER_SHIFT.
        self.cache: dict[int, Moves] = {}
        # What a cell's moves depend on besides the state (see `cell_moves`): the inputs themselves are
        # made on the first miss only (`_inputs`); their id and the pool check's key at once.
        real = [[table[colour][number] + rack[colour][number] for number in range(16)] for colour in range(4)]
        self.real = real
        self.kept_here, self.freed_here = kept_here, freed_here
        self.inputs: list[_CellInputs | None] = [None] * self.LAYERS
        self.input_ids = [0] * self.LAYERS
        self.pool_keys = [0] * self.LAYERS
        self.rack_after = [[0] * 14 for _ in range(4)]
        joker_weight = weight[52]
        gaps = problem.rack_jokers + len(problem.table_jokers)  # jokers that could fill a run's gaps
        for colour in range(4):
            on_table, on_rack, colour_real, after_row = table[colour], rack[colour], real[colour], self.rack_after[colour]
            kept_row, freed_row = kept_here[colour], freed_here[colour]
            for number in range(1, 14):
                # Rack tiles a run open at `number` could still take: those of the numbers it can go on to,
                # with tiles of the colour there (or jokers filling gaps).
                after_row[number] = _rack_ahead(colour_real, on_rack, number, gaps)
            for number in range(13, 0, -1):
                layer = (number - 1) * 5 + colour
                rest = 0
                for other in range(colour + 1, 4):
                    rest |= real[other][number] << (2 * (other - colour - 1))
                code = (
                    on_table[number] | on_rack[number] << 2 | colour_real[number + 1] << 4 | colour_real[number + 2] << 6
                    | after_row[number] << 8 | kept_row[number] << 10 | freed_row[number] << 14 | colour << 18
                )  # fmt: skip
                input_key = (code, weight[colour * 13 + number - 1], joker_weight, number if problem.opening else 0)
                found = _INPUT_IDS.get(input_key)
                if found is None:
                    found = _INPUT_IDS[input_key] = next(_IDS) << _SMALL_BITS
                    if len(_INPUT_IDS) > _CACHE_LIMIT:
                        _INPUT_IDS.clear()
                self.input_ids[layer] = found
                self.pool_keys[layer] = (colour | rest << 2) << (4 * ACC_BITS + 3)
        # What numbered rack tiles are worth, up to each cell (for budgets).
        self.passed: list[int] = []
        total = 0
        for number in range(1, 14):
            for colour in range(4):
                total += max(weight[colour * 13 + number - 1], 0) * rack[colour][number]
                self.passed.append(total)

    def _inputs(self, layer: int) -> _CellInputs:
        """What the moves of cell `layer` depend on besides the state."""
        found = self.inputs[layer]
        if found is None:
            problem = self.problem
            colour, number = layer % 5, layer // 5 + 1
            found = self.inputs[layer] = _CellInputs(
                colour,
                problem.table[colour][number],
                problem.rack[colour][number],
                self.real[colour][number + 1],
                self.real[colour][number + 2],
                self.rack_after[colour][number],
                self.kept_here[colour][number],
                self.freed_here[colour][number],
                problem.weight[colour * 13 + number - 1],
                problem.weight[52],
                number if problem.opening else 0,
                tuple(self.real[other][number] for other in range(colour + 1, 4)),
            )
        return found

    def starts(self) -> dict[int, int]:
        problem = self.problem
        starts: dict[int, int] = {}
        for fates in product((False, True), repeat=len(problem.table_jokers)):
            if (self.skip_kept and not any(fates)) or self._dominated(fates):
                continue
            pend = 0
            freed = 0
            for index, (joker, is_freed) in enumerate(zip(problem.table_jokers, fates, strict=True)):
                if is_freed:
                    if not problem.freeable(joker):
                        break
                    pend |= 1 << (2 * index + 1)
                    freed += 1
                else:
                    pend |= 1 << (2 * index)
            else:
                if freed == 2 and not self._two_replacements():
                    continue
                state = (problem.rack_jokers << JL_SHIFT) | (freed << FL_SHIFT) | (pend << PEND_SHIFT)
                starts[state] = 0
                if freed and self.rack_colours[1] + problem.rack_jokers >= 2:
                    starts[state | HOST] = 0
        return starts

    def _dominated(self, fates: tuple[bool, ...]) -> bool:
        """Is this fate of two table jokers of one number (one kept, one freed) needless, because the other
        way round allows every play it allows? Keeping joker a and freeing b asks for a at a face of a and
        a rack tile at a face of b; when a's faces are among b's and b's faces on the rack among a's, keeping
        b and freeing a is met by the same play. (Of two jokers with the same faces, one fate is kept.)"""
        if len(fates) != 2 or fates[0] == fates[1]:
            return False
        kept, freed = (self.problem.table_jokers[index].faces for index in ((1, 0) if fates[0] else (0, 1)))
        rack = self.problem.rack
        on_rack = frozenset(key for key in freed | kept if rack[key // 13][key % 13 + 1])
        if not (kept <= freed and freed & on_rack <= kept & on_rack):
            return False
        return kept != freed or fates[1]

    def _two_replacements(self) -> bool:
        """Does the rack hold two different tiles to free both table jokers (one each)?"""
        first, second = (joker.faces for joker in self.problem.table_jokers)
        rack = self.problem.rack
        return any(
            key != other or rack[key // 13][key % 13 + 1] >= 2
            for key in first
            if rack[key // 13][key % 13 + 1]
            for other in second
            if rack[other // 13][other % 13 + 1]
        )

    def cell_moves(self, layer: int, state: int) -> Moves:
        """The moves of cell `layer` (number = layer // 5 + 1, colour = layer % 5 < 4) from `state`: the
        cell's moves for the state's run tuple and extra bits, less those whose share of the group pool
        could no longer become legal groups."""
        desc = state >> (layer % 5 * DESC_BITS) & DESC_MASK
        pooled = state >> ACC_SHIFT & POOL_X_MASK
        extra = pooled >> (4 * ACC_BITS)
        small = desc | extra << DESC_BITS
        listed = _UNPOOLED.get(self.input_ids[layer] | small)
        if listed is None:
            listed = _listed_moves(self._inputs(layer), small)
            if len(_UNPOOLED) > _CACHE_LIMIT:
                _UNPOOLED.clear()
            _UNPOOLED[self.input_ids[layer] | small] = listed
        key = (pooled & ACC_MASK) | _JOKERS_OF[extra] << (4 * ACC_BITS) | self.pool_keys[layer]
        allowed = _ALLOWED.get(key)
        if allowed is None:
            allowed = _allowed(key)
        moves = listed[0] if listed[2] & ~allowed == 0 else _filtered(listed, allowed)
        self.cache[desc | pooled << DESC_BITS | layer << LAYER_SHIFT] = moves
        return moves

    def group_moves(self, layer: int, state: int) -> Moves:
        """The moves of the group step `layer` from `state` (none if a joker duty of the number is unmet).
        A move's delta may carry HOST: the next number hosts a freed joker's group."""
        number = layer // 5 + 1
        if state & self.due_at[number] << PEND_SHIFT:
            return ()
        key = state >> ACC_SHIFT | layer << LAYER_SHIFT
        moves = self.cache.get(key)
        if moves is None:
            listed: list[int] = []
            splits = iter(
                _group_moves(
                    state >> ACC_SHIFT & POOL_X_MASK, number in _LONE_GROUPS, self.weight[52], number if self.opening else 0
                )
            )
            for delta, gain, info in zip(splits, splits, splits, strict=True):
                listed += (delta, gain, info)
                after = state + delta
                if (
                    number < 13
                    and after >> FL_SHIFT & 3 > after >> WAIT_SHIFT & 3
                    and self.rack_colours[number + 1] + (after >> JL_SHIFT & 3) >= 2
                ):
                    listed += (delta + HOST, gain, info)  # the next number may host a freed joker's group
            moves = self.cache[key] = tuple(listed)
        return moves

    def final(self, state: int) -> bool:
        """Is this state (after the last layer) a legal table with every duty met?"""
        if state >> FL_SHIFT & 3 or state >> PEND_SHIFT & 15:
            return False
        if self.opening and state >> PTS_SHIFT < self.problem.minimum:
            return False
        return all(_may_end(code) for colour in range(4) for code in _DESCS[state >> colour * DESC_BITS & DESC_MASK])

    def cap(self, state: int) -> int:
        """Opening points count up to the minimum only (so states that reached it merge)."""
        if self.opening and state >> PTS_SHIFT > self.problem.minimum:
            return (state & LOW_MASK) | self.problem.minimum << PTS_SHIFT
        return state

    def search(self, budget: int | None) -> Found | None:
        """The best final state's value, the steps that reach it and the rack jokers left in hand (to add
        to the finished table), or None if no legal table exists: a forward pass, layer by layer.

        `budget` (None: no limit) prunes every state that has already left more than that much weight of
        numbered rack tiles unplaced: the best play survives when it leaves at most `budget` in all."""
        held = self.held
        # Back pointers, per layer: the predecessor and the move's plan, in two dicts of ints (mostly),
        # which the garbage collector need not look at.
        layers: list[tuple[dict[int, int], dict[int, int]]] = []
        current = self.starts()
        for layer in range(self.LAYERS):
            is_cell = layer % 5 < 4
            floor = -(1 << 62) if budget is None or not is_cell else self.passed[layer - layer // 5] - budget
            moves_of = self.cell_moves if is_cell else self.group_moves
            cache = self.cache
            tag = layer << LAYER_SHIFT
            shift = layer % 5 * DESC_BITS if is_cell else 0
            opening = self.opening
            following: dict[int, int] = {}
            back: dict[int, int] = {}
            plans: dict[int, int] = {}
            cached = cache.get
            reached = following.get
            for state, value in current.items():
                if is_cell:
                    moves = cached((state >> shift & DESC_MASK) | (state >> ACC_SHIFT & POOL_X_MASK) << DESC_BITS | tag)
                else:
                    moves = cached(state >> ACC_SHIFT | tag)
                if moves is None:
                    moves = moves_of(layer, state)
                step = iter(moves)
                for delta, gain, info in zip(step, step, step, strict=True):
                    total = value + gain
                    if total < floor:
                        continue
                    after = self.cap(state + delta) if opening else state + delta
                    best = reached(after)
                    if best is None or total > best:
                        following[after] = total
                        back[after] = state
                        plans[after] = info
            layers.append((back, plans))
            current = following
            if held:
                _drop_spent_jokers(current, held)
            if not is_cell:
                _drop_dominated(current)
        best_state = None
        best_value = 0
        for state, value in current.items():
            value += held * (state >> JL_SHIFT & 3)
            if (best_state is None or value > best_value) and self.final(state):
                best_state, best_value = state, value
        if best_state is None:
            return None
        steps: list[_Step] = []
        state = best_state
        for layer in range(self.LAYERS - 1, -1, -1):
            back, plans = layers[layer]
            info = plans[state]
            state = back[state]
            steps.append(_Step(layer % 5 if layer % 5 < 4 else -1, layer // 5 + 1, info))
        steps.reverse()
        return best_value, steps, (best_state >> JL_SHIFT & 3) if held else 0

    def place_all(self) -> Found | None:
        """A play that places every numbered rack tile (rack jokers too, or kept in hand to add at the
        end), found depth first: when the table has room, the first few paths tried reach one, without
        looking at the whole space. None if there is none (then the whole space was looked at).

        With several start states (the fates of table jokers), each is walked in turn for a number of
        steps that doubles every round: a fate that places everything at once is not kept waiting while
        another is proved hopeless (the states found hopeless stay known)."""
        rack = self.problem.rack
        self._wanted = [rack[layer % 5][layer // 5 + 1] if layer % 5 < 4 else -1 for layer in range(self.LAYERS)]
        self._failed: list[set[int]] = [set() for _ in range(self.LAYERS + 1)]  # by layer: states that fail
        # By layer, as `cache`: the moves that place every rack tile of the cell (delta, plan pairs).
        self._full: list[dict[int, tuple[int, ...]]] = [{} for _ in range(self.LAYERS)]
        self._path: list[int] = []
        try:
            starts = list(self.starts())
            self._steps = -1 if len(starts) == 1 else 1000
            while starts:
                for state in list(starts):
                    self._left = self._steps
                    self._path.clear()
                    try:
                        end = self._place(state)
                    except _OutOfSteps:
                        continue
                    if end is not None:
                        return self._placed_all(end)
                    starts.remove(state)
                self._steps *= 2
            return None
        finally:
            del self._failed, self._full, self._path

    def _placed_all(self, end: int) -> Found:
        rack = self.problem.rack
        steps = [_Step(layer % 5 if layer % 5 < 4 else -1, layer // 5 + 1, info) for layer, info in enumerate(self._path)]
        jokers = end >> JL_SHIFT & 3
        value = sum(self.weight[colour * 13 + number - 1] * rack[colour][number] for colour in range(4) for number in range(1, 14))
        return value + self.weight[52] * self.problem.rack_jokers, steps, jokers

    def _place(self, start: int) -> int | None:
        """`place_all` from the start state `start`: the final state of a path that places everything (its
        plans on `_path`), or None (and `start` joins the failed states). Raises `_OutOfSteps` when the
        walk has taken its steps. Depth first, with a stack rather than recursion (a Python call per
        state visited costs more than the rest of the visit)."""
        dead = self._failed
        path = self._path
        last = self.LAYERS
        full = self._full
        left = self._left - 1
        if not left:
            raise _OutOfSteps
        states = [start]
        pending = [self._full_moves(0, start)]
        while pending:
            layer = len(pending) - 1
            state = states[layer]
            following = layer + 1
            failed = dead[following]
            for delta, info in pending[layer]:
                after = state + delta
                if after in failed:
                    continue
                if following == last:
                    if self.final(after):
                        path.append(info)
                        return after
                    continue
                left -= 1
                if not left:
                    raise _OutOfSteps
                path.append(info)
                states.append(after)
                if following % 5 < 4:
                    moves = full[following].get(
                        (after >> (following % 5 * DESC_BITS) & DESC_MASK) | (after >> ACC_SHIFT & POOL_X_MASK) << DESC_BITS
                    )
                else:
                    moves = full[following].get(after >> ACC_SHIFT)
                if moves is None:
                    pending.append(self._full_moves(following, after))
                else:
                    pairs = iter(moves)
                    pending.append(zip(pairs, pairs, strict=True))
                break
            else:
                dead[layer].add(state)
                states.pop()
                pending.pop()
                if path:
                    path.pop()
        return None

    def _full_moves(self, layer: int, state: int) -> Iterator[tuple[int, int]]:
        """The moves of `layer` from `state` that place every rack tile of the cell (delta, plan pairs)."""
        full = self._full[layer]
        if layer % 5 < 4:
            key = (state >> (layer % 5 * DESC_BITS) & DESC_MASK) | (state >> ACC_SHIFT & POOL_X_MASK) << DESC_BITS
            moves = full.get(key)
            if moves is None:
                every = self.cache.get(key | layer << LAYER_SHIFT)
                if every is None:
                    every = self.cell_moves(layer, state)
                wanted = self._wanted[layer]
                step = iter(every)
                moves = full[key] = tuple(
                    item
                    for delta, _, info in zip(step, step, step, strict=True)
                    if _OPTIONS[info][2] == wanted
                    for item in (delta, info)
                )
        else:
            key = state >> ACC_SHIFT
            moves = full.get(key)
            if moves is None:
                step = iter(self.group_moves(layer, state))
                moves = full[key] = tuple(item for delta, _, info in zip(step, step, step, strict=True) for item in (delta, info))
        pairs = iter(moves)
        return zip(pairs, pairs, strict=True)


def _rack_ahead(real: list[int], rack: list[int], number: int, gaps: int) -> int:
    """How many rack tiles (at most 2 counted) a run of a colour open at `number` could still take at later
    numbers: it goes on only through numbers with a tile of the colour (`real`), or a joker in a gap."""
    count = 0
    for later in range(number + 1, 14):
        if not real[later]:
            if not gaps:
                break
            gaps -= 1
        count += rack[later]
        if count >= 2:
            return 2
    return count


class _OutOfSteps(Exception):
    """A depth-first walk of `place_all` has taken its steps for this round."""


def _drop_dominated(layer: dict[int, int]) -> None:
    """Dominance: a state whose runs of one colour are dominated (`_upgrades`) by those of another state,
    identical otherwise and worth as much, cannot lead anywhere better: it is dropped. (Only worth its cost
    on a large layer.)"""
    if len(layer) < 64:
        return
    size = len(_DESCS)
    upgrades = _UPGRADE_STEPS
    known = layer.get
    nothing = -(1 << 62)
    for state, value in list(layer.items()):
        for shift in _COLOUR_SHIFTS:
            desc_id = state >> shift & DESC_MASK
            found = upgrades.get(desc_id)
            if found is None or found[0] != size:
                found = upgrades[desc_id] = (size, tuple(better - desc_id for better in _upgrades(desc_id)))
            for step in found[1]:
                if known(state + (step << shift), nothing) >= value:
                    del layer[state]
                    break
            else:
                continue
            break


_COLOUR_SHIFTS = tuple(colour * DESC_BITS for colour in range(4))
# `_upgrades` as steps of the run tuple id, by run tuple id: (size of the registry of run tuples then, steps).
_UPGRADE_STEPS: dict[int, tuple[int, tuple[int, ...]]] = {}


def _drop_spent_jokers(layer: dict[int, int], held: int) -> None:
    """Dominance: a state that still holds a rack joker can do whatever the same state without it does,
    and add the joker to the table at the end. So a state that spent a joker and gained no more than a
    held joker is worth is dropped; what survives are the jokers that let more tiles onto the table."""
    one = 1 << JL_SHIFT
    spent = [
        state
        for state, value in layer.items()
        if (layer.get(state + one, -(1 << 62)) + held >= value)
        or (state >> JL_SHIFT & 3 == 0 and layer.get(state + 2 * one, -(1 << 62)) + 2 * held >= value)
    ]
    for state in spent:
        del layer[state]


# Moves of a cell depend on a few small numbers only, so they are kept for every later solve too (the caches
# are emptied when they grow past `_CACHE_LIMIT` entries, to bound the memory of a long-running process).
# Their keys are ints and their values tuples of ints, which the garbage collector soon stops tracking (a
# full collection that walks big caches of tracked objects costs tens of milliseconds).
_CACHE_LIMIT = 300_000


class _CellInputs(NamedTuple):
    """What a cell's moves depend on besides the state."""

    colour: int
    on_table: int
    on_rack: int
    real1: int  # numbered tiles of the colour's next cell
    real2: int  # ... and the one after
    rack_after: int  # rack tiles of the colour at later numbers (at most 2 counted)
    kept_mask: int  # kept table jokers that may stand here
    freed_mask: int  # freed table jokers whose replacement this face is
    face_weight: int
    joker_weight: int
    points: int  # the number, when opening points count (else 0)
    rest: tuple[int, ...]  # numbered tiles the later colours of the number could add to its group pool


_NO_CELL = _CellInputs(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ())
_SMALL_BITS = DESC_BITS + X_BITS  # a state's run tuple of the cell's colour and its extra bits
_INPUT_IDS: dict[tuple[int, int, int, int], int] = {}  # a cell's inputs (but `rest`), packed -> an id past `small`
# Ids for cached things, never reused (so that a cache emptied while a search runs cannot mix them up).
_IDS = itertools.count(1)


# Jokers that could still join the number's groups, by a state's extra bits: rack jokers and freed jokers
# left, kept table jokers still to place.
_JOKERS_OF = tuple((extra & 3) + (extra >> 2 & 3) + bin(extra >> 4 & 0b0101).count("1") for extra in range(1 << X_BITS))

# A cell's moves before the pool check, by input id | small: (moves, each move's share of the group pool,
# the shares used as a bit mask, an id of these moves).
_Listed = tuple[Moves, tuple[int, ...], int, int]
_UNPOOLED: dict[int, _Listed] = {}
_LISTED: dict[tuple[int, ...], _Listed] = {}
# The shares of the group pool a cell may add (bit mask), by (pool so far | jokers | `_pool_key`).
_ALLOWED: dict[int, int] = {}
# The moves of a listing whose share is allowed, by listing id << 4 | allowed mask.
_FILTERED: dict[int, Moves] = {}


def _listed_moves(inputs: _CellInputs, small: int) -> _Listed:
    """The moves of a cell before the pool check, shared by every cell with the same options (the options
    tuples are cached for good, so their ids are stable keys)."""
    desc_id = small & DESC_MASK
    extra = small >> DESC_BITS
    jokers_left = extra & 3
    freed_left = extra >> 2 & 3
    pend = extra >> 4 & 15
    host = extra >> 8 & 1
    waiting = extra >> 9 & 3
    kept_pending = pend & inputs.kept_mask
    options = _cell_options(
        _DESCS[desc_id],
        inputs.on_table,
        inputs.on_rack,
        bin(kept_pending).count("1"),
        jokers_left,
        freed_left,
        inputs.real1,
        inputs.real2,
        bin(pend & 0b0101).count("1"),
        min(2, inputs.rack_after + jokers_left),
        freed_left > waiting and not host,
        bool(host),
    )
    template = _template(options, desc_id, kept_pending, pend & inputs.freed_mask)
    key = (template[3], inputs.colour, inputs.face_weight, inputs.joker_weight, inputs.points)
    listed = _LISTED.get(key)
    if listed is None:
        listed = (_moves(template[0], inputs), template[1], template[2], next(_IDS))
        if len(_LISTED) > _CACHE_LIMIT:
            _LISTED.clear()
        _LISTED[key] = listed
    return listed


# A cell's moves whatever its colour and weights: six ints per move (run tuple id change, pool share bits,
# change of the extra bits, rack tiles placed, rack jokers placed, option id), flat; each move's pool share
# (tiles), the shares used as a bit mask; an id.
_Template = tuple[tuple[int, ...], tuple[int, ...], int, int]
_TEMPLATES: dict[tuple[int, int, int, int], _Template] = {}


def _template(options: tuple[CellOption, ...], desc_id: int, kept_pending: int, freed_pending: int) -> _Template:
    """The moves of `options` from a run tuple `desc_id` with these pending joker duties at the cell (the
    kept jokers that may stand here, the freed jokers whose replacement this face is): one per way to
    meet the duties."""
    key = (id(options), desc_id, kept_pending, freed_pending)
    found = _TEMPLATES.get(key)
    if found is not None:
        return found
    moves: list[int] = []
    shares: list[int] = []
    for option in options:
        number = _option_id(option)
        desc, (table_pool, rack_pool, kept_pool), placed, kept, rack_jokers, freed, waiting = option[:7]
        extra = -(rack_jokers << JL_SHIFT) - (freed << FL_SHIFT) + (waiting << WAIT_SHIFT)
        replacements = min(placed, bin(freed_pending).count("1"))
        for kept_clear in _subsets(kept_pending, kept):
            for freed_clear in _subsets(freed_pending, replacements):
                moves += (
                    _desc_id(desc) - desc_id, table_pool | rack_pool << 2 | kept_pool << 4,
                    extra - ((kept_clear | freed_clear) << PEND_SHIFT), placed, rack_jokers, number,
                )  # fmt: skip
                shares.append(table_pool + rack_pool + kept_pool)
    distinct = 0
    for share in shares:
        distinct |= 1 << share
    found = (tuple(moves), tuple(shares), distinct, next(_IDS))
    if len(_TEMPLATES) > _CACHE_LIMIT:
        _TEMPLATES.clear()
    _TEMPLATES[key] = found
    return found


def _moves(template: tuple[int, ...], inputs: _CellInputs) -> Moves:
    """The transitions of a cell (state delta, value gain, option id; flat)."""
    shift = inputs.colour * DESC_BITS
    pool_shift = ACC_SHIFT + inputs.colour * ACC_BITS
    face, joker, points = inputs.face_weight, inputs.joker_weight, inputs.points
    step = iter(template)
    return tuple(
        item
        for desc, pool, extra, placed, jokers, number in zip(step, step, step, step, step, step, strict=True)
        for item in (
            (desc << shift) + (pool << pool_shift) + extra + ((points * (placed + jokers)) << PTS_SHIFT),
            placed * face + jokers * joker,
            number,
        )
    )


# Cell options by id (the options are cached for good by `_raw_options`, so `id` is a stable key).
_OPTIONS: list[CellOption] = []
_OPTION_IDS: dict[int, int] = {}


def _option_id(option: CellOption) -> int:
    number = _OPTION_IDS.get(id(option))
    if number is None:
        number = _OPTION_IDS[id(option)] = len(_OPTIONS)
        _OPTIONS.append(option)
    return number


def _allowed(key: int) -> int:
    """The shares (bit mask of 0-3 tiles) a cell may add to its number's group pool so that the pool can
    still become legal groups (see `_pool_possible`). `key`: pool so far | jokers | `_pool_key`."""
    pool = key & ACC_MASK
    jokers = key >> (4 * ACC_BITS) & 7
    colour = key >> (4 * ACC_BITS + 3) & 3
    rest_bits = key >> (4 * ACC_BITS + 5)
    rest = tuple(rest_bits >> (2 * index) & 3 for index in range(3 - colour))
    counts = _pool_counts(pool, colour)
    allowed = 0
    for share in range(4):
        if _pool_possible((*counts, share), rest, jokers):
            allowed |= 1 << share
    if len(_ALLOWED) > _CACHE_LIMIT:
        _ALLOWED.clear()
    _ALLOWED[key] = allowed
    return allowed


def _filtered(listed: _Listed, allowed: int) -> Moves:
    """The moves of a listing whose share of the group pool is allowed."""
    key = listed[3] << 4 | allowed
    found = _FILTERED.get(key)
    if found is None:
        step = iter(listed[0])
        found = tuple(
            item
            for delta, gain, info, share in zip(step, step, step, listed[1], strict=True)
            if allowed >> share & 1
            for item in (delta, gain, info)
        )
        if len(_FILTERED) > _CACHE_LIMIT:
            _FILTERED.clear()
        _FILTERED[key] = found
    return found


@_memo
def _pool_counts(pool: int, colour: int) -> tuple[int, ...]:
    """Tiles in the group pool per colour before `colour`."""
    return tuple(sum(pool >> (ACC_BITS * other + 2 * part) & 3 for part in range(3)) for other in range(colour))


@_memo
def _pool_possible(counts: tuple[int, ...], rest: tuple[int, ...], jokers: int) -> bool:
    """Can a number's group pool, with `counts` tiles per colour so far, still split into groups, when the
    colours after can add at most `rest` tiles each and there are at most `jokers` jokers? (A quick
    necessary condition; the group step checks exactly.)"""
    total = sum(counts)
    if not total:
        return True
    for groups in range(max(max(counts), 1), 4):
        more = sum(min(most, groups) for most in rest) + jokers
        if total <= 4 * groups and total + more >= 3 * groups:
            return True
    return False


@_memo
def _group_moves(bits: int, lone_ok: bool, joker_weight: int, points: int) -> Moves:
    """The transitions of a group step from `state`: every way to add jokers to the pool that splits (a
    number that hosts a freed joker must take one). `bits`: the state's pool and extra bits."""
    state = bits << ACC_SHIFT
    acc = state >> ACC_SHIFT & ACC_MASK
    pool = tuple((acc >> (6 * colour) & 3, acc >> (6 * colour + 2) & 3, acc >> (6 * colour + 4) & 3) for colour in range(4))
    jokers_left = state >> JL_SHIFT & 3
    freed_left = state >> FL_SHIFT & 3
    host = state & HOST
    moves: list[int] = []
    for jokers in range(jokers_left + 1):
        for freed in range(1, freed_left + 1) if host else (0,):
            split = _group_split(pool, jokers, freed, lone_ok)
            if split is None:
                continue
            delta = -(acc << ACC_SHIFT) - (jokers << JL_SHIFT) - (freed << FL_SHIFT) - host
            if points:
                delta += (points * jokers) << PTS_SHIFT
            moves += (delta, jokers * joker_weight, _split_id(split))
    return tuple(moves)


# Group splits by id (a move's plan is an int: cell option id, or split id at a group step).
_SPLITS: list[tuple[Group, ...]] = []
_SPLIT_IDS: dict[tuple[Group, ...], int] = {}


def _split_id(split: tuple[Group, ...]) -> int:
    found = _SPLIT_IDS.get(split)
    if found is None:
        found = _SPLIT_IDS[split] = len(_SPLITS)
        _SPLITS.append(split)
    return found


# --- building the table from the steps ------------------------------------------------------------------------


_FACES = tuple(Tile.from_key(key) for key in range(52))
_ALL_FACES = (*_FACES, JOKER)


def _build(steps: list[_Step]) -> tuple[tuple[Faces, ...], Faces]:
    """The new table (runs by colour and start, then groups by number) and the rack tiles placed."""
    open_runs: list[list[tuple[int, list[Tile]]]] = [[] for _ in range(4)]
    runs: list[tuple[int, int, list[Tile]]] = []  # (colour, start, tiles)
    groups: list[Faces] = []
    placed: list[Tile] = []
    for step in steps:
        if step.colour < 0:
            split = _SPLITS[step.info]
            for group in split:
                groups.append(_group_faces(group, step.number))
                placed.extend([JOKER] * sum(kind == W for _, kind in group))
            continue
        _, _, option_placed, _, option_jokers, _, _, extend, starts, order = _OPTIONS[step.info]
        if not extend and not starts and not option_placed:
            continue
        face = _FACES[step.colour * 13 + step.number - 1]
        sources: list[tuple[int, list[Tile]]] = []
        for (first, run), item in zip(open_runs[step.colour], extend, strict=True):
            if item is None:
                runs.append((step.colour, first, run))
            else:
                run.append(face if item in (T, R) else JOKER)
            sources.append((first, run))
        for item in starts:
            sources.append((step.number, [face if item in (T, R) else JOKER]))
        open_runs[step.colour] = [sources[source] for source in order]
        placed.extend([face] * option_placed + [JOKER] * option_jokers)
    for colour, colour_runs in enumerate(open_runs):
        runs.extend((colour, first, run) for first, run in colour_runs)
    runs.sort(key=lambda run: run[:2])
    table = tuple(tuple(run) for _, _, run in runs) + tuple(groups)
    return table, tuple(sorted(placed, key=lambda tile: tile.key))


def _add_jokers(table: tuple[Faces, ...], jokers: int) -> tuple[Faces, ...] | None:
    """The table with `jokers` more jokers added to its sets (a run's end, else its start; a group of 3),
    or None when they do not fit."""
    sets = [tuple(faces) for faces in table]
    for _ in range(jokers):
        for index, faces in enumerate(sets):
            kind = read_meld(faces).kind
            for candidate in ((*faces, JOKER), (JOKER, *faces)):
                grown = try_read_meld(candidate)
                if grown is not None and grown.kind == kind:  # what the other tiles stand for is unchanged
                    sets[index] = candidate
                    break
            else:
                continue
            break
        else:
            return None
    return tuple(sets)


@_memo
def _group_faces(group: Group, number: int) -> Faces:
    real = sorted(colour for colour, kind in group if kind in (T, R))
    faces = [_FACES[colour * 13 + number - 1] for colour in real]
    jokers = len(group) - len(faces)
    if len(faces) == 1 and number == 1:
        return (JOKER, faces[0], JOKER)  # `r1 J J` would read as the run 1-2-3
    if len(faces) == 1 and number == 2:
        return (JOKER, JOKER, faces[0])  # `r2 J J` and `J r2 J` would read as runs
    return tuple(faces) + (JOKER,) * jokers


# --- the public functions ---------------------------------------------------------------------------------


# Colour index by the colour's id (the members of an enum are singletons): cheaper than `Tile.key`, which
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
) -> Solution | None:
    """The best play of a player who has opened, or None when no play has a positive score (with the
    default weights: when no rack tile can be placed).

    `table`: the sets on the table (legal, in table order: it says what each joker stands for).
    `weights`: what placing one tile of a face is worth (faces not given: `default_weight`).
    `keep`: rack tiles that stay on the rack whatever happens (each listed tile once)."""
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
    problem = _Problem(grid, rack_grid, table_jokers, rack_jokers, _weights(weights), opening=False, minimum=0)
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


def _budgets(problem: _Problem, first: int = 0) -> Iterator[int | None]:
    """Budgets for `_Walk.search`, tightest first: leave `first` tiles' worth (0: nothing), then up to 1, 2,
    4, ... tiles' worth; finally no limit. A search whose best play leaves at most its budget unplaced has
    found the best play."""
    weights = [max(problem.weight[52], 0)] * problem.rack_jokers
    for colour in range(4):
        for number in range(1, 14):
            weights += [problem.weight[colour * 13 + number - 1]] * problem.rack[colour][number]
    if not problem.numbered_nonnegative():
        yield None
        return
    weights.sort(reverse=True)
    count = first
    while count < len(weights):
        yield sum(weights[:count])
        count = 2 * count if count else 1
    yield None


def _best(problem: _Problem, first: int = 0, walk: _Walk | None = None, known: int | None = None) -> Found | None:
    """The best play, by searches with growing budgets (from leaving `first` tiles' worth). `known`: the
    score of a play known to exist (the best play leaves no more than it does: the last budget); None is
    then also the answer when no play the walk looks at scores as much as `known`."""
    reachable = problem.reachable()
    walk = walk or _Walk(problem)
    numbered = sorted(
        problem.weight[colour * 13 + number - 1]
        for colour in range(4)
        for number in range(1, 14)
        for _ in range(problem.rack[colour][number])
    )
    found: Found | None = None
    for round, budget in enumerate(_budgets(problem, first)):
        # With a play known, one tight search, then the last (a search costs less than its budget would
        # suggest: beyond a tile or two, what it looks at is mostly the arrangements of the table tiles).
        if known is not None and (round or budget is None or budget >= reachable - known):
            budget = reachable - known
        found = walk.search(budget)
        if budget is None or (known is not None and budget >= reachable - known):
            return found
        if found is not None:
            if _conclusive(problem, numbered, found[0], budget, reachable):
                return found
            known = found[0] if known is None else max(known, found[0])
    return found


def _conclusive(problem: _Problem, numbered: list[int], value: int, budget: int, reachable: int) -> bool:
    """Is the best play of a search with this budget the best play? Every play the search left out leaves
    more than `budget` of numbered rack tiles (`numbered`: their weights, ascending), so at least as many
    tiles as it takes the heaviest to pass the budget, and at least the lightest that many weigh. (With a
    joker weight below 0 a play can be left out for its jokers: then only `budget` itself counts.)"""
    if problem.weight[52] < 0 or not problem.numbered_nonnegative():
        return value >= reachable - budget
    total = 0
    for count, weight in enumerate(reversed(numbered), start=1):
        total += weight
        if total > budget:
            return value >= reachable - max(budget + 1, sum(numbered[:count]))
    return True  # the search left nothing out


class _Play(NamedTuple):
    score: int
    table: tuple[Faces, ...]
    placed: Faces


def _finish(problem: _Problem, result: Found | None) -> _Play | None:
    """The play a search found, with the jokers it kept in hand added to the table (if they do not fit
    anywhere, the search is redone without that shortcut)."""
    if result is None:
        return None
    score, steps, held = result
    table, placed = _build(steps)
    if held and problem.weight[52] > 0:
        added = _add_jokers(table, held)
        if added is None:
            return _finish(problem, _best(replace(problem, hold_jokers=False)))
        table = added
        placed = tuple(sorted((*placed, *[JOKER] * held), key=lambda tile: tile.key))
    return _Play(score, table, placed)


def _solve(problem: _Problem) -> _Play | None:
    """The best play.

    1. Can every rack tile go? A depth-first walk answers quickly when the table has room (the common case
       on a big table, where the full search is slowest).
    2. Otherwise, jokers make the search larger, so when there are any to place or free, a search without
       them (rack jokers only added at the end, table jokers kept) gives a first play; the full search
       then only looks at plays that beat it (and is skipped when that play places every tile)."""
    reachable = problem.reachable()
    skip = 0
    walk = _Walk(problem)
    if not problem.opening and problem.numbered_nonnegative() and problem.weight[52] >= 0:
        everything = _finish(problem, walk.place_all())
        if everything is not None and everything.score >= reachable:
            return everything
        skip = 1  # no play leaves nothing
    if not any(problem.freeable(joker) for joker in problem.table_jokers):
        return _finish(problem, _best(problem, skip, walk))
    simple = replace(problem, rack_jokers=0, allow_freed=False)
    first = _finish(simple, _best(simple))
    if first is not None and problem.rack_jokers and problem.weight[52] > 0:
        added = _add_jokers(first.table, problem.rack_jokers)
        if added is not None:
            jokers = (JOKER,) * problem.rack_jokers
            placed = tuple(sorted((*first.placed, *jokers), key=lambda tile: tile.key))
            first = _Play(first.score + problem.weight[52] * problem.rack_jokers, added, placed)
    if first is not None and first.score >= reachable:
        return first
    # The full search, with growing budgets up to what the first play leaves (nothing better leaves more).
    # Without rack jokers the first play is the best that keeps every table joker: the full search need
    # only look at plays that free one.
    known = None if first is None or not problem.numbered_nonnegative() else first.score
    walk.skip_kept = first is not None and not problem.rack_jokers
    full = _finish(problem, _best(problem, skip, walk, known))
    if full is None or (first is not None and first.score >= full.score):
        return first
    return full


def _solution(problem: _Problem) -> Solution | None:
    found = _solve(problem)
    if found is None or not found.placed or found.score <= 0:
        return None
    return Solution(found.placed, found.table, found.score, sum(rack_value(tile) for tile in found.placed))
