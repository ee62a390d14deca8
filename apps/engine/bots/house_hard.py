"""The Hard bot of the house game (SPEC 7, issue 5): plays to win.

Each call plans the rest of the turn from the view and plays its first step:

- Draw step: take the last discard when a new meld with it leaves fewer tiles on the rack at the end of
  the turn than drawing would; otherwise draw.
- Before opening: lay the richest opening the rack has (all its melds at once, as many tiles as possible);
  until then keep the tiles that build towards 45 with a run (high tiles and tiles in partial melds: a
  rack that never opens pays a flat -100, so its tiles' own penalties do not matter yet).
- After opening: take every joker it can, then lay the partition of the rack into melds that, together
  with lay-offs on the table, places the most tiles (then the most points); go out when it can, by
  discarding a joker when it holds one (x2).
- Discard: the tile least worth keeping: isolated and expensive first once open; never a tile it could
  lay off next turn, rarely one the next player could take into a meld, never a joker unless going out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from apps.engine.bots.house_plan import (
    Faces,
    Partition,
    completions,
    greedy_lay_offs,
    partitions,
    tile_value,
    unseen_counts,
)
from apps.engine.bots.house_view import SeatView, public_state
from apps.engine.game import JSON, Draw, Move
from apps.engine.house.helpers import joker_takes, lay_off_spots, take_discard_moves
from apps.engine.house.melds import Meld, rack_penalty
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


def best_plan(rack: Sequence[Tile], table: Sequence[Faces], *, may_lay_off: bool) -> Plan:
    """The plan that places the most tiles (going out first, by a joker best), then the most points."""
    best: Plan | None = None
    racks = [rack]
    if JOKER in rack:
        # Keeping a joker back to discard it last doubles the points of going out.
        without = list(rack)
        without.remove(JOKER)
        racks.append(without)
    for candidate_rack in racks:
        reserved = len(candidate_rack) < len(rack)
        found = partitions(candidate_rack, keep=0 if reserved else 1)
        found.sort(key=lambda part: (-part.tiles, -part.points))
        for partition in found[:PARTITIONS_TRIED]:
            plan = _plan_of(partition, table, may_lay_off, keep=0 if reserved else 1)
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


def best_opening(rack: Sequence[Tile]) -> Partition | None:
    """The opening that lays the most tiles (then points), keeping a tile to discard; None if none."""
    openings = [part for part in partitions(rack) if part.opens]
    if not openings:
        return None
    return max(openings, key=lambda part: (part.tiles, part.points))


class HardHouseBot:
    level = "hard"

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        seat = SeatView.of(view)
        if seat.phase is Phase.DRAW:
            return self._draw_step(seat)
        if not seat.has_opened:
            opening = best_opening(seat.rack)
            if opening is not None:
                return Lay(tuple(meld.tiles for meld in opening.melds))
            return Discard(self._discard(seat, seat.rack))
        if seat.opened_before and len(seat.rack) > 1:
            takes = joker_takes(public_state(seat), seat.seat)
            if takes:
                return takes[0]
        plan = best_plan(seat.rack, seat.table, may_lay_off=seat.opened_before)
        if plan.melds:
            return Lay(tuple(meld.tiles for meld in plan.melds))
        if plan.lay_offs:
            return plan.lay_offs[0]
        return Discard(self._discard(seat, plan.left))

    # -- drawing ---------------------------------------------------------------------------------------

    def _draw_step(self, seat: SeatView) -> Move:
        if "take" not in seat.actions:
            return Draw()
        takes = take_discard_moves(public_state(seat), seat.seat)
        if not takes:
            return Draw()
        # Drawing: the rack gains an unknown tile; count it as one more tile left at the end of the turn.
        drawn_left = len(best_plan(seat.rack, seat.table, may_lay_off=True).left) + 1
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
        if best is not None and best[0] <= drawn_left:
            return best[1]
        return Draw()

    # -- discarding -----------------------------------------------------------------------------------

    def _discard(self, seat: SeatView, candidates: Sequence[Tile]) -> Tile:
        rack = seat.rack
        if len(rack) == 1:
            return rack[0]
        pool = [tile for tile in candidates if not tile.is_joker] or [tile for tile in rack if not tile.is_joker]
        if not pool:
            return rack[0]
        unseen = unseen_counts([*rack, *(tile for meld in seat.table for tile in meld), *seat.discards, seat.indicator])
        counts = Counter(rack)
        opened = seat.has_opened
        hidden = sum(unseen.values())
        next_seat = seat.next_seats()[0] if seat.next_seats() else None
        next_rack = seat.tiles[next_seat] if next_seat is not None else 0
        next_takes = next_seat is not None and seat.opened[next_seat]

        def keep_value(tile: Tile) -> float:
            value = 0.0 if counts[tile] > 1 else tile_value(tile, rack, unseen)
            if opened:
                value -= rack_penalty(tile) * 0.6
                if lay_off_spots(seat.table, tile):
                    value += 40  # a sure lay-off next turn
            else:
                value += rack_penalty(tile) * 0.3  # high tiles help reach 45
            if next_takes and hidden:
                value += 60 * _feed_chance(tile, unseen, next_rack / hidden)
            return value

        return min(pool, key=lambda tile: (keep_value(tile), -(tile.number or 0), tile.key))


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
