"""A match: 1, 3 or 5 games of one game, generic over its rules (SPEC 3 "Match", "leaving").

Scores add up across games; the first game's starter is random (or given), then the start rotates
clockwise; most points wins and equal points share a place; a seat that left is placed after every
seat still in, whatever its points (with two players, the one who stayed wins).

The match is a value like a game state: the service keeps it next to the current game's state, asks it
for the next deal, and hands it every finished game.

A match deals with a `Randomness` (a `random.Random` in simulations and tests: one generator for every
game) or with `FairSeeds` (the site's provably fair deals, SPEC 11: game `g` is dealt from its own
stream `seeds.stream(g)`, so each deal is a function of the seeds and its number alone; `fair_deal`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from apps.engine.common import check_seat, flags, next_in_play, reading, with_seat
from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.fair import FairSeeds
from apps.engine.game import JSON, Randomness, get_rules

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

    def deal_next(self, rng: Randomness | FairSeeds) -> Any:
        """The next game's freshly dealt state (seats that left get nothing)."""
        if self.is_over:
            raise IllegalMove("The match is over: no more games to deal", "match_over_no_deal")
        absent = [seat for seat in range(self.seats) if self.left[seat]]
        randomness = _randomness(rng, self.seats, self.games_played + 1)
        return get_rules(self.game).new_game(self.seats, randomness, self.next_starter(), absent=absent)

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


def _randomness(rng: Randomness | FairSeeds, seats: int, game_no: int) -> Randomness:
    """What game `game_no` of a match is dealt with: the generator itself, or that game's fair stream."""
    if not isinstance(rng, FairSeeds):
        return rng
    if rng.seats != seats:
        raise InvalidMove(
            f"A fair deal for {seats} seats needs {seats} player seeds, not {rng.seats}",
            "fair_seeds_seats",
            seats=seats,
            given=rng.seats,
        )
    return rng.stream(game_no)


def new_match(game: str, seats: int, rng: Randomness, length: int = 1, starter: int | None = None) -> Match:
    """A match of `length` games; the first starter is `starter` or drawn with `rng`."""
    first = rng.randrange(seats) if starter is None else starter
    match = Match(game, seats, length, first, (), (False,) * seats)
    _check(match)
    return match


def start_match(game: str, seats: int, rng: Randomness | FairSeeds, length: int = 1) -> tuple[Match, Any]:
    """A match and its first deal, the first starter chosen the game's own way (SPEC 3: a random
    player; SPEC 4: every seat draws a tile and the highest starts, which the deal records). Later
    deals come from `Match.deal_next`, rotating the start clockwise from that seat."""
    rules = get_rules(game)
    state = rules.new_game(seats, _randomness(rng, seats, 1), None)
    first = rules.to_move(state)
    if first is None:
        raise IllegalMove("A freshly dealt game has a player to move", "no_player_to_move")
    match = Match(game, seats, length, first, (), (False,) * seats)
    _check(match)
    return match, state


def fair_deal(game: str, seeds: FairSeeds, game_no: int, absent: Collection[int] = ()) -> Any:
    """The deal of game `game_no` of a match of `game` dealt from `seeds`, the `absent` seats having left
    the match before it: what `start_match` (game 1) and `Match.deal_next` (later games) deal. A later
    game's starter is the first game's, moved one seat clockwise per game, skipping absent seats; the
    first game's is drawn from its own stream, so any game's deal follows from the seeds alone."""
    seats = seeds.seats
    if not 1 <= game_no <= max(MATCH_LENGTHS):
        raise InvalidMove(
            f"A match has games 1 to {max(MATCH_LENGTHS)}, not {game_no}", "fair_game_of_match", high=max(MATCH_LENGTHS), number=game_no
        )
    if game_no == 1 and absent:
        raise InvalidMove("Nobody has left a match before its first game", "fair_first_game_absent")
    match, first = start_match(game, seats, seeds, length=max(MATCH_LENGTHS))
    if game_no == 1:
        return first
    played = replace(match, scores=((0,) * seats,) * (game_no - 1), left=tuple(seat in absent for seat in range(seats)))
    return played.deal_next(seeds)
