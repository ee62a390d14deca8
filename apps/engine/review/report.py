"""`review(record)`: every turn of a game with what the seat played and the best play the engine finds
from what that seat could see at that moment; `hint(view)`: the same search for the seat to move.

A turn is **missed** when the best play places more tiles from the hand than the seat did, or as many
with more points (SPEC 13); the review says by how many of each and gives the play in notation. Turns the
table played for the seat (a timeout or autopilot before it moved) are reviewed but left out of the
seat's summary. Hints a player used are read from the record's `info.hints` (docs/record-format.md) and
marked on their turns.

Each game has a judge in its own package (`apps.engine.house.review.JUDGE`,
`apps.engine.rearrange.review.JUDGE`), found from the slug and imported on first use: what a turn placed
(`played`), the best play from the turn's views (`best`), and a hint from a view (`hint`). This module is
the plumbing every game's review shares; it names no game's search.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.game import JSON, game_package, get_rules
from apps.engine.records import GameRecord
from apps.engine.review.plays import Placed, Suggestion, notation
from apps.engine.review.turns import Turn, turns_of


class Judge(Protocol):
    def played(self, turn: Turn) -> Placed: ...
    def best(self, turn: Turn) -> Suggestion | None: ...
    def hint(self, view: JSON) -> Suggestion: ...


def judge_of(slug: str) -> Judge:
    """The judge of game `slug`: `JUDGE` in its package's `review` module (`<game package>.review`; see
    `apps.engine.game.game_package`), imported on first use."""
    get_rules(slug)  # an unknown game gets the registry's own message
    package = game_package(slug)
    name = f"{package}.review"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        raise InvalidMove(f"The game {slug!r} has no review yet", "no_review", game=slug) from None
    judge: Judge = module.JUDGE
    return judge


@dataclass(frozen=True, slots=True)
class TurnReview:
    number: int  # 1, 2, ... in the order of the game
    seat: int
    first: int  # the indexes in the record's moves of the turn's first and last moves
    last: int
    played: str  # the seat's moves in notation, '; ' between them
    tiles: int  # what they placed from the hand (net of jokers taken back) and its points
    points: int
    placed: tuple[str, ...]  # the faces that left the hand for the table
    best: Suggestion | None  # None: nothing to judge (the seat stood up, or saw nothing to decide from)
    by_table: bool
    hint: bool  # the seat used a hint during this turn

    @property
    def missed(self) -> bool:
        return self.best is not None and self.best.worth > (self.tiles, self.points)

    @property
    def missed_tiles(self) -> int:
        return self.best.tiles - self.tiles if self.missed and self.best is not None else 0

    @property
    def missed_points(self) -> int:
        return self.best.points - self.points if self.missed and self.best is not None else 0

    def to_dict(self) -> JSON:
        best = self.best
        return {
            "turn": self.number,
            "seat": self.seat,
            "moves": [self.first, self.last],
            "played": self.played,
            "tiles": self.tiles,
            "points": self.points,
            "placed": list(self.placed),
            "best": None if best is None else (best.notation if self.missed else self.played),
            "best_play": best.to_dict() if best is not None and self.missed else None,
            "missed": self.missed,
            "missed_tiles": self.missed_tiles,
            "missed_points": self.missed_points,
            "by_table": self.by_table,
            "hint": self.hint,
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's turns of its own (not played by the table), those where it could have placed more, by
    how much in all, and the hints it used."""

    seat: int
    turns: int
    missed_turns: int
    missed_tiles: int
    missed_points: int
    hints: int

    def to_dict(self) -> JSON:
        return {
            "seat": self.seat,
            "turns": self.turns,
            "missed_turns": self.missed_turns,
            "missed_tiles": self.missed_tiles,
            "missed_points": self.missed_points,
            "hints": self.hints,
        }


@dataclass(frozen=True, slots=True)
class Review:
    game: str
    seats: int
    over: bool
    turns: tuple[TurnReview, ...]
    summary: tuple[SeatSummary, ...]

    def to_dict(self) -> JSON:
        return {
            "game": self.game,
            "seats": self.seats,
            "over": self.over,
            "turns": [turn.to_dict() for turn in self.turns],
            "summary": [seat.to_dict() for seat in self.summary],
        }


def hint_positions(info: Mapping[str, Any]) -> list[tuple[int, int]]:
    """(seat, move index) of every hint a record's `info.hints` lists; malformed entries are skipped (the
    engine ignores `info` otherwise)."""
    found = []
    hints = info.get("hints", [])
    for entry in hints if isinstance(hints, list) else []:
        if isinstance(entry, Mapping) and isinstance(entry.get("seat"), int) and isinstance(entry.get("move"), int):
            found.append((int(entry["seat"]), int(entry["move"])))
    return found


def review(record: GameRecord) -> Review:
    """Every turn of the record, judged from its seat's views. Raises InvalidMove for a record whose
    moves do not replay."""
    judge = judge_of(record.game)
    hints = hint_positions(record.info)
    seats = int(get_rules(record.game).from_deal(record.deal).seats)
    turns: list[TurnReview] = []
    for number, turn in enumerate(turns_of(record), start=1):
        tiles, points, faces = Placed(0, 0, ()) if turn.left else judge.played(turn)
        best = None if turn.left else judge.best(turn)
        hinted = any(seat == turn.seat and turn.first <= move <= turn.last for seat, move in hints)
        turns.append(
            TurnReview(
                number, turn.seat, turn.first, turn.last, notation(turn.moves), tiles, points, tuple(map(str, faces)), best, turn.by_table, hinted
            )
        )
    summary = tuple(_summary(seat, turns, hints) for seat in range(seats))
    return Review(record.game, seats, record.result is not None, tuple(turns), summary)


def _summary(seat: int, turns: Sequence[TurnReview], hints: Sequence[tuple[int, int]]) -> SeatSummary:
    own = [turn for turn in turns if turn.seat == seat and not turn.by_table and turn.best is not None]
    missed = [turn for turn in own if turn.missed]
    return SeatSummary(
        seat,
        len(own),
        len(missed),
        sum(turn.missed_tiles for turn in missed),
        sum(turn.missed_points for turn in missed),
        sum(1 for hinted, _ in hints if hinted == seat),
    )


def hint(view: Mapping[str, Any]) -> Suggestion:
    """The best play for the seat whose view this is, from that view only. IllegalMove when it is not
    that seat's turn (or the game is over); InvalidMove for a spectator's view or an unknown game."""
    if not isinstance(view, Mapping) or not isinstance(view.get("game"), str):
        raise InvalidMove("A hint needs a seat's view of a game (with its 'game')", "hint_needs_view")
    judge = judge_of(view["game"])
    if view.get("you") is None or "rack" not in view:
        raise InvalidMove("A hint is for a player's own seat, not a spectator's view", "hint_spectator")
    if view.get("over") or view.get("turn") != view["you"]:
        raise IllegalMove("A hint is for your own turn: it is not this seat's turn now", "hint_not_your_turn")
    return judge.hint(dict(view))
