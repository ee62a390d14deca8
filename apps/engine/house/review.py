"""The house game's best turn, from what one seat sees (SPEC 13 "Review", "Hints"): the play that leaves
the fewest tiles on the rack when the turn ends, then the fewest rack points, under that turn's rules.

The search is exact over everything a turn allows:

- before the seat has opened: nothing, or new melds from the rack worth 45 with a run (all laid at once,
  which is what laying the opening and then more melds amounts to);
- on the turn it opens (after the opening): more new melds, no lay-offs;
- from the turn after its opening: taking jokers off the table (each with the tile(s) it stands for),
  laying off on every meld of the table (at both ends of a run, the missing colours of a set, jokers
  included), and new melds; at the start of the turn, taking the last discard into a new meld instead
  of drawing.

Every play keeps one tile to discard. What a play is worth: the tiles that leave the hand for the table,
net of the jokers it takes back (each placed tile counts `TILE`, more than any difference in points),
plus their rack points; the discard is not judged (which tile to throw is a plan, not a placement), so
the hint's discard is simply the most expensive tile that is not a joker (the table's own choice on a
timeout), unless it goes out.

Racks and bags are sorted tuples of face keys (`Tile.key`, 0-51, the joker 52). The three stages, each
memoised within one search: the jokers to take (at most two), then the lay-offs meld by meld (a
depth-first walk over the options of each meld), then the best new melds from what is left (a recursion
on the lowest tile: it stays, or goes into a meld with it), with the opening's 45 and run as state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from apps.engine.game import JSON, Draw, Move
from apps.engine.house.bots.view import SeatView
from apps.engine.house.melds import OPENING_MINIMUM, MeldKind, rack_penalty, read_meld, try_read_meld
from apps.engine.house.moves import Discard, Lay, LayOff, TakeDiscard, TakeJoker
from apps.engine.house.state import Phase
from apps.engine.review.plays import Faces, Placed, Suggestion, gone_from
from apps.engine.review.turns import Turn
from apps.engine.tiles import COLOURS, JOKER, Tile

Bag = tuple[int, ...]

#: One tile placed outweighs any difference in points (a rack holds far less than this in points).
TILE = 10_000
JOKER_KEY = 52
_FACES: tuple[Tile, ...] = tuple(Tile.from_key(key) for key in range(53))
_PENALTY: tuple[int, ...] = tuple(rack_penalty(face) for face in _FACES)
_WORTH: tuple[int, ...] = tuple(TILE + penalty for penalty in _PENALTY)
_IMPOSSIBLE = -(10**9)


def _bag(tiles: Sequence[Tile]) -> Bag:
    return tuple(sorted(tile.key for tile in tiles))


def _minus(bag: Bag, keys: Bag) -> Bag | None:
    """`bag` without `keys` (both sorted), or None when `bag` lacks one of them."""
    if not keys:
        return bag
    rest: list[int] = []
    at = 0
    for key in keys:
        while at < len(bag) and bag[at] < key:
            rest.append(bag[at])
            at += 1
        if at == len(bag) or bag[at] != key:
            return None
        at += 1
    rest.extend(bag[at:])
    return tuple(rest)


def _worth(keys: Sequence[int]) -> int:
    return sum(_WORTH[key] for key in keys)


def _run_face(colour: int, rank: int) -> int:
    """The key of a run position: rank 1-13, or 14 for a 1 after 13."""
    return colour * 13 + (rank if rank <= 13 else 1) - 1


# --- new melds -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Meld:
    faces: Faces  # in table order
    keys: Bag
    worth: int
    points: int  # opening value
    run: bool


def _new_melds(bag: Bag) -> dict[int, list[_Meld]]:
    """Every legal meld made of tiles of `bag` (jokers in any place the rules allow, also in place of a
    tile the bag holds: that tile may be wanted elsewhere), once per multiset of tiles, indexed by its
    lowest key. Complete for every sub-bag too, so one index serves a whole search."""
    counts = Counter(bag)
    jokers = counts[JOKER_KEY]
    found: dict[Bag, _Meld] = {}

    def add(faces: Sequence[Tile]) -> None:
        keys = _bag(faces)
        if keys in found:
            return
        meld = try_read_meld(tuple(faces))
        if meld is not None:
            found[keys] = _Meld(meld.tiles, keys, _worth(keys), meld.points, meld.kind is MeldKind.RUN)

    for colour in range(4):
        for start in range(1, 13):
            missing = 0
            for end in range(start, min(start + 12, 14) + 1):
                if not counts[_run_face(colour, end)]:
                    missing += 1
                    if missing > jokers:
                        break
                length = end - start + 1
                if length < 3:
                    continue
                keys = [_run_face(colour, rank) for rank in range(start, end + 1)]
                held = [at for at, key in enumerate(keys) if counts[key]]
                empty = [at for at, key in enumerate(keys) if not counts[key]]
                for extra in range(0, min(jokers, length // 3) - len(empty) + 1):
                    for more in combinations(held, extra):
                        places = set(empty) | set(more)
                        if any(at + 1 in places for at in places):
                            continue  # two jokers side by side
                        add([JOKER if at in places else _FACES[key] for at, key in enumerate(keys)])
    for number in range(1, 14):
        present = [_FACES[colour * 13 + number - 1] for colour in range(4) if counts[colour * 13 + number - 1]]
        for size in (3, 4):
            for chosen in combinations(present, size):
                add(chosen)
        if jokers:
            for size in (2, 3):
                for chosen in combinations(present, size):
                    add((*chosen, JOKER))
    index: dict[int, list[_Meld]] = {}
    for meld in found.values():
        index.setdefault(meld.keys[0], []).append(meld)
    for melds in index.values():
        melds.sort(key=lambda meld: -meld.worth)
    return index


@dataclass
class _MeldSearch:
    """The best new melds from a bag (memoised): `best(bag, keep)` is the most worth the bag's melds
    place, keeping at least one tile when `keep`; with `opening`, only choices worth 45 with a run (or
    no meld at all) count."""

    index: dict[int, list[_Meld]]
    opening: bool
    memo: dict[tuple[Bag, bool, int, bool], tuple[int, _Meld | None]] = field(default_factory=dict)

    def best(self, bag: Bag, keep: bool, points: int = 0, run: bool = False) -> int:
        state = (bag, keep, points, run)
        known = self.memo.get(state)
        if known is not None:
            return known[0]
        if not bag:
            valid = not keep and (not self.opening or points == 0 or (points >= OPENING_MINIMUM and run))
            self.memo[state] = (0 if valid else _IMPOSSIBLE, None)
            return self.memo[state][0]
        first = bag[0]
        best = self.best(bag[1:], False, points, run)  # the lowest tile stays on the rack
        choice: _Meld | None = None
        for meld in self.index.get(first, ()):
            rest = _minus(bag, meld.keys)
            if rest is None:
                continue
            after = min(points + meld.points, OPENING_MINIMUM) if self.opening else 0
            value = self.best(rest, keep, after, (run or meld.run) and self.opening)
            if value > _IMPOSSIBLE and meld.worth + value > best:
                best, choice = meld.worth + value, meld
        self.memo[state] = (best, choice)
        return best

    def chosen(self, bag: Bag, keep: bool) -> tuple[list[_Meld], Bag]:
        """The melds of the best choice (call `best` first), and the tiles left."""
        melds: list[_Meld] = []
        left: list[int] = []
        points, run = 0, False
        while bag:
            _, choice = self.memo[(bag, keep, points, run)]
            if choice is None:
                left.append(bag[0])
                bag, keep = bag[1:], False
                continue
            melds.append(choice)
            rest = _minus(bag, choice.keys)
            assert rest is not None
            bag = rest
            if self.opening:
                points, run = min(points + choice.points, OPENING_MINIMUM), run or choice.run
        return melds, tuple(left)


# --- lay-offs ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _LayOff:
    move: LayOff
    keys: Bag
    worth: int


def _side(colour: int, ranks: Sequence[int], counts: Counter[int], jokers: int) -> Iterator[tuple[Faces, Counter[int], int]]:
    """The ways to fill `ranks` (outward from the meld, in that order) with rack tiles: each a prefix of
    them, each place its face or a joker; never two jokers side by side. Yields (faces outward, faces
    used, jokers used)."""
    yield (), Counter(), 0
    faces: list[Tile] = []
    used: Counter[int] = Counter()

    def walk(at: int, jokers_used: int) -> Iterator[tuple[Faces, Counter[int], int]]:
        if at == len(ranks):
            return
        key = _run_face(colour, ranks[at])
        if used[key] < counts[key]:
            used[key] += 1
            faces.append(_FACES[key])
            yield tuple(faces), +used, jokers_used
            yield from walk(at + 1, jokers_used)
            faces.pop()
            used[key] -= 1
        if jokers_used < jokers and not (faces and faces[-1].is_joker):
            faces.append(JOKER)
            yield tuple(faces), +used, jokers_used + 1
            yield from walk(at + 1, jokers_used + 1)
            faces.pop()

    yield from walk(0, 0)


def _lay_offs(index: int, meld_faces: Faces, bag: Bag) -> list[_LayOff]:
    """Every way to lay off tiles of `bag` on table meld `index`, once per multiset of tiles."""
    counts = Counter(bag)
    jokers = counts[JOKER_KEY]
    meld = read_meld(meld_faces)
    found: dict[Bag, _LayOff] = {}
    if meld.kind is MeldKind.SET:
        present = {tile.colour for tile in meld.tiles if not tile.is_joker}
        missing = [Tile(colour, meld.start) for colour in COLOURS if colour not in present and counts[Tile(colour, meld.start).key]]
        room = 4 - len(meld.tiles)
        for size in range(1, room + 1):
            for chosen in combinations(missing, size):
                _offer(found, index, meld_faces, (), chosen)
            if jokers and size >= 1:
                for chosen in combinations(missing, size - 1):
                    _offer(found, index, meld_faces, (), (*chosen, JOKER))
        return list(found.values())
    assert meld.colour is not None
    colour = meld.colour.index
    room = 13 - len(meld.tiles)
    below = list(range(meld.start - 1, 0, -1))[:room]
    above = list(range(meld.end + 1, 15))[:room]
    for before, used_before, jokers_before in _side(colour, below, counts, jokers):
        left = counts - used_before
        for after, _, _ in _side(colour, above, left, jokers - jokers_before):
            if not before and not after or len(before) + len(after) > room:
                continue
            _offer(found, index, meld_faces, tuple(reversed(before)), after)
    return list(found.values())


def _offer(found: dict[Bag, _LayOff], index: int, meld_faces: Faces, before: Faces, after: Faces) -> None:
    keys = _bag((*before, *after))
    if keys in found or try_read_meld((*before, *meld_faces, *after)) is None:
        return
    found[keys] = _LayOff(LayOff(index, before, after), keys, _worth(keys))


@dataclass
class _LayOffSearch:
    """The best lay-offs on the table's melds and new melds from what is left (memoised per meld and bag)."""

    options: list[list[_LayOff]]  # per meld that takes any tile of the rack
    melds: _MeldSearch
    memo: dict[tuple[int, Bag], tuple[int, _LayOff | None]] = field(default_factory=dict)

    def best(self, at: int, bag: Bag) -> int:
        if at == len(self.options):
            return self.melds.best(bag, True)
        state = (at, bag)
        known = self.memo.get(state)
        if known is not None:
            return known[0]
        best = self.best(at + 1, bag)
        choice: _LayOff | None = None
        for option in self.options[at]:
            rest = _minus(bag, option.keys)
            if rest is None:
                continue
            value = self.best(at + 1, rest)
            if value > _IMPOSSIBLE and option.worth + value > best:
                best, choice = option.worth + value, option
        self.memo[state] = (best, choice)
        return best

    def chosen(self, bag: Bag) -> tuple[list[LayOff], list[_Meld], Bag]:
        lay_offs: list[LayOff] = []
        for at in range(len(self.options)):
            _, choice = self.memo[(at, bag)]
            if choice is not None:
                lay_offs.append(choice.move)
                rest = _minus(bag, choice.keys)
                assert rest is not None
                bag = rest
        melds, left = self.melds.chosen(bag, True)
        return lay_offs, melds, left


