"""One cell of the search (a face: number and colour): every way to use its tiles, given the colour's open
runs; the look-ahead that drops runs which could never become legal."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from apps.engine.rearrange.solver.model import (
    _RACK_ITEMS,
    F,
    R,
    T,
    V,
    W,
    _code,
    _designated,
    _extend,
    _freed,
    _length,
    _may_end,
    _memo,
    _rack,
)

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
    designate: int,
    host: bool,
) -> tuple[CellOption, ...]:
    """Every way (up to interchangeable choices) to use the tiles of one cell, given the colour's open runs
    `desc`: `table` tiles (all used), up to `rack` rack tiles, up to `kept_max` kept jokers, and of the
    `jokers` rack jokers and `freed` freed jokers still to place, any number in runs here (freed ones
    only in designated runs). `designate`: how many runs may be designated here. `host`: the number
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
    designate: int,
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


def _extensions(desc: tuple[int, ...], items: dict[int, int], designate: int) -> Iterator[tuple[int | None, ...]]:
    """For each open run: the item kind that extends it, or None (it ends: it must be legal). A freed
    joker extends a designated run, or a short plain run that becomes designated with it."""
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


def _starts(left: dict[int, int], designate: int, host: bool) -> Iterator[tuple[tuple[int, ...], tuple[int, int, int]]]:
    """The items left after extending: which start new runs and which go to the number's group pool.
    Jokers (rack or freed) always start runs here (a freed one only a designated run); groups get their
    jokers at the number's end."""
    if left[F] > designate:
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
    designate: int,
) -> Iterator[CellOption]:
    """The cell options for one way of extending and starting runs: with no run designated here, or with
    up to `designate` runs designated. A run is designated at its first rack tile or freed joker, whether
    it starts here or is a plain run of 1 or 2 table tiles so far (without loss of generality: a longer
    lead of table tiles could be split off as a run of its own). A freed joker here must be in one. Of
    runs started by the same kind of item, the first ones are designated (they are interchangeable)."""
    if any(pooled > 3 for pooled in pool):
        return
    forced = [index for index, item in enumerate(extend) if item == F and not _designated(desc[index])]
    forced += [len(desc) + index for index, item in enumerate(starts) if item == F]
    if len(forced) > designate:
        return
    if designate == len(forced):  # nothing more may be designated (often nothing at all)
        option = _option(desc, extend, starts, tuple(forced), pool, placed, kept, rack_jokers, freed_used, freed)
        if option is not None:
            yield option
        return
    optional = [index for index, item in enumerate(extend) if item in _SPECIAL and not _designated(desc[index])]
    optional += [len(desc) + index for index, item in enumerate(starts) if item in _SPECIAL and item != F]
    for more in range(min(designate - len(forced), len(optional)) + 1):
        for extra in combinations(optional, more):
            chosen = (*forced, *extra)
            if not _first_of_kind(chosen, starts, len(desc)):
                continue
            option = _option(desc, extend, starts, chosen, pool, placed, kept, rack_jokers, freed_used, freed)
            if option is not None:
                yield option


def _first_of_kind(chosen: tuple[int, ...], starts: tuple[int, ...], first: int) -> bool:
    """Are the chosen new runs (indices from `first` on) the first of those started by their kind of item?
    (Such runs are interchangeable: designating the first ones stands for every choice.)

    >>> R, F = 1, 4
    >>> _first_of_kind((2, 3), (R, R, F), 2), _first_of_kind((3,), (R, R, F), 2), _first_of_kind((0, 4), (R, R, F), 2)
    (True, False, True)
    """
    return all(
        index == first or starts[index - first - 1] != starts[index - first] or index - 1 in chosen
        for index in chosen
        if index >= first
    )


def _option(
    desc: tuple[int, ...],
    extend: tuple[int | None, ...],
    starts: tuple[int, ...],
    chosen: tuple[int, ...],
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
        if index in chosen:
            waiting += item != F
            runs.append((_code(code + 1, True, int(item in _RACK_ITEMS), int(item == F)), index))
            continue
        if item == F and _designated(code) and not _freed(code):
            waiting -= 1
        runs.append((_extend(code, item), index))
    for index, item in enumerate(starts):
        if len(desc) + index in chosen:
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


@_memo
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
