"""The Hard bot of the Rearrange game (SPEC 7; issues 5 and 18): candidate plays from the exact solver,
chosen by a learned value of positions (two players) or by playing each out over sampled hidden racks.

With one other player, after opening and while the pool has tiles, it gathers the candidates below and a
draw, and plays the one whose position (its rack, the table, the sizes, as it sees them) the learned value
rates best (`apps.engine.rearrange.bots.value`, trained by bench/rearrange_value.py). That value often
prefers drawing to playing: a rack kept whole grows into one that goes out in a single turn on the table
the other player keeps building, which against the Greedy bot won 62-65% of games where the search below
won 47-54% (bench/README.md). It goes out whenever it can.

Otherwise (three or four players, or an empty pool), near the end of a game (a rack of 4 tiles or fewer at
the table, or an empty pool), after opening, it gathers a few candidate plays (`_candidates`) and, when they
place different tiles, plays each out (`apps.engine.rearrange.bots.search`): the hidden racks and pool are
sampled from its view only, every seat then plays a fast policy (the solver's most tiles, table jokers kept)
for two rounds over 8 sampled deals, and the candidate with the best mean result is played (the planned play
unless another does better by `planned_margin`). With the pool empty it searches the endgame instead (max-n,
four turns; with two players every tile is then known). Elsewhere it plays the planned play: play-outs on
every turn measured no better (`search_always`; bench/README.md). The candidates:

- the planned play (below: the play of issue 5's Hard bot, rules of thumb),
- the solver's best play (the most tiles: the Greedy bot's),
- the best play that keeps the rack's jokers,
- the best plays that hold back one placed tile (the highest two that cost no other tile).

It goes out whenever the solver can place its whole rack. Before opening it plays the planned opening.

The planned play (rules of thumb, issue 5):
- Before opening: the solver's best opening, but only the fewest of its new sets that reach 30; the other
  sets stay on the rack.
- After opening, it keeps the complete sets its rack makes on its own (a set can go down as a new set on
  any later turn, and meanwhile gives the other players nothing to rebuild with) and plays the best play
  of the other tiles; when those place nothing, it lays the smallest kept set instead of drawing. It
  keeps them only when that costs no other tile (a kept set that helps place junk tiles goes down).
- It keeps its jokers for the end: a joker goes down only when it places at least two more tiles, or when
  the whole rack goes out (a joker on the rack fits almost any last tile; on the table it is stuck).
- Among plays that place as many tiles, it prefers placing the tiles that will be hard to place later
  (1, 2, 12, 13: they fit fewer runs), keeping the flexible ones.
- Optionally (`reserve`, off by default: it measured worse) it holds back a few placeable tiles that the
  new table will still take, to play on a turn that would otherwise draw.
- When another player runs low on tiles it stops holding anything back (tiles on a rack count against it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from apps.engine.game import JSON, Draw, Move
from apps.engine.rearrange.bots.search import Candidate, Hidden, rank, rank_endgame, sample_hidden, without
from apps.engine.rearrange.bots.value import PositionValue, features, shipped_value
from apps.engine.rearrange.bots.view import Faces, RearrangeSeatView
from apps.engine.rearrange.melds import OPENING_MINIMUM, rack_value, read_meld
from apps.engine.rearrange.moves import Play
from apps.engine.rearrange.solver import TILE_WEIGHT, Solution, solve, solve_opening
from apps.engine.tiles import COLOURS, JOKER, Tile


@dataclass(frozen=True, slots=True)
class RearrangeWeights:
    reserve: int = 0  # tiles held back from the best play, when the new table still takes them
    tries: int = 4  # solver calls spent looking for them
    dump_below: int = 4  # no reserve once another player holds this few tiles
    small_opening: bool = True  # open with the fewest sets that reach 30
    bank_sets: bool = True  # keep complete sets of the rack on the rack until nothing else can be placed
    joker_weight: int = -1000  # what placing a joker is worth to the solver (1000 a tile): kept unless it places 2 more
    edge_weight: int = 10  # extra worth of placing a tile that fits few sets later (1, 2, 12, 13)
    stiff_weight: int = 0  # extra worth of placing a tile with few sets it could join later, per set fewer
    search: bool = True  # choose among candidates by play-outs (False: the planned play, issue 5's bot)
    samples: int = 4  # sampled deals per decision
    rounds: int = 1  # rounds of play-out after the candidate
    endgame_below: int = 4  # a rack this short (any seat's): the endgame search
    endgame_samples: int = 8
    endgame_rounds: int = 2
    endgame_depth: int = 4  # turns of the endgame search (an empty pool)
    holds: int = 2  # candidates that hold back one placed tile
    search_always: bool = False  # play out candidates on every turn, not only near the end
    planned_margin: float = 0.05  # how much better (mean result, 0..1) another candidate must do
    value: bool = True  # two players, after opening, tiles in the pool: choose by the learned position value


class HardRearrangeBot:
    level = "hard"

    def __init__(self, weights: RearrangeWeights | None = None, value: PositionValue | None = None) -> None:
        self.weights = weights or RearrangeWeights()
        self._value = value

    @property
    def value(self) -> PositionValue:
        """The position value it chooses by (`value.json` unless another was given)."""
        return self._value or shipped_value()

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        seat = RearrangeSeatView.of(view)
        full = solve(seat.table, seat.rack) if seat.has_opened else None
        planned = self.planned_move(seat, full)
        if full is None or len(full.placed) == len(seat.rack):
            return planned
        if self.weights.value and seat.pool and len(seat.others()) == 1:
            return self.valued(seat, self._candidates(seat, planned, full))
        if not self.weights.search:
            return planned
        chosen = self.weights
        short = min(seat.tiles[other] for other in range(seat.seats) if not seat.left[other]) <= chosen.endgame_below
        if seat.pool and not short and not chosen.search_always:
            return planned  # far from the end the rules of thumb measured better than short play-outs
        candidates = self._candidates(seat, planned, full)
        if seat.pool and len(candidates) == 1:
            return planned
        if not seat.pool:
            # The endgame: every move is a play or a pass (with two players every tile is known).
            if all(candidate.table is not None for candidate in candidates):
                candidates.append(Candidate("pass", None, ()))
            others = sum(1 for other in seat.others())
            count = 1 if others == 1 else chosen.endgame_samples // 4
        else:
            count = chosen.endgame_samples if short else chosen.samples
        best = self.decide(seat, candidates, self.deals(seat, count, random.Random(rng.getrandbits(64))))
        return Draw() if best.table is None else Play(best.table)

    def valued(self, seat: RearrangeSeatView, candidates: list[Candidate]) -> Move:
        """The candidate, or a draw, that leaves the position the value rates best (ties: the earlier; the
        planned play is first)."""
        if all(candidate.table is not None for candidate in candidates):
            candidates = [*candidates, Candidate("draw", None, ())]
        (other,) = seat.others()
        opened = (True, seat.opened[other])
        scores = []
        for candidate in candidates:
            drew = candidate.table is None
            table = seat.table if candidate.table is None else candidate.table
            row = features(without(seat.rack, candidate.placed), table, drew, seat.tiles[other], seat.pool - drew, opened)
            scores.append(self.value(row))
        best = candidates[max(range(len(candidates)), key=lambda index: (scores[index], -index))]
        return Draw() if best.table is None else Play(best.table)

    def deals(self, seat: RearrangeSeatView, count: int, rng: random.Random) -> list[Hidden]:
        """`count` samples of what the seat cannot see, from its view only (`sample_hidden`). A benchmark's
        subclass may put the real hidden tiles here to measure what knowing them would be worth
        (bench/rearrange_oracle.py); the bot itself never sees them."""
        return [sample_hidden(seat, rng) for _ in range(count)]

    def decide(self, seat: RearrangeSeatView, candidates: Sequence[Candidate], deals: Sequence[Hidden]) -> Candidate:
        """The candidate with the best mean result over `deals` (what the hidden racks and pool might be;
        `next_move` samples them from the view): with the pool empty by the endgame search, else by
        play-outs, longer when a rack is short. Ties go to the earlier candidate."""
        chosen = self.weights
        if not seat.pool:
            scores = rank_endgame(seat, candidates, deals, chosen.endgame_depth)
        else:
            short = min(seat.tiles[other] for other in range(seat.seats) if not seat.left[other]) <= chosen.endgame_below
            scores = rank(seat, candidates, deals, chosen.endgame_rounds if short else chosen.rounds)
        # The first candidate (the planned play) unless another does clearly better.
        scores = [score + (chosen.planned_margin if index == 0 else 0.0) for index, score in enumerate(scores)]
        return candidates[max(range(len(candidates)), key=lambda index: (scores[index], -index))]

    def _candidates(self, seat: RearrangeSeatView, planned: Move, full: Solution) -> list[Candidate]:
        """The plays worth playing out, the planned one first, each placing a different set of tiles."""
        found: list[Candidate] = []
        keys: set[tuple[int, ...]] = set()

        def add(name: str, table: tuple[Faces, ...] | None, placed: Sequence[Tile]) -> None:
            key = tuple(sorted(tile.key for tile in placed))
            if key not in keys:
                keys.add(key)
                found.append(Candidate(name, table, tuple(placed)))

        if isinstance(planned, Play):
            add("planned", planned.table, _placed(seat, planned.table))
        else:
            add("draw", None, ())
        add("greedy", full.table, full.placed)
        jokers = [tile for tile in seat.rack if tile.is_joker]
        if jokers and JOKER in full.placed:
            kept = solve(seat.table, seat.rack, keep=jokers, free_jokers=False)
            if kept is not None:
                add("keep jokers", kept.table, kept.placed)
        numbered = sorted({tile for tile in full.placed if not tile.is_joker}, key=lambda tile: (-rack_value(tile), tile.key))
        tried = 0
        for tile in numbered:
            if tried >= self.weights.holds or len(full.placed) < 2:
                break
            held = solve(seat.table, seat.rack, keep=[tile], free_jokers=False)
            if held is not None and len(held.placed) == len(full.placed) - 1:
                add(f"hold {tile}", held.table, held.placed)
                tried += 1
        return found

    def planned_move(self, seat: RearrangeSeatView, full: Solution | None) -> Move:
        """The play of rules of thumb (issue 5's Hard bot; see the module's docstring). `full`: the solver's
        best play (None before opening, or when nothing can be placed)."""
        if not seat.has_opened:
            opening = solve_opening(seat.rack, seat.table)
            if opening is None:
                return Draw()
            return Play(self._opening_table(seat, opening))
        if full is None:
            return Draw()
        if len(full.placed) == len(seat.rack) or self._threatened(seat):
            return Play(full.table)
        if self.weights.bank_sets:
            banked = self._banked_play(seat, full)
            if banked is not None:
                return Play(banked.table)
        weights = self._weights(seat)
        if weights:
            planned = solve(seat.table, seat.rack, weights=weights)
            if planned is None:
                return Draw()
            full = planned
        if not self.weights.reserve:
            return Play(full.table)
        return Play(self._with_reserve(seat, full).table)

    def _weights(self, seat: RearrangeSeatView) -> dict[Tile, int]:
        """The solver's objective for an ordinary turn (empty: its default, the most tiles)."""
        chosen = self.weights
        if chosen.joker_weight == 1030 and not chosen.edge_weight and not chosen.stiff_weight:
            return {}
        weights = {JOKER: chosen.joker_weight}
        available = _availability(seat) if chosen.stiff_weight else Counter()
        for colour in COLOURS:
            for number in range(1, 14):
                face = Tile(colour, number)
                edge = chosen.edge_weight * (2 if number in (1, 13) else 1 if number in (2, 12) else 0)
                stiff = 0
                if chosen.stiff_weight:
                    stiff = round(chosen.stiff_weight * max(0.0, 6.0 - flexibility(face, available)))
                weights[face] = TILE_WEIGHT + number + edge + stiff
        return weights

    def _banked_play(self, seat: RearrangeSeatView, full: Solution) -> Solution | None:
        """A play that keeps the rack's own complete sets back (they can go down as new sets on any later
        turn, and meanwhile give the others nothing to build with): the best play of the other tiles, or,
        when those place nothing, the smallest of the sets. None when the rack has no set to keep, or
        keeping them would cost other tiles."""
        own = solve_opening(seat.rack, minimum=0)
        if own is None:
            return None
        sets = own.table
        kept = [tile for meld in sets for tile in meld]
        rest = solve(seat.table, seat.rack, keep=kept)
        if rest is None:
            smallest = min(sets, key=lambda meld: (len(meld), sum(rack_value(tile) for tile in meld)))
            return Solution(smallest, (*seat.table, smallest), 0, 0)
        if len(rest.placed) + len(kept) < len(full.placed):
            return None  # the sets help place other tiles: play them
        return rest

    def _threatened(self, seat: RearrangeSeatView) -> bool:
        return any(seat.tiles[other] <= self.weights.dump_below for other in seat.others())

    def _with_reserve(self, seat: RearrangeSeatView, full: Solution) -> Solution:
        """The best play that still holds back up to `reserve` of the tiles `full` places, each of which the
        new table takes next turn."""
        kept: list[Tile] = []
        best = full
        order = sorted(set(full.placed), key=lambda tile: (not tile.is_joker, -rack_value(tile), tile.key))
        for tile in order[: self.weights.tries]:
            if len(kept) >= self.weights.reserve:
                break
            trial = [*kept, tile]
            play = solve(seat.table, seat.rack, keep=trial)
            if play is None or len(play.placed) < len(full.placed) - len(trial):
                continue  # holding it back would cost other tiles too
            later = solve(play.table, trial)
            if later is None or len(later.placed) < len(trial):
                continue
            kept, best = trial, play
        return best

    def _opening_table(self, seat: RearrangeSeatView, opening: Solution) -> tuple[Faces, ...]:
        """The opening's table with only the fewest new sets that reach 30 (the rest stay on the rack)."""
        new_sets = opening.table[len(seat.table) :]
        if not self.weights.small_opening or len(new_sets) <= 1 or len(opening.placed) == len(seat.rack):
            return opening.table
        best: tuple[tuple[int, int], Sequence[Faces]] | None = None
        for size in range(1, len(new_sets) + 1):
            for chosen in combinations(new_sets, size):
                points = sum(read_meld(meld).points for meld in chosen)
                if points < OPENING_MINIMUM:
                    continue
                key = (sum(len(meld) for meld in chosen), -points)
                if best is None or key < best[0]:
                    best = (key, chosen)
        return opening.table if best is None else (*seat.table, *best[1])


