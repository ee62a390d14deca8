"""The Greedy bot of the Rearrange game (a benchmark baseline, not offered to players): every turn, the
play that places the most rack tiles according to the exact solver (ties: the most face value); it draws
when it can place nothing. Its first play is the solver's best opening (30 from the rack)."""

from __future__ import annotations

import random

from apps.engine.game import JSON, Draw, Move
from apps.engine.rearrange.bots.view import RearrangeSeatView
from apps.engine.rearrange.moves import Play
from apps.engine.rearrange.solver import solve, solve_opening


class GreedyRearrangeBot:
    level = "greedy"

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        seat = RearrangeSeatView.of(view)
        if seat.has_opened:
            found = solve(seat.table, seat.rack)
        else:
            found = solve_opening(seat.rack, seat.table)
        return Draw() if found is None else Play(found.table)
