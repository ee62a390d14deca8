"""A match: 1, 3 or 5 games of one game, generic over its rules (SPEC 3 "Match", "leaving").

Scores add up across games; the first game's starter is random (or given), then the start rotates
clockwise; most points wins and equal points share a place; a seat that left is placed after every
seat still in, whatever its points (with two players, the one who stayed wins).

The match is a value like a game state: the service keeps it next to the current game's state, asks it
for the next deal, and hands it every finished game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from apps.engine.common import check_seat, flags, next_in_play, reading, with_seat
from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.game import JSON, get_rules

MATCH_LENGTHS = (1, 3, 5)


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    points: int
    place: int  # 1 = first; equal points share a place (1, 1, 3)
    left: bool

    def to_dict(self) -> JSON:
        return {"seat": self.seat, "points": self.points, "place": self.place, "left": self.left}


@dataclass(frozen=True, slots=True)
class Match:
    game: str
    seats: int
    length: int
    first_starter: int
    scores: tuple[tuple[int, ...], ...] = ()  # one row per finished game, one score per seat
    left: tuple[bool, ...] = ()

    @property
    def games_played(self) -> int:
        return len(self.scores)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(row[seat] for row in self.scores) for seat in range(self.seats))

    @property
    def in_play(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seats) if not self.left[seat])

    @property
    def is_over(self) -> bool:
        return self.games_played >= self.length or len(self.in_play) < 2

    def next_starter(self) -> int:
        """The starter of the next game: the first game's, moved one seat clockwise per game played,
        skipping seats that left."""
        return next_in_play(self.first_starter + self.games_played, self.left)

    def deal_next(self, rng: random.Random) -> Any:
        """The next game's freshly dealt state (seats that left get nothing)."""
        if self.is_over:
            raise IllegalMove("The match is over: no more games to deal", "match_over_no_deal")
        absent = [seat for seat in range(self.seats) if self.left[seat]]
        return get_rules(self.game).new_game(self.seats, rng, self.next_starter(), absent=absent)

    def finish_game(self, state: Any) -> Match:
        """The match after a finished game: its scores added, its leavers out of the match."""
        rules = get_rules(self.game)
        result = rules.result(state)
        if result is None:
            raise IllegalMove("The game is not over yet", "game_not_over")
        if self.games_played >= self.length:
            raise IllegalMove("The match is already over", "match_over")
        left = tuple(self.left[seat] or rules.has_left(state, seat) for seat in range(self.seats))
        return replace(self, scores=(*self.scores, result.scores), left=left)

    def leave(self, seat: int) -> Match:
        """`seat` stands up: out of the match (also apply `rules.leave` to the current game)."""
        check_seat(seat, self.seats)
        return replace(self, left=with_seat(self.left, seat, True))

    def standings(self) -> tuple[Standing, ...]:
        """Every seat's total and place, best first: seats still in by points, then those that left."""
        totals = self.totals
        order = sorted(range(self.seats), key=lambda seat: (self.left[seat], -totals[seat], seat))
        standings: list[Standing] = []
        for index, seat in enumerate(order):
            previous = standings[-1] if standings else None
            same = previous is not None and previous.left == self.left[seat] and previous.points == totals[seat]
            place = previous.place if same and previous is not None else index + 1
            standings.append(Standing(seat, totals[seat], place, self.left[seat]))
        return tuple(standings)

    def places(self) -> tuple[int, ...]:
        """The place of each seat, by seat."""
        by_seat = {standing.seat: standing.place for standing in self.standings()}
        return tuple(by_seat[seat] for seat in range(self.seats))

    def to_dict(self) -> JSON:
        return {
            "game": self.game,
            "seats": self.seats,
            "length": self.length,
            "first_starter": self.first_starter,
            "scores": [list(row) for row in self.scores],
            "left": list(self.left),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        with reading("a match"):
            match = cls(
                str(data["game"]),
                int(data["seats"]),
                int(data["length"]),
                int(data["first_starter"]),
                tuple(tuple(int(score) for score in row) for row in data["scores"]),
                flags(data["left"]),
            )
        _check(match)
        return match


def _check(match: Match) -> None:
    rules = get_rules(match.game)
    if not rules.min_seats <= match.seats <= rules.max_seats:
        raise InvalidMove(
            f"{rules.name} is played by {rules.min_seats}-{rules.max_seats} players, not {match.seats}",
            "match_seats",
            game=rules.slug,
            low=rules.min_seats,
            high=rules.max_seats,
            seats=match.seats,
        )
    if match.length not in MATCH_LENGTHS:
        raise InvalidMove(f"A match is 1, 3 or 5 games, not {match.length}", "match_length", length=match.length)
    if not 0 <= match.first_starter < match.seats or len(match.left) != match.seats:
        raise InvalidMove("A match's starter and seats must be seats of its table", "match_seat_numbers")
    if any(len(row) != match.seats for row in match.scores):
        raise InvalidMove("A match has one score per seat for every game", "match_scores")


def new_match(game: str, seats: int, rng: random.Random, length: int = 1, starter: int | None = None) -> Match:
    """A match of `length` games; the first starter is `starter` or drawn with `rng`."""
    first = rng.randrange(seats) if starter is None else starter
    match = Match(game, seats, length, first, (), (False,) * seats)
    _check(match)
    return match


def start_match(game: str, seats: int, rng: random.Random, length: int = 1) -> tuple[Match, Any]:
    """A match and its first deal, the first starter chosen the game's own way (SPEC 3: a random
    player; SPEC 4: every seat draws a tile and the highest starts, which the deal records). Later
    deals come from `Match.deal_next`, rotating the start clockwise from that seat."""
    rules = get_rules(game)
    state = rules.new_game(seats, rng, None)
    first = rules.to_move(state)
    if first is None:
        raise IllegalMove("A freshly dealt game has a player to move", "no_player_to_move")
    match = Match(game, seats, length, first, (), (False,) * seats)
    _check(match)
    return match, state
