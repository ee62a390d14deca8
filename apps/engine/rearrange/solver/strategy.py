"""The order of work of one solve: the place-everything walk, a first search without freed jokers, walks
that leave only a lightest tile, budgets that grow, and when a search's answer is conclusive."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import accumulate
from typing import NamedTuple

from apps.engine.rearrange.melds import rack_value
from apps.engine.rearrange.solver.build import _add_jokers, _build
from apps.engine.rearrange.solver.mirror import mirrored, unmirrored
from apps.engine.rearrange.solver.model import Faces, Solution
from apps.engine.rearrange.solver.search import Found, _Problem, _Walk
from apps.engine.tiles import JOKER


def _budgets(problem: _Problem, heavy: list[int], first: int = 0) -> Iterator[int | None]:
    """Budgets for `_Walk.search`, tightest first: leave `first` tiles' worth (0: nothing), then up to 1, 2,
    4, ... tiles' worth (`heavy`: the rack items' weights, heaviest first); finally no limit. A search whose
    best play leaves at most its budget unplaced has found the best play."""
    if not problem.numbered_nonnegative():
        yield None
        return
    count = first
    while count < len(heavy):
        yield sum(heavy[:count])
        count = 2 * count if count else 1
    yield None


def _numbered_weights(problem: _Problem) -> list[int]:
    """The weights of the numbered rack tiles, ascending."""
    weight, rack = problem.weight, problem.rack
    return sorted(
        weight[colour * 13 + number - 1] for colour in range(4) for number in range(1, 14) for _ in range(rack[colour][number])
    )


def _heaviest_first(problem: _Problem, numbered: list[int]) -> list[int]:
    """The weights of the rack's items, heaviest first: the numbered tiles (`numbered`) and the rack jokers."""
    return sorted([*numbered, *[max(problem.weight[52], 0)] * problem.rack_jokers], reverse=True)


def _best(problem: _Problem, first: int = 0, walk: _Walk | None = None, known: int | None = None) -> Found | None:
    """The best play, by searches with growing budgets (from leaving `first` tiles' worth). `known`: the
    score of a play known to exist (the best play leaves no more than it does: the last budget); None is
    then also the answer when no play the walk looks at scores as much as `known`."""
    reachable = problem.reachable()
    walk = walk or _Walk(problem)
    numbered = _numbered_weights(problem)
    heavy = _heaviest_first(problem, numbered)
    found: Found | None = None
    for round, budget in enumerate(_budgets(problem, heavy, first)):
        # With a play known, one tight search, then the last (a search costs less than its budget would
        # suggest: beyond a tile or two, what it looks at is mostly the arrangements of the table tiles).
        # The tight search allows up to two tiles fewer than the known play leaves (but no more than two
        # tiles), when that is more than its budget: freeing a table joker often places two tiles more,
        # and a search that finds a play within its budget has found the best.
        if known is not None and not round and budget is not None:
            budget = max(budget, _two_fewer(heavy, reachable - known))
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


