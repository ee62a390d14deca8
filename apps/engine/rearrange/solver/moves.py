"""A cell's moves (state delta, value gain, plan) built from its options, and the caches that keep them for
the life of the process."""

from __future__ import annotations

import itertools
from typing import NamedTuple

from apps.engine.rearrange.solver.cells import CellOption, _cell_options
from apps.engine.rearrange.solver.model import (
    _DESCS,
    ACC_BITS,
    ACC_MASK,
    ACC_SHIFT,
    DESC_BITS,
    DESC_MASK,
    FL_SHIFT,
    JL_SHIFT,
    PEND_SHIFT,
    PTS_SHIFT,
    WAIT_SHIFT,
    X_BITS,
    Moves,
    _desc_id,
    _memo,
    _subsets,
)

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
    last_mask: int  # duties of table jokers that this face is the last cell of their number to meet
    face_weight: int
    joker_weight: int
    points: int  # the number, when opening points count (else 0)


_SMALL_BITS = DESC_BITS + X_BITS  # a state's run tuple of the cell's colour and its extra bits
_NO_CELL = _CellInputs(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)  # what a group step has instead
# Ids for cached things, never reused (so that a cache emptied while a search runs cannot mix them up).
_IDS = itertools.count(1)
# A cell by its inputs packed (the code: every field but the weights and points; the face weight, the joker
# weight, the points): the id of the inputs, the id of the code (both past `small`), the inputs.
_Cell = tuple[int, int, _CellInputs]
_CELLS: dict[tuple[int, int, int, int], _Cell] = {}
_CODE_IDS: dict[int, int] = {}


def _new_cell(code: int, face_weight: int, joker_weight: int, points: int, inputs: _CellInputs) -> _Cell:
    """The entry of `_CELLS` for a cell not seen before (its code may have been, with other weights)."""
    code_id = _CODE_IDS.get(code)
    if code_id is None:
        if len(_CODE_IDS) > _CACHE_LIMIT:
            _CODE_IDS.clear()
        code_id = _CODE_IDS[code] = next(_IDS) << _SMALL_BITS
    if len(_CELLS) > _CACHE_LIMIT:
        _CELLS.clear()
    found = _CELLS[code, face_weight, joker_weight, points] = (next(_IDS) << _SMALL_BITS, code_id, inputs)
    return found


# Jokers that could still join the number's groups, by a state's extra bits: rack jokers and freed jokers
# left, kept table jokers still to place.
_JOKERS_OF = tuple((extra & 3) + (extra >> 2 & 3) + bin(extra >> 4 & 0b0101).count("1") for extra in range(1 << X_BITS))

# A cell's moves before the pool check, by input id | small: (moves, each move's share of the group pool,
# the shares used as a bit mask, an id of these moves).
_Listed = tuple[Moves, tuple[int, ...], int, int]
_UNPOOLED: dict[int, _Listed] = {}
_LISTED: dict[tuple[int, ...], _Listed] = {}
# A cell's template (see `_template`) by the id of its inputs but the weights (`_CODE_IDS`) | small.
_TEMPLATE_OF: dict[int, _Template] = {}
# The shares of the group pool a cell may add (bit mask), by (pool so far | jokers | `_pool_key`).
_ALLOWED: dict[int, int] = {}
# The moves of a listing whose share is allowed, by listing id << 4 | allowed mask.
_FILTERED: dict[int, Moves] = {}


def _listed_moves(inputs: _CellInputs, small: int, code_key: int) -> _Listed:
    """The moves of a cell before the pool check, shared by every cell with the same options (the options
    tuples are cached for good, so their ids are stable keys). `code_key`: the cell's inputs but its
    weights and number (`_CODE_IDS`) | `small`, which decide its template."""
    template = _TEMPLATE_OF.get(code_key)
    if template is None:
        template = _cell_template(inputs, small)
        if len(_TEMPLATE_OF) > _CACHE_LIMIT:
            _TEMPLATE_OF.clear()
        _TEMPLATE_OF[code_key] = template
    key = (template[3], inputs.colour, inputs.face_weight, inputs.joker_weight, inputs.points)
    listed = _LISTED.get(key)
    if listed is None:
        listed = (_moves(template[0], inputs), template[1], template[2], next(_IDS))
        if len(_LISTED) > _CACHE_LIMIT:
            _LISTED.clear()
        _LISTED[key] = listed
    return listed


