"""Learning from a game (SPEC 13 "Review", "Hints"): the best play the engine finds for a turn, from what
the seat could see at that moment.

    review(record) -> Review        every turn of a game record: what the seat played, the best play
                                    from its views, whether (and by how many tiles and points) it missed
    hint(view) -> Suggestion        the best play for the seat to move, from its view only

| module | what |
|---|---|
| `plays.py` | `Suggestion`: a play as moves in notation, the tiles it places, what it is worth |
| `turns.py` | a record cut into turns, each with its seat's views (never the state) |
| `report.py` | `review`, `hint`, the review's types and each game's judge, looked up by slug |
| `steps.py` | every position of a finished game, all racks shown, for the site's replay viewer |
| `command.py` | the `review` and `hint` sub-commands of `python -m apps.engine` |

Each game's own search lives in its package: `apps/engine/house/review.py` (an exact search of a turn:
opening, jokers, lay-offs, new melds, taking the last discard) and `apps/engine/rearrange/review.py` (the
exact solver's best play or opening: the review's one import of the solver).
"""

from __future__ import annotations

from apps.engine.review.plays import Suggestion
from apps.engine.review.report import Review, SeatSummary, TurnReview, hint, review

__all__ = ["Review", "SeatSummary", "Suggestion", "TurnReview", "hint", "review"]
