"""Game records (SPEC 2, 5): a JSON document with the game's slug, its full deal and every move with its
seat and time offset, enough to replay the game exactly. The format is described in docs/record-format.md.

The record is game-generic: the deal is whatever the game's `Rules.deal_of` writes (the house game: every
rack by physical tile ids, the indicator, the pile order; another game adds its own fields), and moves
are written in the game's notation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from apps.engine.errors import EngineError, InvalidMove
from apps.engine.game import JSON, GameResult, Move, Rules, get_rules

RECORD_FORMAT = "tile-rummy-record/1"


@dataclass(frozen=True, slots=True)
class RecordedMove:
    seat: int
    move: str  # the move's notation
    ms: int  # milliseconds since the start of the game

    def to_dict(self) -> JSON:
        return {"seat": self.seat, "move": self.move, "ms": self.ms}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as it was dealt and played. `info` is free JSON for the site (table, match, players)."""

    game: str
    deal: JSON
    moves: tuple[RecordedMove, ...] = ()
    result: JSON | None = None
    info: JSON = field(default_factory=dict)

    def add(self, seat: int, move: Move | str, ms: int) -> GameRecord:
        """The record with one more move (`ms`: the time offset, passed in: the engine reads no clock)."""
        if ms < 0 or (self.moves and ms < self.moves[-1].ms):
            raise InvalidMove(f"A move's time offset ({ms} ms) cannot go back in time", "record_time", ms=ms)
        return GameRecord(self.game, self.deal, (*self.moves, RecordedMove(seat, str(move), ms)), self.result, self.info)

    def finish(self, result: GameResult) -> GameRecord:
        """The record with the game's result (replay checks it)."""
        return GameRecord(self.game, self.deal, self.moves, result.to_dict(), self.info)

    def to_dict(self) -> JSON:
        data: JSON = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "deal": self.deal,
            "moves": [move.to_dict() for move in self.moves],
            "result": self.result,
        }
        if self.info:
            data["info"] = self.info
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        if not isinstance(data, Mapping):
            raise InvalidMove("A game record is a JSON object", "record_not_object")
        if data.get("format") != RECORD_FORMAT:
            raise InvalidMove(f"Not a game record: 'format' must be {RECORD_FORMAT!r}, not {data.get('format')!r}", "record_format", format=str(data.get("format")))
        try:
            moves = tuple(
                RecordedMove(int(move["seat"]), str(move["move"]), int(move["ms"])) for move in data["moves"]
            )
            deal = data["deal"]
            if not isinstance(deal, Mapping):
                raise TypeError("'deal' must be an object")
            result = data.get("result")
            info = data.get("info", {})
            return cls(str(data["game"]), dict(deal), moves, None if result is None else dict(result), dict(info))
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidMove(f"Not a well-formed game record: {error}", "record_malformed", error=str(error)) from None


def start_record(slug: str, state: Any, info: Mapping[str, Any] | None = None) -> GameRecord:
    """The record of a freshly dealt game."""
    rules = get_rules(slug)
    return GameRecord(slug, rules.deal_of(state), (), None, dict(info or {}))


@dataclass(frozen=True, slots=True)
class Replay:
    rules: Rules[Any]
    state: Any
    result: GameResult | None


def replay(record: GameRecord) -> Replay:
    """Re-deal and re-apply every move, checking each; the result must match the recorded one (if any).
    Raises InvalidMove naming the first move that fails."""
    rules = get_rules(record.game)
    state = rules.from_deal(record.deal)
    for number, recorded in enumerate(record.moves, start=1):
        try:
            move = rules.parse_move(recorded.move)
            state = rules.apply(state, recorded.seat, move)
        except EngineError as error:
            raise InvalidMove(
                f"Move {number} ({recorded.move!r} by seat {recorded.seat}) fails: {error}",
                "record_move_fails",
                number=number,
                move=recorded.move,
                seat=recorded.seat,
                error=error,
            ) from None
    result = rules.result(state)
    if record.result is not None:
        if result is None:
            raise InvalidMove("The record has a result, but its moves do not finish the game", "record_unfinished")
        if list(result.scores) != list(record.result.get("scores", [])):
            raise InvalidMove(
                f"The record's scores {record.result.get('scores')} differ from the replayed ones {list(result.scores)}",
                "record_scores",
                recorded=record.result.get("scores"),
                replayed=list(result.scores),
            )
    return Replay(rules, state, result)