def _cell_template(inputs: _CellInputs, small: int) -> _Template:
    """The moves of a cell whatever its weights, from a state's run tuple and extra bits (`small`)."""
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
        kept_pending.bit_count(),
        jokers_left,
        freed_left,
        inputs.real1,
        inputs.real2,
        (pend & 0b0101).bit_count(),
        min(2, inputs.rack_after + jokers_left),
        max(0, freed_left - waiting - host),
        bool(host),
    )
    return _template(options, desc_id, kept_pending, pend & inputs.freed_mask, pend & inputs.last_mask)


# A cell's moves whatever its colour and weights: six ints per move (run tuple id change, pool share bits,
# change of the extra bits, rack tiles placed, rack jokers placed, option id), flat; each move's pool share
# (tiles), the shares used as a bit mask; an id.
_Template = tuple[tuple[int, ...], tuple[int, ...], int, int]
_TEMPLATES: dict[tuple[int, int, int, int, int], _Template] = {}


def _template(options: tuple[CellOption, ...], desc_id: int, kept_pending: int, freed_pending: int, last: int) -> _Template:
    """The moves of `options` from a run tuple `desc_id` with these pending joker duties at the cell (the
    kept jokers that may stand here, the freed jokers whose replacement this face is): one per way to
    meet the duties, less those that leave a duty of `last` unmet (this is its number's last cell that
    could meet it: the group step would find it unmet)."""
    key = (id(options), desc_id, kept_pending, freed_pending, last)
    found = _TEMPLATES.get(key)
    if found is not None:
        return found
    moves: list[int] = []
    shares: list[int] = []
    for option in options:
        number = _option_id(option)
        desc, (table_pool, rack_pool, kept_pool), placed, kept, rack_jokers, freed, waiting = option[:7]
        extra = -(rack_jokers << JL_SHIFT) - (freed << FL_SHIFT) + (waiting << WAIT_SHIFT)
        replacements = min(placed, freed_pending.bit_count())
        for kept_clear in _subsets(kept_pending, kept):
            for freed_clear in _subsets(freed_pending, replacements):
                if last & ~(kept_clear | freed_clear):
                    continue
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
    flat: list[int] = []
    add = flat.extend
    for at in range(0, len(template), 6):  # a loop: most cells have 1-4 moves, too few for slices to pay
        desc, pool, extra, placed, jokers, number = template[at : at + 6]
        add((
            (desc << shift) + (pool << pool_shift) + extra + ((points * (placed + jokers)) << PTS_SHIFT),
            placed * face + jokers * joker,
            number,
        ))  # fmt: skip
    return tuple(flat)


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
        moves = listed[0]
        flat: list[int] = []
        for at, share in enumerate(listed[1]):
            if allowed >> share & 1:
                flat += moves[3 * at : 3 * at + 3]
        found = tuple(flat)
        if len(_FILTERED) > _CACHE_LIMIT:
            _FILTERED.clear()
        _FILTERED[key] = found
    return found


# The moves of a cell that place all its rack tiles (for `_Walk.place_all`), by id(the cell's moves) << 2 |
# its rack tiles: (those moves, the moves that place them all). The entry holds the moves, so no other tuple
# can take their id while it lasts.
_PLACING_ALL: dict[int, tuple[Moves, Moves]] = {}


def _placing_all(moves: Moves, wanted: int) -> Moves:
    """The moves of `moves` whose option places `wanted` rack tiles (all of the cell's), in their order."""
    key = id(moves) << 2 | wanted
    found = _PLACING_ALL.get(key)
    if found is None:
        options = _OPTIONS
        flat: list[int] = []
        for at in range(2, len(moves), 3):
            if options[moves[at]][2] == wanted:
                flat += moves[at - 2 : at + 1]
        found = (moves, tuple(flat))
        if len(_PLACING_ALL) > _CACHE_LIMIT:
            _PLACING_ALL.clear()
        _PLACING_ALL[key] = found
    return found[1]


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
