"""What the trainer's page receives of a puzzle: the position as the table page's `state` frame of seat 0
at the start of its turn (the same view the engine gives a player, `Rules.view_for`), so the page draws it
with the table's own modules. Never the solution (tests/puzzles/test_answers.py checks every response).

How a game's answer is sent (`ANSWER`): Rearrange's is the whole table as the player leaves it, checked
at once ("table"); the house game's is the turn's moves, one at a time ("moves"): the page sends the
moves so far with each new one (`view_after`) and gets the view after them, as a table would send it; the
discard that ends the turn is the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from apps.engine.errors import EngineError
from apps.engine.game import JSON
from apps.engine.house.moves import Discard
from apps.engine.house.rules import RULES as HOUSE
from apps.engine.puzzles.house import state_of as house_state
from apps.engine.rearrange.positions import position as rearrange_position
from apps.engine.rearrange.rules import RULES as REARRANGE
from apps.puzzles.models import Puzzle

ANSWER = {REARRANGE.slug: "table", HOUSE.slug: "moves"}
#: The most moves a turn of a puzzle may take (a rack of 15 tiles: far fewer than this).
MAX_MOVES = 40


class StepRefused(ValueError):
    """A move of the turn cannot be read, or the rules refuse it: the page shows it, nothing changes."""


def _rearrange_view(puzzle: Puzzle) -> JSON:
    """Seat 0's view, its turn, the only action a play (no pool to draw from)."""
    position = puzzle.position
    state = rearrange_position([position["rack"], ""], table=" | ".join(position["table"]), opened=[0, 1], pool_size=0)
    view = REARRANGE.view_for(state, 0)
    view["actions"] = ["play"]
    return view


def view_of(puzzle: Puzzle) -> JSON:
    if puzzle.game == REARRANGE.slug:
        return _rearrange_view(puzzle)
    if puzzle.game == HOUSE.slug:
        return view_after(puzzle, [])
    raise ValueError(f"The trainer has no table for the game {puzzle.game!r}")


def view_after(puzzle: Puzzle, moves: Sequence[object]) -> JSON:
    """The house game's view for seat 0 after the turn's `moves` (in notation) from the puzzle's position;
    StepRefused when one cannot be read or is not allowed. The discard ends the turn: it is the answer,
    not a step."""
    if puzzle.game != HOUSE.slug:
        raise StepRefused(_("This puzzle is answered in one play."))
    if len(moves) > MAX_MOVES or not all(isinstance(move, str) and len(move) < 200 for move in moves):
        raise StepRefused(_("The move could not be read."))
    state = house_state(puzzle.position)
    for move in moves:
        try:
            parsed = HOUSE.parse_move(str(move))
            if isinstance(parsed, Discard):
                raise StepRefused(_("The discard ends the turn: it is your answer."))
            state = HOUSE.apply(state, 0, parsed)
        except EngineError:
            raise StepRefused(_("The rules do not allow this move here.")) from None
    return HOUSE.view_for(state, 0)


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
            "seats": [{"index": 0, "name": name}, {"index": 1, "name": _("Another player")}],
            "match": None,
        },
        "view": view_of(puzzle),
        "answer": ANSWER[puzzle.game],
    }
