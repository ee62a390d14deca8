"""What the trainer's page receives of a puzzle: the position as the table page's `state` frame of seat 0
at the start of its turn (the same view the engine gives a player, `Rules.view_for`), so the page draws it
with the table's own modules. Never the solution (tests/puzzles/test_views.py checks every response)."""

from __future__ import annotations

from typing import Any

from apps.engine.game import JSON
from apps.engine.rearrange.positions import position as rearrange_position
from apps.engine.rearrange.rules import RULES as REARRANGE
from apps.puzzles.models import Puzzle


def view_of(puzzle: Puzzle) -> JSON:
    """Seat 0's view of the puzzle's position, its turn, the only action a play (no pool to draw from)."""
    if puzzle.game != REARRANGE.slug:
        raise ValueError(f"The trainer has no table for the game {puzzle.game!r} yet")
    position = puzzle.position
    state = rearrange_position([position["rack"], ""], table=" | ".join(position["table"]), opened=[0, 1], pool_size=0)
    view = REARRANGE.view_for(state, 0)
    view["actions"] = ["play"]
    return view


def frame_of(puzzle: Puzzle, *, name: str) -> dict[str, Any]:
    """The `state` frame the table's modules draw (static/js/game-table.js reads these fields)."""
    return {
        "type": "state",
        "seat": 0,
        "table": {
            "id": f"puzzle-{puzzle.pk}",
            "game": puzzle.game,
            "status": "playing",
            "seat_count": 2,
            "current_game": {"id": puzzle.pk, "turn": 0},
            "seats": [{"index": 0, "name": name}, {"index": 1, "name": ""}],
            "match": None,
        },
        "view": view_of(puzzle),
    }