# --- jokers on the table -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _JokerTake:
    move: TakeJoker
    at: int  # the joker's place in the meld


def _joker_takes(table: Sequence[Faces]) -> list[_JokerTake]:
    """Every joker on the table, with the tiles that take it (one in a run; every missing colour in a set)."""
    takes = []
    for index, faces in enumerate(table):
        meld = read_meld(faces)
        for at in meld.joker_positions:
            needed = meld.stands_for[at] if meld.kind is MeldKind.SET else meld.stands_for[at][:1]
            takes.append(_JokerTake(TakeJoker(index, needed), at))
    return takes


def _after_takes(table: Sequence[Faces], takes: Sequence[_JokerTake]) -> list[Faces]:
    melds = [tuple(meld) for meld in table]
    # Right to left within a meld, so that the places of the other jokers do not move.
    for take in sorted(takes, key=lambda take: (take.move.meld, -take.at)):
        old = melds[take.move.meld]
        tiles = take.move.tiles
        melds[take.move.meld] = old[: take.at] + tiles[:1] + old[take.at + 1 :] + tiles[1:]
    return melds


# --- the turn --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """What a turn's search needs from the view: the hand, the table, and what the seat may do."""

    rack: Faces
    table: tuple[Faces, ...]
    opened: bool  # has opened (on an earlier turn, or this one)
    opened_before: bool  # on an earlier turn: may lay off, take jokers, take the last discard

    @classmethod
    def of(cls, seat: SeatView) -> Position:
        return cls(seat.rack, seat.table, seat.has_opened, seat.opened_before)


