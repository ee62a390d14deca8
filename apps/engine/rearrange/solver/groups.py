"""The group step of a number: splitting its group pool (plus jokers) into legal groups, and its moves."""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product

from apps.engine.rearrange.solver.model import (
    _RACK_ITEMS,
    ACC_MASK,
    ACC_SHIFT,
    FL_SHIFT,
    HOST,
    JL_SHIFT,
    PTS_SHIFT,
    F,
    Moves,
    R,
    T,
    V,
    W,
    _memo,
)

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
