"""Game records (SPEC 2, 5): a JSON document with the game's slug, its full deal and every move with its
seat and time offset, enough to replay the game exactly. The format is described in docs/record-format.md.

The record is game-generic: the deal is whatever the game's `Rules.deal_of` writes (the house game: every
rack by physical tile ids, the indicator, the pile order; another game adds its own fields), and moves
are written in the game's notation.

A game of a provably fair match (SPEC 11) also carries its `fair` part (`FairProof`): the commitment, the
game's number and the players' seeds, and once the match is over the server seed; `replay` then checks
the commitment and that the fair deal function (`apps.engine.match.fair_deal`, docs/fair-deals.md)
gives exactly the recorded deal. Records without a `fair` part replay as they always did.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from apps.engine.errors import EngineError, InvalidMove
from apps.engine.fair import FairProof
from apps.engine.game import JSON, GameResult, Move, Rules, get_rules
from apps.engine.match import fair_deal

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
    """A game as it was dealt and played. `info` is free JSON for the site (table, match, players);
    `fair` is the fair-deal proof of a game of a provably fair match (None for other records)."""

    game: str
    deal: JSON
    moves: tuple[RecordedMove, ...] = ()
    result: JSON | None = None
    info: JSON = field(default_factory=dict)
    fair: FairProof | None = None

    def add(self, seat: int, move: Move | str, ms: int) -> GameRecord:
        """The record with one more move (`ms`: the time offset, passed in: the engine reads no clock)."""
        if ms < 0 or (self.moves and ms < self.moves[-1].ms):
            raise InvalidMove(f"A move's time offset ({ms} ms) cannot go back in time", "record_time", ms=ms)
        return replace(self, moves=(*self.moves, RecordedMove(seat, str(move), ms)))

    def finish(self, result: GameResult) -> GameRecord:
        """The record with the game's result (replay checks it)."""
        return replace(self, result=result.to_dict())

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
        if self.fair is not None:
            data["fair"] = self.fair.to_dict()
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
            fair = data.get("fair")
            record = cls(str(data["game"]), dict(deal), moves, None if result is None else dict(result), dict(info))
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidMove(f"Not a well-formed game record: {error}", "record_malformed", error=str(error)) from None
        return record if fair is None else replace(record, fair=FairProof.from_dict(fair))


def start_record(
    slug: str, state: Any, info: Mapping[str, Any] | None = None, fair: FairProof | None = None
) -> GameRecord:
    """The record of a freshly dealt game."""
    rules = get_rules(slug)
    return GameRecord(slug, rules.deal_of(state), (), None, dict(info or {}), fair)


@dataclass(frozen=True, slots=True)
class FairCheck:
    """What `replay` found of a record's fair deal: `verified` (the commitment and the deal both check),
    or why it could not be checked yet (the server seed is published when the match is over)."""

    verified: bool
    commitment: str
    reason: str = ""

    def to_dict(self) -> JSON:
        data: JSON = {"verified": self.verified, "commitment": self.commitment}
        if self.reason:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True, slots=True)
class Replay:
    rules: Rules[Any]
    state: Any
    result: GameResult | None
    fair: FairCheck | None = None


def check_fair_deal(record: GameRecord) -> FairCheck | None:
    """The record's fair-deal check (None for a record without one). Raises InvalidMove when the server
    seed does not match the commitment or the seeds deal something else than the recorded deal."""
    proof = record.fair
    if proof is None:
        return None
    if proof.server_seed is None:
        return FairCheck(False, proof.commitment, "the server seed is published when the match is over")
    seeds = proof.seeds()  # checks the commitment
    rules = get_rules(record.game)
    recorded = rules.deal_of(rules.from_deal(record.deal))
    if recorded.get("seats") != seeds.seats:
        raise InvalidMove(
            f"The record has {seeds.seats} player seeds for a deal of {recorded.get('seats')} seats",
            "fair_record_seats",
            seeds=seeds.seats,
            seats=recorded.get("seats"),
        )
    expected = rules.deal_of(fair_deal(record.game, seeds, proof.game_no, absent=recorded.get("absent", [])))
    differing = [key for key in expected if expected[key] != recorded.get(key)]
    if differing:
        raise InvalidMove(
            f"The recorded deal is not the fair deal of game {proof.game_no} from these seeds: "
            f"{', '.join(differing)} differ",
            "fair_deal_differs",
            number=proof.game_no,
            differing=", ".join(differing),
        )
    return FairCheck(True, proof.commitment)


def replay(record: GameRecord) -> Replay:
    """Re-deal and re-apply every move, checking each; the result must match the recorded one (if any),
    and a fair deal must be the one its seeds give. Raises InvalidMove naming the first thing that fails."""
    rules = get_rules(record.game)
    state = rules.from_deal(record.deal)
    fair = check_fair_deal(record)
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
    return Replay(rules, state, result, fair)
