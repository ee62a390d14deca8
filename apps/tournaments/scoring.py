"""Points by place, streaks, berserk and performance (SPEC 16), as plain functions of plain values.

    place_points([1, 2, 2, 4]) == [4, 1, 1, 0]      # 4 seats: 4/2/1/0; two share 2nd: (2+1)//2 each

A match is scored with `score_seat` for each of its seats once its places are known: the points of the
place (shared places share the points of the places they cover, rounded down), doubled on a streak
(after two first places in a row), plus 1 for a berserk first place with at least `BERSERK_TURNS` turns
of the player's own. A player who left scores 0 and ends their streak.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The points of each place, by the table's size (SPEC 16).
PLACE_POINTS: dict[int, tuple[int, ...]] = {2: (2, 0), 3: (3, 1, 0), 4: (4, 2, 1, 0)}
#: A berserk first place earns its +1 only with at least this many turns of the player's own.
BERSERK_TURNS = 7
#: First places in a row after which each further first place is doubled.
STREAK_FROM = 2
#: A performance counts an opponent's rating this much higher when placed above them, lower when below.
PERFORMANCE_SPREAD = 400


def place_points(places: Sequence[int]) -> list[int]:
    """The points of each seat's place (1 is first; equal places are shared)."""
    table = PLACE_POINTS.get(len(places))
    if table is None:
        raise ValueError(f"an arena table has 2 to 4 seats, not {len(places)}")
    order = sorted(places)
    points = []
    for place in places:
        first = order.index(place)  # the positions this place covers: first .. first + sharing - 1
        sharing = order.count(place)
        points.append(sum(table[first : first + sharing]) // sharing)
    return points


@dataclass(frozen=True, slots=True)
class SeatScore:
    points: int
    streak: int  # first places in a row after this match
    doubled: bool
    berserk_bonus: bool
    won: bool


def score_seat(*, base: int, first: bool, left: bool, streak: int, berserk: bool, own_turns: int) -> SeatScore:
    """What one seat earns: `base` from `place_points`, `first` whether it shares first place, `streak` the
    first places in a row before this match."""
    if left:
        return SeatScore(0, 0, False, False, False)
    if not first:
        return SeatScore(base, 0, False, False, False)
    doubled = streak >= STREAK_FROM
    points = base * 2 if doubled else base
    bonus = berserk and own_turns >= BERSERK_TURNS
    return SeatScore(points + (1 if bonus else 0), streak + 1, doubled, bonus, True)


def performances(places: Sequence[int], ratings: Sequence[int]) -> list[tuple[int, int]]:
    """Each seat's (sum, count) of performances against the others of its table: the opponent's rating,
    +PERFORMANCE_SPREAD when placed above them, -PERFORMANCE_SPREAD below, as is when sharing a place."""
    found = []
    for i, place in enumerate(places):
        total = 0
        for j, other in enumerate(places):
            if i != j:
                total += ratings[j] + (PERFORMANCE_SPREAD if place < other else -PERFORMANCE_SPREAD if place > other else 0)
        found.append((total, len(places) - 1))
    return found


def pause_wait(previous_wait: int, since_last_pause_seconds: float | None) -> int:
    """Seconds a pausing player waits before "Play on": 10 the first time, doubled by each further pause
    within 20 minutes of the previous one, at most 120 (SPEC 16)."""
    if previous_wait and since_last_pause_seconds is not None and since_last_pause_seconds < 20 * 60:
        return min(120, previous_wait * 2)
    return 10


def table_sizes_for(count: int, sizes: Sequence[int]) -> list[int]:
    """How `count` free players are split into tables of the allowed `sizes` (largest first): "3-4" fills
    4-seat tables and uses 3 where the count needs it. Players beyond any split wait."""
    if len(sizes) == 1:
        return [sizes[0]] * (count // sizes[0])
    big, small = max(sizes), min(sizes)
    for smalls in range(big):
        rest = count - smalls * small
        if rest < 0:
            break
        if rest % big == 0:
            return [big] * (rest // big) + [small] * smalls
    # No exact split (e.g. 5 with 3-4): seat as many as possible.
    best: list[int] = []
    for smalls in range(count // small + 1):
        bigs = (count - smalls * small) // big
        split = [big] * bigs + [small] * smalls
        if sum(split) > sum(best):
            best = split
    return best
