"""Who sits with whom: tables of 2, 3 or 4 formed from the players waiting, close in rating (SPEC 15).

    form_tables(waiting, seats=2, allowed=lambda a, b: True) -> Grouping(tables, left)

Quick pairing hands this the players of one pool and gets back the tables to open and who waits for the
next wave. (Arenas, SPEC 16, do not use it: there a point of standing outweighs any rating gap, so this
search only cut the standing order into consecutive tables, at 20-80 ms for 1,000 players; they cut it
directly: apps/tournaments/services.group_entries.) It is pure: no database, no clock; the caller says how many
waves each player has already missed and which pairs may never share a table (a block, an abort together
within the hour, the rated repeat cap: SPEC 11 and 15).

The rules, as lichess's pool does them (`modules/pool` in lila) and grown to tables of 3 and 4:

- A table is acceptable only if its rating spread (highest minus lowest) is within the tolerance of the
  member who has waited longest, `TOLERANCE + WIDENING * waves missed`: a newcomer is seated near their
  rating, and a player who has waited long takes whoever comes next, so nobody waits forever for want of
  a perfect match. (The widest tolerance, not the narrowest: with the narrowest, a player far from the
  middle waits until a newcomer happens to arrive near them, and at 8 arrivals a minute one player in
  twenty waited over 40 s; bench/pairing.py.)
- Seat as many players as possible, the longest waiting first: leaving a player out costs more than any
  acceptable table, and more the longer they have waited.
- Among the groupings that seat the same players, the smallest spreads win; a table that mixes frequent
  leavers with players who stay, or provisional ratings with settled ones, costs extra, so each kind sits
  with its own where the pool allows.

The search is exact over tables of players near each other in rating order (each table is drawn from a
window of `seats + SLACK` consecutive players): a dynamic programme over the sorted list whose state is
which players of the window ahead are already seated. A table of players further apart than that would
have a wider spread than one from the window, unless blocks forbid the near ones, which SLACK allows for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

#: The rating spread a table may have for a player who has missed no wave, and its growth per wave missed.
TOLERANCE = 100.0
WIDENING = 80.0
#: Extra cost of a table that mixes frequent leavers with others, or provisional ratings with settled ones.
LEAVER_MIX = 150.0
PROVISIONAL_MIX = 50.0
#: How many players beyond a table's size a table may reach over in rating order (blocked pairs need it).
SLACK = 2
#: What leaving one player unseated costs: more than any table, and more per wave they have waited.
UNSEATED = 100_000.0
UNSEATED_PER_WAVE = 1_000.0


@dataclass(frozen=True, slots=True)
class Waiting:
    """One player in a pool: who, their rating, how many waves they have missed, and what kind of player
    they are for grouping."""

    id: int
    rating: float
    waves: int = 0
    provisional: bool = False
    leaver: bool = False

    @property
    def tolerance(self) -> float:
        return TOLERANCE + WIDENING * self.waves


@dataclass(frozen=True, slots=True)
class Grouping:
    tables: list[tuple[Waiting, ...]]
    left: list[Waiting]


Allowed = Callable[[Waiting, Waiting], bool]


def _anyone(a: Waiting, b: Waiting) -> bool:
    return True


def table_cost(table: Sequence[Waiting], allowed: Allowed = _anyone) -> float | None:
    """What seating `table` together costs (its spread, plus the mixing costs), or None when it may not be
    formed: a forbidden pair, or a spread beyond the widest tolerance of its members."""
    ratings = [player.rating for player in table]
    spread = max(ratings) - min(ratings)
    if spread > max(player.tolerance for player in table):
        return None
    if not all(allowed(a, b) for a, b in combinations(table, 2)):
        return None
    cost = spread
    if len({player.leaver for player in table}) > 1:
        cost += LEAVER_MIX
    if len({player.provisional for player in table}) > 1:
        cost += PROVISIONAL_MIX
    return cost


State = tuple[float, int, "tuple[int, ...] | None"]


def _keep(layer: dict[int, State], mask: int, entry: State) -> None:
    """Keep the cheaper way of reaching `mask`."""
    known = layer.get(mask)
    if known is None or entry[0] < known[0]:
        layer[mask] = entry


def form_tables(waiting: Sequence[Waiting], seats: int = 2, allowed: Allowed = _anyone) -> Grouping:
    """The best tables of `seats` players from `waiting` (see the module's rules), and who is left."""
    if seats < 2:
        raise ValueError(f"a table has at least 2 seats, not {seats}")
    players = sorted(waiting, key=lambda player: (player.rating, player.id))
    count = len(players)
    window = seats + SLACK
    # A forward pass over the players in rating order. At player i a state is a mask: bit k set means
    # player i+k is already seated (by a table an earlier player started). layer[mask] = (least cost so
    # far, the state before, the table player i started or None). Only reachable states are kept.
    widest = max((player.tolerance for player in players), default=0.0)  # no table spreads wider
    layers: list[dict[int, State]] = [{0: (0.0, 0, None)}]
    for i, player in enumerate(players):
        layer: dict[int, State] = {}
        near = []  # the players after i close enough to sit with i at all
        for k in range(1, window):
            if i + k >= count or players[i + k].rating - player.rating > widest:
                break
            near.append(k)
        # The tables player i may start, with their cost and the seats they take: the same whatever the
        # state, so worked out once per player.
        starts: list[tuple[int, float, tuple[int, ...]]] = []
        for others in combinations(near, seats - 1):
            cost = table_cost([player, *(players[i + k] for k in others)], allowed)
            if cost is not None:
                starts.append((sum(1 << k for k in others), cost, (0, *others)))
        unseated = UNSEATED + UNSEATED_PER_WAVE * player.waves
        for mask, (so_far, _, _) in layers[-1].items():
            if mask & 1:
                _keep(layer, mask >> 1, (so_far, mask, None))
                continue
            _keep(layer, mask >> 1, (so_far + unseated, mask, None))
            for bits, cost, started in starts:
                if not bits & mask:
                    _keep(layer, (mask | bits) >> 1, (so_far + cost, mask, started))
        layers.append(layer)
    tables: list[tuple[Waiting, ...]] = []
    left: list[Waiting] = []
    mask = 0  # after the last player nobody is left to seat
    for i in range(count, 0, -1):
        _, before, table = layers[i][mask]
        if table is not None:
            tables.append(tuple(players[i - 1 + k] for k in table))
        elif not before & 1:
            left.append(players[i - 1])
        mask = before
    tables.reverse()
    left.reverse()
    return Grouping(tables, left)
