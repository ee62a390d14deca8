"""The search over one problem: its states, layer by layer (52 cells and 13 group steps), the full forward
pass with budgets, the depth-first walk for a play that places everything, and dominance between states."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from apps.engine.rearrange.solver.groups import _LONE_GROUPS, _group_moves
from apps.engine.rearrange.solver.model import (
    _DESCS,
    ACC_BITS,
    ACC_MASK,
    ACC_SHIFT,
    DESC_BITS,
    DESC_MASK,
    FL_SHIFT,
    HOST,
    JL_SHIFT,
    KEEP,
    LOW_MASK,
    PEND_SHIFT,
    POOL_X_MASK,
    PTS_SHIFT,
    TAG,
    WAIT_SHIFT,
    X_MASK,
    X_SHIFT,
    Moves,
    _may_end,
    _upgrades,
)
from apps.engine.rearrange.solver.moves import (
    _ALLOWED,
    _CACHE_LIMIT,
    _CELLS,
    _JOKERS_OF,
    _NO_CELL,
    _UNPOOLED,
    _allowed,
    _CellInputs,
    _filtered,
    _listed_moves,
    _new_cell,
    _placing_all,
)


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
    numbered: tuple[int, bool] | None = field(default=None, init=False, repr=False, compare=False)  # `_numbered`

    def freeable(self, joker: _TableJoker) -> bool:
        """Can this table joker be freed: is a tile it stands for on the rack?"""
        return self.allow_freed and any(self.rack[key // 13][key % 13 + 1] for key in joker.faces)

    def numbered_nonnegative(self) -> bool:
        """Are the weights of the rack's numbered tiles all at least 0? (Budgets need it; a joker's weight
        below 0 is fine: it only makes placing the joker cost.)"""
        return self._numbered()[1]

    def reachable(self) -> int:
        """The score of placing every rack tile (an upper bound; weights below 0 count 0)."""
        return max(self.weight[52], 0) * self.rack_jokers + self._numbered()[0]

    def _numbered(self) -> tuple[int, bool]:
        """What the numbered rack tiles are worth (weights below 0 count 0), and whether no weight of theirs
        is below 0: worked out once (the strategy asks again and again)."""
        found = self.numbered
        if found is None:
            worth, nonnegative = 0, True
            weight = self.weight
            for base, row in zip((-1, 12, 25, 38), self.rack, strict=True):
                for number in range(1, 14):
                    count = row[number]
                    if count:
                        face = weight[base + number]
                        if face < 0:
                            nonnegative = False
                        else:
                            worth += face * count
            found = self.numbered = (worth, nonnegative)
        return found


# (value, the plan of every layer in order: a cell option's id or a group split's id, rack jokers kept in hand)
Found = tuple[int, list[int], int]


# By layer: where the cell's colour's run tuple sits in a state. By extra bits: the jokers that could still
# join the number's groups (`_JOKERS_OF`), where the pool check's key holds them.
_DESC_SHIFT = tuple(layer % 5 * DESC_BITS for layer in range(65))
_POOL_JOKERS = tuple(jokers << (4 * ACC_BITS) for jokers in _JOKERS_OF)

_NOTHING = -(1 << 62)  # below any value (the floor of a search without budget)

# Hot loops: those that run once per state visited walk a flat `Moves` tuple by `zip(step, step, step)`
# without `strict=True`: the keyword costs about 0.2 us a call (0.56 against 0.33 us for a one-move tuple),
# a sizeable part of what a state costs, and a `Moves` tuple always holds whole triples.

# Steps (states visited) per start of the last round of the depth-first walk for a play that places everything
# (its rounds double from 1,000 steps); a walk that has not settled by then gives up.
PLACE_ALL_STEPS = 16_000


class _Walk:
    """The search space of one problem: its start states, the moves of every layer (52 cells and 13
    group steps, in order) from any state, and which final states are legal tables. Moves are generated
    once per (layer, what the state's move depends on) and cached for the walk."""

    LAYERS = 65

    def __init__(self, problem: _Problem) -> None:
        self.problem = problem
        table, rack, weight = problem.table, problem.rack, problem.weight
        self.rack_colours = [(a > 0) + (b > 0) + (c > 0) + (d > 0) for a, b, c, d in zip(*rack, strict=True)]
        kept_here = [[0] * 14 for _ in range(4)]
        freed_here = [[0] * 14 for _ in range(4)]
        last_here = [[0] * 14 for _ in range(4)]  # duties whose number's last chance is here
        self.due_at = [0] * 14
        for index, joker in enumerate(problem.table_jokers):
            for key in joker.faces:
                kept_here[key // 13][key % 13 + 1] |= 1 << (2 * index)
                freed_here[key // 13][key % 13 + 1] |= 1 << (2 * index + 1)
            last_here[max(joker.faces) // 13][joker.number] |= 3 << (2 * index)
            self.due_at[joker.number] |= 3 << (2 * index)
        self.weight = weight
        self.opening = problem.opening
        # A joker kept in hand can be added to the finished table at the end (`_add_jokers`): worth `held`.
        self.held = max(weight[52], 0) if problem.rack_jokers and problem.hold_jokers else 0
        # Leave out the start with every table joker kept (a search without freeing has covered it).
        self.skip_kept = False
        self.proved_none = False  # set by `place_all`, as are the next two
        self.everything: Found | None = None  # the play it found
        self.walking = False  # `place_all` has started (`start_walk`) and not yet settled nor given up
        self.merge_layer = -1  # set by `starts`: where a start of two fates splits into them
        # Moves by layer and what they depend on in the state: one dict (fewer objects for the garbage
        # collector to follow), keyed by the state's bits under `KEEP[layer]` | `TAG[layer]`.
        self.cache: dict[int, Moves] = {}
        # What a cell's moves depend on besides the state (see `cell_moves`), shared by every solve of the
        # process (`_CELLS`): the inputs, their id and the id of their code (the inputs but the weights).
        real = [list(map(int.__add__, table_row, rack_row)) for table_row, rack_row in zip(table, rack, strict=True)]
        inputs_of = self.inputs = [_NO_CELL] * self.LAYERS  # group steps have none
        input_ids = self.input_ids = [0] * self.LAYERS
        code_ids = self.code_ids = [0] * self.LAYERS
        pool_keys = self.pool_keys = [0] * self.LAYERS
        wanted = self.wanted = [-1] * self.LAYERS  # a cell's rack tiles (all placed in `place_all`)
        rack_after = [[0] * 14 for _ in range(4)]
        # Rack tiles a run open at `number` could still take: those of the numbers it can go on to, with
        # tiles of the colour there (or jokers filling gaps). Only designated runs read it, and there are
        # none unless a table joker may be freed: then it stays 0, and cells that differ only in it share
        # their cached moves.
        if any(problem.freeable(joker) for joker in problem.table_jokers):
            gaps = problem.rack_jokers + len(problem.table_jokers)  # jokers that could fill a run's gaps
            for on_rack, colour_real, after_row in zip(rack, real, rack_after, strict=True):
                for number in range(1, 14):
                    after_row[number] = _rack_ahead(colour_real, on_rack, number, gaps)
        joker_weight = weight[52]
        opening = problem.opening
        cells = _CELLS
        for number in range(1, 14):
            rest = 0  # the numbered tiles of the later colours of the number, 2 bits each
            for colour in (3, 2, 1, 0):
                colour_real = real[colour]
                code = (
                    table[colour][number] | rack[colour][number] << 2 | colour_real[number + 1] << 4
                    | colour_real[number + 2] << 6 | rack_after[colour][number] << 8
                    | kept_here[colour][number] << 10 | freed_here[colour][number] << 14 | colour << 18
                    | last_here[colour][number] << 20
                )  # fmt: skip
                face_weight, points = weight[colour * 13 + number - 1], number if opening else 0
                found = cells.get((code, face_weight, joker_weight, points))
                if found is None:
                    inputs = _CellInputs(
                        colour, table[colour][number], rack[colour][number], colour_real[number + 1],
                        colour_real[number + 2], rack_after[colour][number], kept_here[colour][number],
                        freed_here[colour][number], last_here[colour][number], face_weight, joker_weight, points,
                    )  # fmt: skip
                    found = _new_cell(code, face_weight, joker_weight, points, inputs)
                layer = (number - 1) * 5 + colour
                input_ids[layer], code_ids[layer], inputs_of[layer] = found
                wanted[layer] = rack[colour][number]
                pool_keys[layer] = (colour | rest << 2) << (4 * ACC_BITS + 3)
                rest = rest << 2 | colour_real[number]
        # What numbered rack tiles are worth, up to each cell (for budgets).
        self.passed: list[int] = []
        total = 0
        for number in range(1, 14):
            for colour in range(4):
                total += max(weight[colour * 13 + number - 1], 0) * rack[colour][number]
                self.passed.append(total)

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
        return self._merge_fates(starts)

    def _merge_fates(self, starts: dict[int, int]) -> dict[int, int]:
        """Of two table jokers, the fates "keep the first, free the second" and the other way round make the
        same moves until the first number either joker stands at (before it no cell or group step reads
        which joker is which: both have one joker kept and one to place): one start, `_UNDECIDED`, stands
        for both until `merge_layer`, whose cell moves are those of both fates (see `cell_moves`)."""
        self.merge_layer = -1
        if len(self.problem.table_jokers) != 2:
            return starts
        merged: dict[int, int] = {}
        for state in starts:
            if state >> PEND_SHIFT & 15 == _FREE_FIRST:
                other = state + ((_FREE_SECOND - _FREE_FIRST) << PEND_SHIFT)
                if other in starts:
                    merged[state] = other
        if not merged:
            return starts
        self.merge_layer = (min(joker.number for joker in self.problem.table_jokers) - 1) * 5
        for state, other in merged.items():
            del starts[state], starts[other]
            starts[state + ((_UNDECIDED - _FREE_FIRST) << PEND_SHIFT)] = 0
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
        could no longer become legal groups. (At `merge_layer`, a state of undecided fates has the moves
        of both fates, each move taking it to that fate.)"""
        if layer == self.merge_layer and state >> PEND_SHIFT & 15 == _UNDECIDED:
            moves: Moves = ()
            for fate in (_FREE_FIRST, _FREE_SECOND):
                change = (fate - _UNDECIDED) << PEND_SHIFT
                step = iter(self.cell_moves(layer, state + change))
                moves += tuple(item for delta, gain, info in zip(step, step, step, strict=True) for item in (delta + change, gain, info))
            self.cache[state & KEEP[layer] | TAG[layer]] = moves
            return moves
        extra = state >> X_SHIFT & X_MASK
        small = state >> _DESC_SHIFT[layer] & DESC_MASK | extra << DESC_BITS
        listed_key = self.input_ids[layer] | small
        listed = _UNPOOLED.get(listed_key)
        if listed is None:
            listed = _listed_moves(self.inputs[layer], small, self.code_ids[layer] | small)
            if len(_UNPOOLED) > _CACHE_LIMIT:
                _UNPOOLED.clear()
            _UNPOOLED[listed_key] = listed
        key = state >> ACC_SHIFT & ACC_MASK | _POOL_JOKERS[extra] | self.pool_keys[layer]
        allowed = _ALLOWED.get(key)
        if allowed is None:
            allowed = _allowed(key)
        moves = listed[0] if listed[2] & ~allowed == 0 else _filtered(listed, allowed)
        if layer % 5 == 3:
            moves = self._splitting(layer + 1, state, moves)
        self.cache[state & KEEP[layer] | TAG[layer]] = moves
        return moves

    def _splitting(self, layer: int, state: int, moves: Moves) -> Moves:
        """Of the last cell's moves of a number, those after which the group step `layer` has a move (the
        pool check of `cell_moves` is only a quick necessary condition, which cannot tell the jokers the
        move itself places). The group step reads only the pool and extra bits, which the cell's key holds."""
        step = iter(moves)
        group_moves = self.group_moves
        kept = tuple(
            item
            for delta, gain, info in zip(step, step, step)  # noqa: B905 (a hot loop: see above `PLACE_ALL_STEPS`)
            if group_moves(layer, state + delta)
            for item in (delta, gain, info)
        )
        return kept if len(kept) < len(moves) else moves

    def group_moves(self, layer: int, state: int) -> Moves:
        """The moves of the group step `layer` from `state` (none if a joker duty of the number is unmet).
        A move's delta may carry HOST: the next number hosts a freed joker's group."""
        number = layer // 5 + 1
        if state & self.due_at[number] << PEND_SHIFT:
            return ()
        key = state & KEEP[layer] | TAG[layer]
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
        """The best final state's value, the plans (one a layer) that reach it and the rack jokers left in
        hand (to add to the finished table), or None if no legal table exists: a forward pass, layer by layer.

        `budget` (None: no limit) prunes every state that has already left more than that much weight of
        numbered rack tiles unplaced: the best play survives when it leaves at most `budget` in all."""
        held = self.held
        # Back pointers, per layer: the predecessor, in a dict of ints, which the garbage collector need not
        # look at (the move's plan is found again from the predecessor's cached moves: `_plan`).
        layers: list[dict[int, int]] = []
        current = self.starts()
        cached = self.cache.get
        cell_moves, group_moves = self.cell_moves, self.group_moves
        opening = self.opening
        nothing = _NOTHING
        for layer, keep, tag in zip(range(self.LAYERS), KEEP, TAG[: self.LAYERS], strict=True):
            is_cell = layer % 5 < 4
            floor = nothing if budget is None or not is_cell else self.passed[layer - layer // 5] - budget
            moves_of = cell_moves if is_cell else group_moves
            following: dict[int, int] = {}
            back: dict[int, int] = {}
            reached = following.get
            for state, value in current.items():
                moves = cached(state & keep | tag)
                if moves is None:
                    moves = moves_of(layer, state)
                step = iter(moves)
                for delta, gain, _ in zip(step, step, step):  # noqa: B905 (a hot loop: see above `PLACE_ALL_STEPS`)
                    total = value + gain
                    if total < floor:
                        continue
                    after = self.cap(state + delta) if opening else state + delta
                    if total > reached(after, nothing):
                        following[after] = total
                        back[after] = state
            layers.append(back)
            current = following
            if held:
                _drop_spent_jokers(current, held)
            if not is_cell and len(current) >= _DOMINANCE_MIN:
                _drop_dominated(current)
        best_state = None
        best_value = 0
        for state, value in current.items():
            value += held * (state >> JL_SHIFT & 3)
            if (best_state is None or value > best_value) and self.final(state):
                best_state, best_value = state, value
        if best_state is None:
            return None
        taken = [0] * self.LAYERS
        state = best_state
        for layer in range(self.LAYERS - 1, -1, -1):
            before = layers[layer][state]
            taken[layer] = self._plan(layer, before, state)
            state = before
        return best_value, taken, (best_state >> JL_SHIFT & 3) if held else 0

    def _plan(self, layer: int, before: int, after: int) -> int:
        """The plan of the move `search` kept from `before` to `after` at `layer`: of the moves between
        them, the first that gains the most (the pass keeps a move only when it gains strictly more)."""
        step = iter(self.cache[before & KEEP[layer] | TAG[layer]])
        found, most = 0, _NOTHING
        for delta, gain, info in zip(step, step, step, strict=True):
            if gain > most and self.cap(before + delta) == after:
                found, most = info, gain
        return found

    def place_all(self) -> Found | None:
        """A play that places every numbered rack tile (rack jokers too, or kept in hand to add at the
        end), found depth first: when the table has room, the first few paths tried reach one, without
        looking at the whole space. None if there is none, or if the walk gave up (`proved_none` says
        which: a walk that has not settled it by its round of `PLACE_ALL_STEPS` steps per start gives up,
        as proving there is none costs as much as the full search that follows).

        The walk goes in rounds (`walk_round`), of a number of steps per start that doubles every round
        (the states found hopeless stay known, so a round goes on where the last one stopped): with several
        start states (the fates of table jokers), a fate that places everything at once is not kept waiting
        while another is proved hopeless; and `strategy._walked` can race two walks a round each."""
        self.start_walk()
        while self.walking:
            self.walk_round()
        return self.everything

    def start_walk(self) -> None:
        """Set up `place_all`'s rounds (`walk_round`); `walking` stays True until the walk has found a play
        (`everything`), proved there is none (`proved_none`) or given up."""
        self.proved_none = False
        self.everything = None
        self.walking = True
        self._failed: list[set[int]] = [set() for _ in range(self.LAYERS + 1)]  # by layer: states that fail
        self._path: list[int] = []
        self._starts = list(self.starts())
        self._steps = 1000

    def walk_round(self) -> None:
        """One round of `place_all`: each start not yet proved hopeless, walked for the round's steps."""
        starts = self._starts
        for state in list(starts) if self._steps <= PLACE_ALL_STEPS else ():
            self._left = self._steps
            self._path.clear()
            try:
                end = self._place(state)
            except _OutOfSteps:
                continue
            if end is not None:
                self.everything = self._placed_all(end)
                break
            starts.remove(state)
        self._steps *= 2
        if self.everything is None and starts and self._steps <= PLACE_ALL_STEPS:
            return  # more rounds to come
        self.proved_none = self.everything is None and not starts
        self.walking = False
        del self._failed, self._path, self._starts

    @property
    def settled(self) -> bool:
        """Has `place_all` found a play or proved there is none (not given up, nor still walking)?"""
        return not self.walking and (self.everything is not None or self.proved_none)

    def _placed_all(self, end: int) -> Found:
        jokers = end >> JL_SHIFT & 3
        # Every numbered rack tile placed (their weights are not below 0 when `place_all` runs).
        return self.passed[-1] + self.weight[52] * self.problem.rack_jokers, list(self._path), jokers

    def _place(self, start: int) -> int | None:
        """`place_all` from the start state `start`: the final state of a path that places everything (its
        plans on `_path`), or None (and `start` joins the failed states). Raises `_OutOfSteps` when the
        walk has taken its steps. Depth first, with a stack rather than recursion (a Python call per
        state visited costs more than the rest of the visit)."""
        dead = self._failed
        path = self._path
        last = self.LAYERS
        cached = self.cache.get
        tags = TAG[last:]
        left = self._left - 1
        if not left:
            raise _OutOfSteps
        states = [start]
        step = iter(self._full_moves(0, start))
        pending = [zip(step, step, step, strict=True)]
        while pending:
            layer = len(pending) - 1
            state = states[layer]
            following = layer + 1
            failed = dead[following]
            for delta, _, info in pending[layer]:
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
                moves = cached(after & KEEP[following] | tags[following])
                if moves is None:
                    moves = self._full_moves(following, after)
                step = iter(moves)
                pending.append(zip(step, step, step))  # noqa: B905 (a hot loop: see above `PLACE_ALL_STEPS`)
                break
            else:
                dead[layer].add(state)
                states.pop()
                pending.pop()
                if path:
                    path.pop()
        return None

    def _full_moves(self, layer: int, state: int) -> Moves:
        """The moves of `layer` from `state` that place every rack tile of the cell (as `cell_moves`;
        cached under `TAG[LAYERS + layer]`)."""
        if layer % 5 < 4:
            every = self.cache.get(state & KEEP[layer] | TAG[layer])
            if every is None:
                every = self.cell_moves(layer, state)
            moves = _placing_all(every, self.wanted[layer])
        else:
            moves = self.group_moves(layer, state)
        self.cache[state & KEEP[layer] | TAG[self.LAYERS + layer]] = moves
        return moves


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


# Pending duties of two table jokers (bits 2j: kept, to place; 2j + 1: freed, replacement due): the first
# freed and the second kept, the other way round, and either of the two, decided at `_Walk.merge_layer`.
_FREE_FIRST = 0b0110
_FREE_SECOND = 0b1001
_UNDECIDED = 0b1111


class _OutOfSteps(Exception):
    """A depth-first walk of `place_all` has taken its steps for this round."""


def _drop_dominated(layer: dict[int, int]) -> None:
    """Dominance: a state whose runs of one colour are dominated (`_upgrades`) by those of another state,
    identical otherwise and worth as much, cannot lead anywhere better: it is dropped. (Only worth its cost
    on a large layer: `search` calls it from `_DOMINANCE_MIN` states on.)"""
    size = len(_DESCS)
    upgrades = _UPGRADE_STEPS
    known = layer.get
    nothing = _NOTHING
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


_DOMINANCE_MIN = 64
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
        if (layer.get(state + one, _NOTHING) + held >= value)
        or (state >> JL_SHIFT & 3 == 0 and layer.get(state + 2 * one, _NOTHING) + 2 * held >= value)
    ]
    for state in spent:
        del layer[state]