@dataclass(frozen=True, slots=True)
class _Plan:
    worth: int
    takes: tuple[TakeJoker, ...]
    melds: tuple[Faces, ...]
    lay_offs: tuple[LayOff, ...]
    left: Bag


def _best_plan(position: Position) -> _Plan:
    """The best rest of a turn from the play phase (after the draw)."""
    bag = _bag(position.rack)
    if not position.opened_before:
        only_melds = _MeldSearch(_new_melds(bag), opening=not position.opened)
        worth = only_melds.best(bag, True)
        melds, left = only_melds.chosen(bag, True)
        return _Plan(worth, (), tuple(meld.faces for meld in melds), (), left)
    best: _Plan | None = None
    takes = _joker_takes(position.table)
    shared: dict[tuple[Bag, bool, int, bool], tuple[int, _Meld | None]] = {}
    for count in range(len(takes) + 1):
        for chosen in combinations(takes, count):
            needed = _bag([tile for take in chosen for tile in take.move.tiles])
            rest = _minus(bag, needed)
            if rest is None:
                continue
            hand = tuple(sorted((*rest, *[JOKER_KEY] * count)))
            table = _after_takes(position.table, chosen)
            options = [found for found in (_lay_offs(index, meld, hand) for index, meld in enumerate(table)) if found]
            search = _LayOffSearch(options, _MeldSearch(_new_melds(hand), opening=False, memo=shared))
            worth = search.best(0, hand)
            if worth <= _IMPOSSIBLE:
                continue
            worth += _worth(needed) - count * _WORTH[JOKER_KEY]
            if best is None or worth > best.worth:
                lay_offs, new, left = search.chosen(hand)
                best = _Plan(worth, tuple(take.move for take in chosen), tuple(meld.faces for meld in new), tuple(lay_offs), left)
    assert best is not None  # taking nothing and laying nothing is always possible
    return best


