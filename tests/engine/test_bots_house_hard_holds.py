"""The house Hard bot keeps back a lay-off at a run's end until it goes out (issue 18), as it keeps its
complete melds: laying it would only move the place to the next face and open that one to the others."""

from __future__ import annotations

import random

from apps.engine.house import RULES
from apps.engine.house.bots.hard import HardHouseBot, HardWeights
from apps.engine.house.moves import Discard, LayOff
from apps.engine.house.positions import position
from apps.engine.tiles import Tile

OTHER = "r1 r2 b5 b9 k3 k4 y11"


def test_hard_keeps_back_a_run_end_until_it_goes_out() -> None:
    state = position(["r8 k2 y9 b4 y10", OTHER], melds=[(1, "r5 r6 r7"), (1, "k9 k10 k11")], discards="r8 b1", opened=[0, 1])
    move = HardHouseBot().next_move(RULES.view_for(state, 0), random.Random(0))
    assert isinstance(move, Discard) and move.tile != Tile.parse("r8")
    without = HardHouseBot(HardWeights(hold_lay_offs=False)).next_move(RULES.view_for(state, 0), random.Random(0))
    assert without == LayOff(0, (), (Tile.parse("r8"),))


def test_hard_lays_off_a_run_end_near_the_end_of_the_pile_or_with_only_its_twin_seen_when_told() -> None:
    state = position(["r8 k2 y9 b4 y10", OTHER], melds=[(1, "r5 r6 r7"), (1, "k9 k10 k11")], discards="b1", opened=[0, 1], pile_size=4)
    assert HardHouseBot().next_move(RULES.view_for(state, 0), random.Random(0)) == LayOff(0, (), (Tile.parse("r8"),))
    state = position(["r8 k2 y9 b4 y10", OTHER], melds=[(1, "r5 r6 r7"), (1, "k9 k10 k11")], discards="b1", opened=[0, 1])
    twin_only = HardHouseBot(HardWeights(hold_hidden=False))
    assert twin_only.next_move(RULES.view_for(state, 0), random.Random(0)) == LayOff(0, (), (Tile.parse("r8"),))


def test_hard_lays_off_on_a_set_and_when_it_goes_out() -> None:
    # A fourth colour closes the set (no place left for the others): laid at once.
    state = position(["y9 k2 r12 b4 y3", OTHER], melds=[(1, "r9 b9 k9"), (1, "k5 k6 k7")], discards="y9 b1", opened=[0, 1])
    move = HardHouseBot().next_move(RULES.view_for(state, 0), random.Random(0))
    assert move == LayOff(0, (), (Tile.parse("y9"),))
    # Going out this turn: the held tile goes down too.
    state = position(["r8 k2", OTHER], melds=[(1, "r5 r6 r7")], discards="r8 b1", opened=[0, 1])
    move = HardHouseBot().next_move(RULES.view_for(state, 0), random.Random(0))
    assert move == LayOff(0, (), (Tile.parse("r8"),))
