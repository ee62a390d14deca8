"""A game record as turns, each with what its seat saw (SPEC 13 "Review").

`turns_of(record)` replays the record and cuts it into turns: a turn is the moves one seat makes while
it is that seat's turn (the house game: draw or take, lay, lay off, discard; the Rearrange game: one
play or draw), with that seat's view (`Rules.view_for`) before each of them and after the last. "I'm
back" is no part of a turn; a seat that stands up during its turn ends it (`left`). The review judges a
turn from these views only, never from the state: no other rack, no pile, no deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from apps.engine.errors import EngineError, InvalidMove
from apps.engine.game import JSON, Back, Leave, Move, Rules, get_rules
from apps.engine.records import GameRecord

#: Moves the table makes for a seat (its clock ran out, or it is on autopilot).
TABLE_MOVES = frozenset({"timeout", "auto"})


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    first: int  # the index in the record's moves of the turn's first move
    last: int  # ... and of its last
    moves: tuple[Move, ...]
    views: tuple[JSON, ...]  # the seat's view before each move of `moves`
    after: JSON  # the seat's view after the last one
    left: bool = False  # the seat stood up during the turn

    @property
    def by_table(self) -> bool:
        """The table played this turn for the seat (a timeout or autopilot before it made any move)."""
        return self.moves[0].kind in TABLE_MOVES


@dataclass
class _Open:
    seat: int
    first: int
    moves: list[Move]
    views: list[JSON]


def turns_of(record: GameRecord) -> Iterator[Turn]:
    """Every turn of the record, in order. Raises InvalidMove naming the first move that fails."""
    rules: Rules[Any] = get_rules(record.game)
    state = rules.from_deal(record.deal)
    current: _Open | None = None
    for index, recorded in enumerate(record.moves):
        try:
            move = rules.parse_move(recorded.move)
            seat = recorded.seat
            own_turn = rules.to_move(state) == seat
            view = rules.view_for(state, seat) if own_turn and not isinstance(move, Back) else None
            state = rules.apply(state, seat, move)
        except EngineError as error:
            raise InvalidMove(
                f"Move {index + 1} ({recorded.move!r} by seat {seat}) fails: {error}",
                "record_move_fails",
                number=index + 1,
                move=recorded.move,
                seat=seat,
                error=error,
            ) from None
        if view is None:
            continue  # "I'm back", or a seat standing up out of its turn
        if isinstance(move, Leave):
            if current is not None and current.seat == seat:
                yield _close(current, index, rules.view_for(state, seat), left=True)
                current = None
            continue
        if current is None:
            current = _Open(seat, index, [], [])
        current.moves.append(move)
        current.views.append(view)
        if rules.to_move(state) != seat:
            yield _close(current, index, rules.view_for(state, seat))
            current = None


def _close(turn: _Open, last: int, after: JSON, *, left: bool = False) -> Turn:
    return Turn(turn.seat, turn.first, last, tuple(turn.moves), tuple(turn.views), after, left)