def _discard(left: Bag) -> Tile:
    """The tile to throw: the most expensive that is not a joker (then the higher number), else a joker."""
    real = [key for key in left if key != JOKER_KEY]
    if not real:
        return JOKER
    return _FACES[max(real, key=lambda key: (_PENALTY[key], key % 13, -key))]


def _suggestion(position: Position, plan: _Plan, first: Sequence[Move] = (), first_worth: int = 0, first_placed: Faces = ()) -> Suggestion:
    moves: list[Move] = [*first, *plan.takes]
    if plan.melds:
        moves.append(Lay(plan.melds))
    moves.extend(plan.lay_offs)
    moves.append(Discard(_discard(plan.left)))
    placed = [*first_placed]
    for take in plan.takes:
        placed.extend(take.tiles)
    for meld in plan.melds:
        placed.extend(meld)
    for lay_off in plan.lay_offs:
        placed.extend(lay_off.tiles)
    worth = first_worth + plan.worth
    table = _after_takes(position.table, [take for take in _joker_takes(position.table) if take.move in plan.takes])
    for lay_off in plan.lay_offs:
        table[lay_off.meld] = lay_off.before + table[lay_off.meld] + lay_off.after
    table.extend(plan.melds)
    tiles = round(worth / TILE)
    return Suggestion(tuple(moves), tuple(placed), tiles, worth - tiles * TILE, tuple(table))


