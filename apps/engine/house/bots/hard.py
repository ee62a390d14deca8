"""The Hard bot of the house game (SPEC 7, issue 5): plays to win. A game is a race (whoever goes out
first wins it about 98% of the time), so it plays to empty its rack first.

Each call plans the rest of the turn from the view and plays its first step:

- Draw step: take the last discard when a new meld with it leaves fewer tiles on the rack at the end of
  the turn than drawing would (counting the drawn tile as one more); otherwise draw. On a tie it draws:
  the new meld would give the others places to lay off.
- Before opening: open as soon as the rack can, with the fewest melds that reach 45 with a run (the rest
  stay on the rack). Until then discard the tile that keeps the rack the fewest tiles from opening, then
  keeps the most hidden tiles that bring it a tile nearer (`house_open`, issue 18); among those equal it
  keeps the tiles that fit a meld on the table (they go down from the turn after it opens). When the rack
  is too far to say, the older rule: never break a complete meld of the rack's richest partition; once
  those melds reach 20 points, discard the tile whose loss leaves the most hidden tiles that would open next
  turn; otherwise the tile with the fewest hidden tiles completing a partial meld with it (high tiles
  count a little more: they reach 45 sooner).
- After opening: take every joker it can; then find the partition of the rack into melds that, with
  lay-offs on the table, places the most tiles. It goes out as soon as it can (by discarding a joker
  when it holds one: x2). Otherwise it lays off what fits but keeps its complete melds on the rack
  ("banks" them): they go down on the turn it goes out, and meanwhile give the others no new places to lay
  off (it stops banking near the end of the pile). So it keeps back lay-offs at a run's end too (issue
  18): laying one only moves the place to the next face and opens that one to the others.
- Discard, once open: a one-draw look-ahead over the few tiles least worth keeping: keep the rack that
  places the most tiles next turn (going out counts extra), on average over every hidden tile it may
  draw, less the chance the next player (if open) could take the discard into a meld. Never a joker
  unless it goes out with it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from apps.engine.game import JSON, Draw, Move
from apps.engine.house.bots.open import expected_draws, rate_discards
from apps.engine.house.bots.plan import (
    Faces,
    Partition,
    completions,
    face_key,
    greedy_lay_offs,
    partitions,
    tile_value,
    unseen_counts,
)
from apps.engine.house.bots.view import SeatView, public_state
from apps.engine.house.helpers import find_opening, joker_takes, lay_off_spots, take_discard_moves
from apps.engine.house.melds import Meld, MeldKind, opening_check, rack_penalty, read_meld
from apps.engine.house.moves import Discard, Lay, LayOff, TakeDiscard
from apps.engine.house.state import Phase
from apps.engine.tiles import COLOURS, JOKER, Tile

#: How many of the best partitions (by tiles, then points) are tried with lay-offs.
PARTITIONS_TRIED = 24


@dataclass(frozen=True, slots=True)
class Plan:
    """The rest of a turn: new melds to lay, then lay-offs (on the table after those melds), then what is
    left on the rack (one of which is discarded)."""

    melds: tuple[Meld, ...]
    lay_offs: tuple[LayOff, ...]
    left: Faces

    @property
    def placed(self) -> int:
        return sum(len(meld.tiles) for meld in self.melds) + sum(len(lay_off.tiles) for lay_off in self.lay_offs)

    @property
    def points(self) -> int:
        return sum(meld.points for meld in self.melds)

    def rank(self) -> tuple[int, int, int, int]:
        goes_out = len(self.left) == 1
        by_joker = goes_out and self.left[0].is_joker
        return (goes_out + by_joker, self.placed, self.points, -sum(rack_penalty(tile) for tile in self.left))


def best_plan(rack: Sequence[Tile], table: Sequence[Faces], *, may_lay_off: bool, keep: int = 1) -> Plan:
    """The plan that places the most tiles (going out first, by a joker best), then the most points,
    keeping at least `keep` tiles (one to discard)."""
    best: Plan | None = None
    racks = [rack]
    if JOKER in rack and keep:
        # Keeping a joker back to discard it last doubles the points of going out.
        without = list(rack)
        without.remove(JOKER)
        racks.append(without)
    for candidate_rack in racks:
        reserved = len(candidate_rack) < len(rack)
        found = partitions(candidate_rack, keep=0 if reserved else keep)
        found.sort(key=lambda part: (-part.tiles, -part.points))
        for partition in found[:PARTITIONS_TRIED]:
            plan = _plan_of(partition, table, may_lay_off, keep=0 if reserved else keep)
            if reserved:
                plan = Plan(plan.melds, plan.lay_offs, (*plan.left, JOKER))
                if len(plan.left) > 1:
                    continue  # keeping the joker back is only for going out now
            if best is None or plan.rank() > best.rank():
                best = plan
    assert best is not None
    return best


def _plan_of(partition: Partition, table: Sequence[Faces], may_lay_off: bool, keep: int) -> Plan:
    if not may_lay_off:
        return Plan(partition.melds, (), partition.rest)
    melds = [*table, *(meld.tiles for meld in partition.melds)]
    lay_offs, left = greedy_lay_offs(melds, partition.rest, keep=keep)
    return Plan(partition.melds, tuple(lay_offs), left)


@dataclass(frozen=True, slots=True)
class HardWeights:
    """The Hard bot's tunable weights (benchmarks compare variants; `HardHouseBot()` uses the defaults)."""

    penalty_open: float = 0.1  # once open, a tile's rack penalty (only the score: the race is what wins)
    penalty_closed: float = 0.3  # before opening, high tiles help reach 45
    fits_table: float = 40.0  # a tile that can be laid off next turn
    fits_closed: float = 40.0  # before opening, a tile that fits the table (laid off from the turn after opening)
    feed: float = 1.0  # what feeding the next player a meld costs, in tiles placed (times the chance)
    hold_back: int = 0  # hold the opening back while nobody has opened or holds this few tiles (0: never)
    bank: bool = True  # once open, keep new complete melds on the rack until going out
    bank_opening: bool = True  # ... and open with the fewest melds that open
    bank_until: int = 0  # ... unless another player holds this few tiles
    bank_pile: int = 6  # ... or the pile holds fewer tiles than this
    hold_lay_offs: bool = True  # ... and keep back lay-offs at a run's end, when their twin is in sight
    hold_hidden: bool = True  # ... or hidden too (another player may then take the place first)
    lookahead: bool = True  # once open, discard by the tiles expected to be placed next turn
    lookahead_candidates: int = 4  # ... trying this many discards (the least worth keeping)
    take_factor: float = 1.0  # a tile that completes a kept pair may also come as the last discard
    out_bonus: float = 3.0  # in that look-ahead, going out next turn counts as this many more tiles
    protect_melds: bool = True  # before opening, never break a complete meld of the best partition
    outs_from: int = 20  # ... and once its melds reach this, discard to keep the most draws that open
    outs_candidates: int = 4  # ... trying this many discards
    take_margin: int = 1  # take the last discard only when it leaves at least this many tiles fewer than drawing
    take_expected: bool = False  # ... than drawing leaves on average over the hidden tiles (not counting the drawn tile as one more)
    take_expected_margin: float = 0.5  # ... by this much
    open_plans: bool = True  # before opening, discard by the distance to opening and the draws that shorten it
    open_depth: int = 1  # ... looking this many draws ahead (1 or 2) when two or more tiles from opening
    open_candidates: int = 4  # ... among this many discards
    race_samples: int = 0  # once open, among close discards add the chance of going out in two turns, over this many sampled draws
    race_candidates: int = 3  # ... for this many of the best discards by the look-ahead
    race_window: float = 1.0  # ... within this much of the best look-ahead value
    race_weight: float = 3.0  # ... the chance counted as this many tiles
    race_second: float = 1.0  # ... going out on the second turn counted this much (the first: 1)


