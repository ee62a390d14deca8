"""The Rearrange game's best play, from what one seat sees (SPEC 13 "Review", "Hints"): the exact
solver's play that places the most rack tiles (ties: the most face value, a joker counting 30), freed
jokers included; before the seat has opened, the best opening (30 from the rack in new sets, the table
untouched); a draw (a pass with the pool empty) when nothing can be placed.

This module is the review's one door to the solver (`solve`, `solve_opening`, and `TILE_WEIGHT`, the
weight of one tile in its scores, for the tests that compare with a brute force).
"""

from __future__ import annotations

from apps.engine.game import JSON, Draw
from apps.engine.rearrange.bots.view import RearrangeSeatView
from apps.engine.rearrange.melds import rack_value
from apps.engine.rearrange.moves import Play
from apps.engine.rearrange.solver import TILE_WEIGHT, solve, solve_opening
from apps.engine.review.plays import Placed, Suggestion, gone_from
from apps.engine.review.turns import Turn
from apps.engine.tiles import Tile


def best_play(seat: RearrangeSeatView) -> Suggestion:
    """The best turn for the seat whose view this is."""
    found = solve(seat.table, seat.rack) if seat.has_opened else solve_opening(seat.rack, seat.table)
    if found is None:
        return Suggestion((Draw(),), (), 0, 0, seat.table)
    return Suggestion((Play(found.table),), found.placed, len(found.placed), sum(rack_value(tile) for tile in found.placed), found.table)


class RearrangeJudge:
    """The review of one turn of the Rearrange game (see `apps.engine.review.report`)."""

    def played(self, turn: Turn) -> Placed:
        """The rack tiles the turn placed (a draw, or a timeout that put the table back, places none)."""
        faces = gone_from([Tile.parse(face) for face in turn.views[0]["rack"]], [Tile.parse(face) for face in turn.after["rack"]])
        return Placed(len(faces), sum(rack_value(tile) for tile in faces), faces)

    def best(self, turn: Turn) -> Suggestion | None:
        return best_play(RearrangeSeatView.of(turn.views[0]))

    def hint(self, view: JSON) -> Suggestion:
        return best_play(RearrangeSeatView.of(view))


JUDGE = RearrangeJudge()

__all__ = ["JUDGE", "TILE_WEIGHT", "RearrangeJudge", "best_play"]