def best_play(position: Position) -> Suggestion:
    """The best rest of a turn from the play phase: jokers, new melds, lay-offs, then the discard."""
    return _suggestion(position, _best_plan(position))


def best_takes(position: Position, top: Tile) -> list[Suggestion]:
    """From the draw phase: for each new meld the last discard `top` can go into with rack tiles, the
    best turn that starts with taking it (best first). None before the turn after the seat's opening."""
    if not position.opened_before:
        return []
    hand = _bag((*position.rack, top))
    found: list[Suggestion] = []
    for meld in _melds_with(hand, top.key):
        used = _minus(meld.keys, (top.key,))
        assert used is not None
        rest = _minus(_bag(position.rack), used)
        if rest is None or not rest:
            continue
        after = Position(tuple(_FACES[key] for key in rest), (*position.table, meld.faces), True, True)
        plan = _best_plan(after)
        placed = tuple(_FACES[key] for key in used)
        suggestion = _suggestion(after, plan, (TakeDiscard(meld.faces),), meld.worth, placed)
        found.append(suggestion)
    found.sort(key=lambda suggestion: suggestion.worth, reverse=True)
    return found


def _melds_with(bag: Bag, key: int) -> list[_Meld]:
    return [meld for melds in _new_melds(bag).values() for meld in melds if key in meld.keys]


def best_turn(seat: SeatView) -> Suggestion:
    """A hint: the best rest of the turn for the seat to move. In the draw phase, taking the last
    discard is suggested only when that places more than drawing surely would (the drawn tile is
    unknown: drawing is counted as the best play of the rack as it is); otherwise: draw."""
    position = Position.of(seat)
    if seat.phase is not Phase.DRAW:
        return best_play(position)
    takes = best_takes(position, seat.top_discard) if seat.top_discard is not None and "take" in seat.actions else []
    drawing = best_play(position)
    if takes and takes[0].tiles > drawing.tiles:
        return takes[0]
    return Suggestion((Draw(),), (), drawing.tiles, drawing.points)


# --- judging a turn of a record --------------------------------------------------------------------------


def _hand_points(faces: Sequence[Tile]) -> int:
    return sum(rack_penalty(tile) for tile in faces)


def _faces(words: Sequence[str]) -> Faces:
    return tuple(Tile.parse(word) for word in words)


class HouseJudge:
    """The review of one turn of the house game (see `apps.engine.review.report`)."""

    def played(self, turn: Turn) -> Placed:
        """The tiles (and their rack points) the turn placed from the hand: the rack at the start with the
        drawn tile or the taken discard, against the rack at the end with the discarded tile."""
        first, views, after = turn.moves[0], turn.views, turn.after
        end = (*_faces(after["rack"]), *_faces(after["discards"][-1:]))
        if isinstance(first, Draw) and len(views) > 1:
            start: Sequence[Tile] = _faces(views[1]["rack"])
        elif isinstance(first, TakeDiscard):
            start = (*_faces(views[0]["rack"]), *_faces(views[0]["discards"][-1:]))
        elif views[0]["phase"] == Phase.PLAY.value:
            start = _faces(views[0]["rack"])
        else:
            start = end  # the table drew and discarded for the seat
        return Placed(len(start) - len(end), _hand_points(start) - _hand_points(end), gone_from(start, end))

    def best(self, turn: Turn) -> Suggestion | None:
        """The best turn from the seat's views: at the start of the turn (taking the last discard, when it
        was allowed), and after its draw (with the tile it drew, which it then saw). None when the seat
        saw nothing to decide from (the table drew and discarded for it, and no take was possible)."""
        seat = SeatView.of(turn.views[0])
        if seat.phase is Phase.PLAY:
            return best_play(Position.of(seat))
        found: list[Suggestion] = []
        if seat.top_discard is not None and "take" in seat.actions:
            found.extend(best_takes(Position.of(seat), seat.top_discard)[:1])
        if isinstance(turn.moves[0], Draw) and len(turn.views) > 1:
            then = best_play(Position.of(SeatView.of(turn.views[1])))
            found.append(Suggestion((Draw(), *then.moves), then.placed, then.tiles, then.points, then.table))
        return max(found, key=lambda suggestion: suggestion.worth) if found else None

    def hint(self, view: JSON) -> Suggestion:
        return best_turn(SeatView.of(view))


JUDGE = HouseJudge()