class HardHouseBot:
    level = "hard"

    def __init__(self, weights: HardWeights | None = None) -> None:
        self.weights = weights or HardWeights()

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        seat = SeatView.of(view)
        if seat.phase is Phase.DRAW:
            return self._draw_step(seat)
        if not seat.has_opened:
            partitions_now = partitions(seat.rack)
            openings = [part for part in partitions_now if part.opens]
            if openings:
                opening = max(openings, key=lambda part: (part.tiles, part.points))
                if self._opens_now(seat, opening):
                    return Lay(tuple(meld.tiles for meld in self._opening_melds(seat, opening)))
            if self.weights.open_plans:
                by_plans = self._discard_by_plans(seat)
                if by_plans is not None:
                    return Discard(by_plans)
            candidates: Sequence[Tile] = seat.rack
            if self.weights.protect_melds:
                richest = max(partitions_now, key=lambda part: (part.points, part.has_run, part.tiles))
                candidates = richest.rest
                if richest.points >= self.weights.outs_from:
                    by_outs = self._discard_by_outs(seat, candidates)
                    if by_outs is not None:
                        return Discard(by_outs)
            return Discard(self._discard(seat, candidates))
        if seat.opened_before and len(seat.rack) > 1:
            takes = joker_takes(public_state(seat), seat.seat)
            if takes:
                return takes[0]
        plan = best_plan(seat.rack, seat.table, may_lay_off=seat.opened_before)
        banked: Faces = ()
        if plan.melds and self._banks(seat, plan):
            # Keep the complete melds on the rack (they go down on the turn it goes out): no new places
            # on the table for the others to lay off. Lay off only the other tiles.
            banked = tuple(tile for meld in plan.melds for tile in meld.tiles)
            rest = list(seat.rack)
            for tile in banked:
                rest.remove(tile)
            lay_offs, left = greedy_lay_offs(seat.table, rest, keep=1) if seat.opened_before else ([], tuple(rest))
            plan = Plan((), tuple(lay_offs), left)
        if self.weights.hold_lay_offs and not plan.melds and plan.lay_offs and len(plan.left) > 1 and self._holds(seat):
            plan, held = self._hold_lay_offs(seat, plan, banked)
            banked = (*banked, *held)
        if plan.melds:
            return Lay(tuple(meld.tiles for meld in plan.melds))
        if plan.lay_offs:
            return plan.lay_offs[0]
        if self.weights.lookahead and len(seat.rack) > 1:
            return Discard(self._discard_by_lookahead(seat, plan.left, banked))
        return Discard(self._discard(seat, plan.left))

    def _banks(self, seat: SeatView, plan: Plan) -> bool:
        """Whether to keep the plan's new melds on the rack this turn: not when they take it out, nor when
        another player runs low on tiles (then every tile on the rack costs points)."""
        if not self.weights.bank or len(plan.left) <= 1 or seat.pile < self.weights.bank_pile:
            return False
        return min(seat.tiles[other] for other in seat.next_seats()) > self.weights.bank_until

    def _holds(self, seat: SeatView) -> bool:
        """Whether it may hold tiles back this turn (as for banking melds)."""
        if seat.pile < self.weights.bank_pile:
            return False
        return min(seat.tiles[other] for other in seat.next_seats()) > self.weights.bank_until

    def _hold_lay_offs(self, seat: SeatView, plan: Plan, banked: Sequence[Tile]) -> tuple[Plan, Faces]:
        """Keep back the lay-offs at a run's end whose face no one else can hold (its twin is in sight):
        the place stays for this seat alone, and laying it would open the next place to the others. The
        other tiles are laid off as planned."""
        unseen = unseen_counts([*seat.rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        rest = list(seat.rack)
        for tile in banked:
            rest.remove(tile)
        held: list[Tile] = []
        for tile in sorted(set(rest), key=face_key):
            if tile.is_joker or (unseen[tile] and not self.weights.hold_hidden) or rest.count(tile) > 1:
                continue
            spots = lay_off_spots(seat.table, tile)
            if spots and all(read_meld(seat.table[spot.meld]).kind is MeldKind.RUN for spot in spots):
                held.append(tile)
        if not held:
            return plan, ()
        for tile in held:
            rest.remove(tile)
        lay_offs, left = greedy_lay_offs(seat.table, rest, keep=1)
        if len(left) + len(held) <= 1:
            return plan, ()
        return Plan((), tuple(lay_offs), left), tuple(held)

    def _opening_melds(self, seat: SeatView, opening: Partition) -> tuple[Meld, ...]:
        """The melds to open with: all of them when that goes out; when banking, the fewest that open,
        leaving the others the fewest places to lay off."""
        if not self.weights.bank or not self.weights.bank_opening or len(opening.rest) <= 1:
            return opening.melds
        unseen = unseen_counts([*seat.rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        best: tuple[tuple[int, int, int], tuple[Meld, ...]] | None = None
        melds = opening.melds
        for mask in range(1, 1 << len(melds)):
            chosen = tuple(meld for index, meld in enumerate(melds) if mask >> index & 1)
            check = opening_check(chosen)
            if not check.qualifies:
                continue
            spots = sum(unseen[face] for face in _spot_faces([meld.tiles for meld in chosen]))
            key = (spots, sum(len(meld.tiles) for meld in chosen), -check.points)
            if best is None or key < best[0]:
                best = (key, chosen)
        return opening.melds if best is None else best[1]

    def _opens_now(self, seat: SeatView, opening: Partition) -> bool:
        """Hold the opening back while it is safe (nobody else has opened, nobody is running low, the
        opening would leave many tiles); open when others run low on tiles."""
        hold = self.weights.hold_back
        if not hold:
            return True
        others = [other for other in seat.next_seats()]
        if any(seat.opened[other] for other in others):
            return True
        if min(seat.tiles[other] for other in others) <= hold:
            return True
        return len(seat.rack) - opening.tiles <= 3 or seat.pile < 20

    # -- drawing ---------------------------------------------------------------------------------------

    def _draw_step(self, seat: SeatView) -> Move:
        if "take" not in seat.actions:
            return Draw()
        takes = take_discard_moves(public_state(seat), seat.seat)
        if not takes:
            return Draw()
        # Drawing: the rack gains an unknown tile; count it as one more tile left at the end of the turn
        # (or, weighing the draw, the tiles left on average over the hidden tiles).
        drawn_left: float = len(best_plan(seat.rack, seat.table, may_lay_off=True).left) + 1
        if self.weights.take_expected:
            drawn_left = self._expected_left(seat, drawn_left)
        best: tuple[int, TakeDiscard] | None = None
        top = seat.top_discard
        for take in takes:
            rack = list(seat.rack)
            used = list(take.meld)
            if top in used:
                used.remove(top)
            for tile in used:
                rack.remove(tile)
            plan = best_plan(rack, [*seat.table, take.meld], may_lay_off=True)
            left = len(plan.left)
            if best is None or left < best[0]:
                best = (left, take)
        margin = self.weights.take_expected_margin if self.weights.take_expected else self.weights.take_margin
        if best is not None and best[0] + margin <= drawn_left:
            return best[1]
        return Draw()

    def _expected_left(self, seat: SeatView, plain: float) -> float:
        """The tiles left at the end of the turn after drawing, on average over the hidden tiles (a tile
        that neither fits the table nor makes a meld with the rack stays: `plain`)."""
        unseen = unseen_counts([*seat.rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        hidden = max(1, sum(unseen.values()))
        relevant: set[Tile] = {JOKER}
        relevant.update(face for face in unseen if lay_off_spots(seat.table, face))
        rack = seat.rack
        for i, a in enumerate(rack):
            for b in rack[i + 1 :]:
                relevant.update(completions(a, b))
        if JOKER in rack:
            relevant.update(face for a in rack if not a.is_joker for face in _partners(a))
        total = 0.0
        chance_left = 1.0
        for face in sorted(relevant, key=face_key):
            if not unseen[face]:
                continue
            chance = unseen[face] / hidden
            chance_left -= chance
            total += chance * len(best_plan([*rack, face], seat.table, may_lay_off=True).left)
        return total + max(0.0, chance_left) * plain

    # -- discarding -----------------------------------------------------------------------------------

    def _discard_by_lookahead(self, seat: SeatView, left: Sequence[Tile], banked: Sequence[Tile] = ()) -> Tile:
        """Once open: keep the tiles that place the most next turn, over every tile it may draw (the few
        tiles least worth keeping by `_keep_value` are the candidates)."""
        candidates = sorted({tile for tile in left if not tile.is_joker}, key=lambda tile: tile.key)
        if not candidates:
            return left[0]
        if len(candidates) == 1:
            return candidates[0]
        unseen = unseen_counts([*seat.rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        hidden = max(1, sum(unseen.values()))
        keep_value = self._keep_value(seat, unseen, hidden)
        candidates = sorted(candidates, key=keep_value)[: self.weights.lookahead_candidates]
        fits_table = [face for face in unseen if lay_off_spots(seat.table, face)]
        scored: list[tuple[float, float, Tile]] = []
        for tile in candidates:
            kept = [*banked, *left]
            kept.remove(tile)
            value = self._expected_placed(kept, seat.table, unseen, hidden, fits_table)
            value -= self.weights.feed * self._feed(seat, tile, unseen, hidden)
            scored.append((value, rack_penalty(tile) * self.weights.penalty_open, tile))
        # The best first (a stable sort: the first of equals stays first).
        scored.sort(key=lambda key: (-key[0], -key[1]))
        if self.weights.race_samples and len(scored) > 1 and seat.pile >= 2:
            top = [key for key in scored[: self.weights.race_candidates] if key[0] >= scored[0][0] - self.weights.race_window]
            if len(top) > 1:
                return self._discard_by_race(seat, [key[2] for key in top], [key[0] for key in top], left, banked, unseen)
        return scored[0][2]

    def _discard_by_race(
        self,
        seat: SeatView,
        tiles: Sequence[Tile],
        values: Sequence[float],
        left: Sequence[Tile],
        banked: Sequence[Tile],
        unseen: Counter[Tile],
    ) -> Tile:
        """Among close discards: add the chance of going out within two turns, over sampled draws of the
        hidden tiles (the same draws for every candidate; seeded by the view, so the same in every
        process): after the first draw it plans, discards its least useful tile left, draws again."""
        hidden = sorted(unseen.elements(), key=face_key)
        rng = random.Random(f"{seat.turn_no}:{' '.join(str(tile) for tile in seat.rack)}")
        samples = [tuple(rng.sample(hidden, 2)) for _ in range(self.weights.race_samples)]
        best: tuple[float, Tile] | None = None
        for tile, value in zip(tiles, values, strict=True):
            kept = [*banked, *left]
            kept.remove(tile)
            outs = 0.0
            for first, second in samples:
                plan = best_plan([*kept, first], seat.table, may_lay_off=True)
                if len(plan.left) <= 1:
                    outs += 1.0
                    continue
                rack = [*kept, first]
                rack.remove(_least_useful(plan.left, rack, unseen))
                if len(best_plan([*rack, second], seat.table, may_lay_off=True).left) <= 1:
                    outs += self.weights.race_second
            total = value + self.weights.race_weight * outs / len(samples)
            if best is None or total > best[0]:
                best = (total, tile)
        assert best is not None
        return best[1]

    @staticmethod
    def _feed(seat: SeatView, tile: Tile, unseen: Counter[Tile], hidden: int) -> float:
        """The chance the next player, if open, can take `tile` into a new meld."""
        following = seat.next_seats()
        if not following or not seat.opened[following[0]]:
            return 0.0
        return _feed_chance(tile, unseen, seat.tiles[following[0]] / hidden)

    def _expected_placed(
        self, kept: Sequence[Tile], table: Sequence[Faces], unseen: Counter[Tile], hidden: int, fits_table: Sequence[Tile]
    ) -> float:
        """The tiles of `kept` plus one drawn tile that the next turn places, on average over the draw."""
        def value(plan: Plan) -> float:
            return plan.placed + (self.weights.out_bonus if len(plan.left) <= 1 else 0.0)

        # A draw that helps nothing is discarded: the kept tiles alone, all of them may go.
        plain_plan = best_plan(kept, table, may_lay_off=True, keep=0)
        plain_placed = plain_plan.placed
        plain = value(plain_plan)
        has_joker = JOKER in kept
        relevant: set[Tile] = set(fits_table)
        relevant.add(JOKER)
        if JOKER in kept:
            relevant.update(face for a in kept if not a.is_joker for face in _partners(a))
        completing: set[Tile] = set()
        for i, a in enumerate(kept):
            for b in kept[i + 1 :]:
                completing.update(completions(a, b))
        relevant.update(completing)
        # A drawn tile that fits the table and has nothing to do with the kept tiles just goes down too.
        alone = min(plain_placed + 1, len(kept))
        fits_alone = alone + (self.weights.out_bonus if alone == len(kept) else 0.0)
        total = 0.0
        chance_left = 1.0
        for face in sorted(relevant, key=face_key):  # a fixed order: the float sums must not follow set order
            if not unseen[face]:
                continue
            chance = unseen[face] / hidden
            if face in completing:
                chance *= self.weights.take_factor
            chance_left -= chance
            if face in completing or face.is_joker or has_joker or _near(face, kept):
                total += chance * value(best_plan([*kept, face], table, may_lay_off=True))
            else:
                total += chance * fits_alone
        return total + max(0.0, chance_left) * plain

    def _keep_value(self, seat: SeatView, unseen: Counter[Tile], hidden: int) -> Callable[[Tile], float]:
        """A quick measure of how much a rack tile is worth keeping: the hidden tiles that would complete a
        partial meld with it, a sure lay-off next turn (before opening: a tile that fits the table, laid off
        from the turn after opening), its penalty (once open) or its opening value (before), and the chance
        the next player could take it."""
        rack = seat.rack
        weights = self.weights
        counts = Counter(rack)
        opened = seat.has_opened
        fitting: set[Tile] = set()
        if opened:
            lay_offs, left = greedy_lay_offs(seat.table, rack, keep=0)
            fitting = set(rack) - set(left) if lay_offs else set()
        elif weights.fits_closed:
            fitting = {tile for tile in rack if not tile.is_joker and lay_off_spots(seat.table, tile)}

        def keep_value(tile: Tile) -> float:
            value = 0.0 if counts[tile] > 1 else tile_value(tile, rack, unseen)
            if opened:
                value -= rack_penalty(tile) * weights.penalty_open
                if tile in fitting:
                    value += weights.fits_table
            else:
                value += rack_penalty(tile) * weights.penalty_closed
                if tile in fitting:
                    value += weights.fits_closed
            return value + 20 * weights.feed * self._feed(seat, tile, unseen, hidden)

        return keep_value

    def _discard_by_plans(self, seat: SeatView) -> Tile | None:
        """Before opening: the discard that keeps the rack fewest tiles from opening, then keeps the most
        hidden tiles that bring it nearer (`house_open`); among equals the one least worth keeping. None
        when the rack is too far from opening to say."""
        unseen = unseen_counts([*seat.rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        ratings = rate_discards(seat.rack, unseen, seat.rack)
        if not ratings:
            return None
        keep_value = self._keep_value(seat, unseen, max(1, sum(unseen.values())))
        ranked = sorted(ratings, key=lambda rating: (rating.distance, -rating.useful, keep_value(rating.tile), -rack_penalty(rating.tile), rating.tile.key))
        depth = self.weights.open_depth
        if depth < 2 or ranked[0].distance < 2:
            return ranked[0].tile
        near = [rating for rating in ranked if rating.distance == ranked[0].distance][: self.weights.open_candidates]
        # Two draws ahead: the fewest expected draws to open (a stable sort keeps the order above on ties).
        return min(near, key=lambda rating: round(expected_draws(seat.rack, unseen, rating), 6)).tile

    def _discard_by_outs(self, seat: SeatView, candidates: Sequence[Tile]) -> Tile | None:
        """Close to opening: the discard (among the few least worth keeping) that leaves the most hidden
        tiles with which the rack opens next turn; None when none leaves any."""
        unseen = unseen_counts([*seat.rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        keep_value = self._keep_value(seat, unseen, max(1, sum(unseen.values())))
        pool = sorted({tile for tile in candidates if not tile.is_joker}, key=lambda tile: (keep_value(tile), tile.key))
        pool = pool[: self.weights.outs_candidates]
        best: tuple[int, Tile] | None = None
        for tile in pool:
            kept = list(seat.rack)
            kept.remove(tile)
            relevant: set[Tile] = {JOKER}
            for i, a in enumerate(kept):
                for b in kept[i + 1 :]:
                    relevant.update(completions(a, b))
            outs = sum(unseen[face] for face in relevant if unseen[face] and find_opening([*kept, face], limit=400))
            if outs and (best is None or outs > best[0]):
                best = (outs, tile)
        return None if best is None else best[1]

    def _discard(self, seat: SeatView, candidates: Sequence[Tile]) -> Tile:
        rack = seat.rack
        if len(rack) == 1:
            return rack[0]
        pool = [tile for tile in candidates if not tile.is_joker] or [tile for tile in rack if not tile.is_joker]
        if not pool:
            return rack[0]
        unseen = unseen_counts([*rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        keep_value = self._keep_value(seat, unseen, max(1, sum(unseen.values())))
        return min(pool, key=lambda tile: (keep_value(tile), -rack_penalty(tile), -(tile.number or 0), tile.key))


def _least_useful(left: Sequence[Tile], rack: Sequence[Tile], unseen: Counter[Tile]) -> Tile:
    """A quick discard among `left`: the tile completing the fewest partial melds on `rack`, a joker last."""
    return min(left, key=lambda tile: (tile.is_joker, tile_value(tile, rack, unseen), -rack_penalty(tile), tile.key))


def _near(face: Tile, tiles: Sequence[Tile]) -> bool:
    """Whether `face` could share a meld with one of `tiles` (same number, or same colour within two)."""
    for tile in tiles:
        if tile.number == face.number:
            return True
        if tile.colour is face.colour and tile.number is not None and face.number is not None:
            gap = abs(tile.number - face.number)
            if gap <= 2 or gap >= 11:
                return True
    return False


def _spot_faces(melds: Sequence[Faces]) -> set[Tile]:
    """The faces that could be laid off on these melds."""
    faces: set[Tile] = set()
    for meld in melds:
        read = read_meld(meld)
        if read.kind is MeldKind.SET:
            faces.update(Tile(colour, read.start) for colour in COLOURS if Tile(colour, read.start) not in meld)
        else:
            assert read.colour is not None
            if read.start > 1:
                faces.add(Tile(read.colour, read.start - 1))
            if read.end < 14:
                faces.add(Tile(read.colour, read.end + 1 if read.end < 13 else 1))
    return faces


def _feed_chance(tile: Tile, unseen: Counter[Tile], share: float) -> float:
    """Roughly how likely the next player holds two tiles that make a meld with `tile`."""
    if tile.is_joker:
        return 1.0
    chance = 0.0
    for a in _partners(tile):
        for b in completions(tile, a):
            if a.key < b.key:
                chance += min(1.0, unseen[a] * share) * min(1.0, unseen[b] * share)
    return min(chance, 1.0)


def _partners(tile: Tile) -> list[Tile]:
    """The faces that make a partial meld with `tile`."""
    assert tile.colour is not None and tile.number is not None
    faces = [Tile(colour, tile.number) for colour in COLOURS if colour is not tile.colour]
    for number in (tile.number - 2, tile.number - 1, tile.number + 1, tile.number + 2):
        if 1 <= number <= 13:
            faces.append(Tile(tile.colour, number))
    if tile.number in (12, 13):
        faces.append(Tile(tile.colour, 1))
    if tile.number == 1:
        faces.extend(Tile(tile.colour, number) for number in (12, 13))
    return [face for face in faces if completions(tile, face)]
