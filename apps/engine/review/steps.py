"""The positions of a game, one per move, for a replay viewer (SPEC 13 "Replay"): the game is over, so
every rack is shown.

`replay_steps(record)` gives step 0 (the deal) and one step after each move: the move (its seat and
notation), what a spectator sees then (`view_for(state, None)`: the table, the counts, the scores once
over) and every seat's rack, as faces. The record's own checks apply: a move that fails raises
InvalidMove naming it.
"""

from __future__ import annotations

from typing import Any

from apps.engine.errors import EngineError, InvalidMove
from apps.engine.game import JSON, Rules, get_rules
from apps.engine.records import GameRecord
from apps.engine.tiles import tile_of

#: Parts of a spectator's view a replay has no use for (a long game has hundreds of steps).
_UNUSED = ("actions", "you", "game")
_UNUSED_IN_MELDS = ("placed_by", "jokers")


def _slim(value: Any) -> Any:
    if isinstance(value, list):
        return [_slim(item) for item in value]
    if isinstance(value, dict) and "tiles" in value and "kind" in value:
        return {key: item for key, item in value.items() if key not in _UNUSED_IN_MELDS}
    return value


def _step(rules: Rules[Any], state: Any, move: JSON | None) -> JSON:
    view = {key: _slim(value) for key, value in rules.view_for(state, None).items() if key not in _UNUSED}
    racks = [[str(tile_of(tile)) for tile in rack] for rack in rules.to_dict(state)["racks"]]
    return {"move": move, "view": view, "racks": racks}


def replay_steps(record: GameRecord) -> list[JSON]:
    rules: Rules[Any] = get_rules(record.game)
    state = rules.from_deal(record.deal)
    steps = [_step(rules, state, None)]
    for index, recorded in enumerate(record.moves):
        try:
            state = rules.apply(state, recorded.seat, rules.parse_move(recorded.move))
        except EngineError as error:
            raise InvalidMove(
                f"Move {index + 1} ({recorded.move!r} by seat {recorded.seat}) fails: {error}",
                "record_move_fails",
                number=index + 1,
                move=recorded.move,
                seat=recorded.seat,
                error=error,
            ) from None
        steps.append(_step(rules, state, {"index": index, "seat": recorded.seat, "move": recorded.move, "ms": recorded.ms}))
    return steps