def _availability(seat: RearrangeSeatView) -> Counter[Tile]:
    """How many copies of each face could take part in a set with a rack tile later: those on the table and
    on the rack count fully, hidden ones (another rack or the pool) half. Doubled, to stay in integers."""
    seen = Counter(seat.rack) + Counter(tile for meld in seat.table for tile in meld)
    available: Counter[Tile] = Counter()
    for colour in COLOURS:
        for number in range(1, 14):
            face = Tile(colour, number)
            available[face] = 2 * seen[face] + (2 - seen[face])
    return available


def flexibility(face: Tile, available: Counter[Tile]) -> float:
    """Roughly how many sets `face` could still join: each run of three through it and each group of three
    with it, counted by the scarcer of the two other faces it needs (availability is doubled: see
    `_availability`, so 4 means both copies at hand)."""
    assert face.colour is not None and face.number is not None
    number = face.number
    total = 0.0
    for start in range(max(1, number - 2), min(number, 11) + 1):
        others = [Tile(face.colour, value) for value in range(start, start + 3) if value != number]
        total += min(available[other] for other in others) / 4
    colours = [colour for colour in COLOURS if colour is not face.colour]
    for first, second in combinations(colours, 2):
        total += min(available[Tile(first, number)], available[Tile(second, number)]) / 4
    return total


def _placed(seat: RearrangeSeatView, table: Sequence[Faces]) -> Faces:
    """The rack tiles a new table holds beyond the view's table."""
    placed = Counter(tile for meld in table for tile in meld)
    placed.subtract(tile for meld in seat.table for tile in meld)
    return tuple(sorted(placed.elements(), key=lambda tile: tile.key))