def _two_fewer(heavy: list[int], left: int) -> int:
    """What a play leaving two tiles fewer than one that leaves `left` can leave at most, two tiles' worth
    at most: a play leaving `left` leaves at least as many of the rack's items (`heavy`: their weights,
    heaviest first) as it takes the heaviest to reach `left`; two fewer of the heaviest (0 if none).

    >>> rack = [1013, 1012, 1003, 1002, 1001]
    >>> _two_fewer(rack, 2025), _two_fewer(rack, 3027), _two_fewer(rack, 5031)
    (0, 1013, 2025)
    """
    count = next((count for count, total in enumerate(accumulate(heavy), start=1) if total >= left), len(heavy))
    return sum(heavy[: min(count - 2, 2)]) if count > 2 else 0


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
    score, plans, held = result
    table, placed = _build(plans)
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
       on a big table, where the full search is slowest). When its first two rounds do not settle it,
       the walk of the mirrored problem (`mirror.py`) races it (`_walked`), and the rest goes on in the
       direction whose walk settled first.
    2. Otherwise, jokers make the search larger, so when there are any to place or free, a search without
       them (rack jokers only added at the end, table jokers kept) gives a first play; the full search
       then only looks at plays that beat it (and is skipped when that play places every tile)."""
    if problem.opening or not problem.numbered_nonnegative() or problem.weight[52] < 0:
        return _search(problem, _Walk(problem), walked=False)
    problem, walk, mirror = _walked(problem)
    return _oriented(_search(problem, walk, walked=True), mirror)


def _walking(walk: _Walk) -> bool:
    """`walk.walking`, read as a call: `walk_round()` changes the flag, and mypy would otherwise keep the
    value it narrowed before the call (and call the loop below unreachable)."""
    return walk.walking


def _walked(problem: _Problem) -> tuple[_Problem, _Walk, bool]:
    """The problem (or its mirror: True), after its place-everything walk (`_Walk.place_all`). When the
    walk's first two rounds do not settle whether a play places everything, the mirrored problem's walk
    races it, a round each in turn: the cost of the search that follows differs between the two directions
    as much as the walks' do, up to ten times either way, and a walk that settles first mostly comes
    before the cheaper search. If neither settles, the problem as it is. (The head start of two rounds:
    over seeds 0-999 of `bench/solver.py`, a race from the first round cost 4% fewer instructions in all,
    but 523, the slowest position, settles in the second round and took 7% more.)"""
    walk = _Walk(problem)
    walk.start_walk()
    for _ in range(2):
        if walk.walking:
            walk.walk_round()
    if not _walking(walk):
        return problem, walk, False
    other_problem = mirrored(problem)
    other = _Walk(other_problem)
    other.start_walk()
    while _walking(walk) or _walking(other):
        if other.walking:
            other.walk_round()
            if other.settled:
                return other_problem, other, True
        if _walking(walk):
            walk.walk_round()
            if walk.settled:
                return problem, walk, False
    return problem, walk, False


def _oriented(play: _Play | None, mirror: bool) -> _Play | None:
    """A play of the problem from a play of the problem searched (its mirror when `mirror`)."""
    if play is None or not mirror:
        return play
    return _Play(play.score, *unmirrored(play.table, play.placed))


def _search(problem: _Problem, walk: _Walk, walked: bool) -> _Play | None:
    """The best play, after the place-everything walk of `walk` (if `walked`)."""
    reachable = problem.reachable()
    skip = 0
    gave_up = False
    if walked:
        everything = _finish(problem, walk.everything)
        if everything is not None and everything.score >= reachable:
            return everything
        if walk.proved_none:
            skip = 1  # no play leaves nothing
        else:
            gave_up = True
    if not any(problem.freeable(joker) for joker in problem.table_jokers):
        return _finish(problem, _best(problem, skip, walk))
    simple = replace(problem, rack_jokers=0, allow_freed=False)
    # After a walk that gave up, this search starts at two tiles' budget (on the slow positions its rounds
    # at nothing and one tile found nothing); a search that finds a play within its budget has found the
    # best play, whatever the budget.
    first = _finish(simple, _best(simple, 2 if gave_up else 0))
    if first is not None and problem.rack_jokers and problem.weight[52] > 0:
        added = _add_jokers(first.table, problem.rack_jokers)
        if added is not None:
            jokers = (JOKER,) * problem.rack_jokers
            placed = tuple(sorted((*first.placed, *jokers), key=lambda tile: tile.key))
            first = _Play(first.score + problem.weight[52] * problem.rack_jokers, added, placed)
    if first is not None and first.score >= reachable:
        return first
    if skip and first is not None:
        # No play places every numbered rack tile (the walk proved it), so none leaves less than the
        # lightest of them. The first play may leave that little already; when it leaves two tiles at most,
        # a play leaving only a lightest tile is worth a depth-first walk per such face (quick when there
        # is one: the search it replaces looks at every play leaving up to what the first play leaves).
        lightest = _numbered_weights(problem)[0]  # the rack holds a numbered tile: a play was found
        if first.score >= reachable - lightest:
            return first
        if first.score > reachable - 3 * lightest:
            found = _leave_lightest(problem, lightest)
            if found is not None:
                return found
    # The full search, with growing budgets up to what the first play leaves (nothing better leaves more).
    # Without rack jokers the first play is the best that keeps every table joker: the full search need
    # only look at plays that free one.
    known = None if first is None or not problem.numbered_nonnegative() else first.score
    walk.skip_kept = first is not None and not problem.rack_jokers
    full = _finish(problem, _best(problem, skip, walk, known))
    if full is None or (first is not None and first.score >= full.score):
        return first
    return full


def _leave_lightest(problem: _Problem, lightest: int) -> _Play | None:
    """A play that places every rack tile but one of weight `lightest`, found by the place-everything walk
    of the rack without it, one face of that weight after the other; None if no walk finds one (each
    gives up as `_Walk.place_all` does)."""
    reachable = problem.reachable()
    for colour in range(4):
        for number in range(1, 14):
            if not problem.rack[colour][number] or problem.weight[colour * 13 + number - 1] != lightest:
                continue
            rack = [list(row) for row in problem.rack]
            rack[colour][number] -= 1
            smaller = replace(problem, rack=rack)
            play = _finish(smaller, _Walk(smaller).place_all())
            if play is not None and play.score >= reachable - lightest:
                return play
    return None


def _solution(problem: _Problem) -> Solution | None:
    found = _solve(problem)
    if found is None or not found.placed or found.score <= 0:
        return None
    return Solution(found.placed, found.table, found.score, sum(rack_value(tile) for tile in found.placed))
