"""Elo ratings for matches of two to four players (SPEC 6). Pure: no Django, no database, no clock.

A match of N players is read as every pair of them playing one game against each other: the better
place wins the pair, a shared place is a draw. A player's change is the sum over their pairs of
(score - expected score), times a K-factor divided by the number of opponents, so that a four-player
match moves a rating about as much as one two-player match does, not three times as much.

New players are provisional for their first `PROVISIONAL_MATCHES` rated matches and move with a larger
K, so that a strong newcomer reaches their level in a handful of matches instead of fifty.

A player who left the match is placed after everyone who stayed, whatever their recorded place
(SPEC 3 "leaving"); several leavers keep their recorded order among themselves.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

START_RATING = 1000
PROVISIONAL_MATCHES = 10
K_FACTOR = 32
K_FACTOR_PROVISIONAL = 64
# The classic Elo scale: a 400-point gap means the stronger player is expected to win 10 games to 1.
SCALE = 400.0


@dataclass(frozen=True, slots=True)
class Standing:
    """One player of a finished match, as the rating needs them. `key` is whatever identifies the player
    to the caller (a user id). `place` is 1 for the winner; equal places are shared. `matches` is how many
    rated matches the player had finished before this one."""

    key: Hashable
    rating: int
    matches: int
    place: int | None
    left: bool = False


def is_provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def k_factor(matches: int) -> int:
    return K_FACTOR_PROVISIONAL if is_provisional(matches) else K_FACTOR


def expected_score(rating: float, opponent: float) -> float:
    """The probability-like score `rating` is expected to take from one game against `opponent`."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / SCALE))


def effective_places(standings: Sequence[Standing]) -> dict[Hashable, int]:
    """The places the rating uses: the recorded places of those who stayed, then the leavers after them.
    A missing place counts as last among its group (a result the table could not decide is no win)."""
    unplaced = 1 + max((s.place for s in standings if s.place is not None), default=0)

    def order(standing: Standing) -> tuple[bool, int]:
        return (standing.left, standing.place if standing.place is not None else unplaced)

    ranked = sorted(standings, key=order)
    places: dict[Hashable, int] = {}
    previous: tuple[bool, int] | None = None
    place = 0
    for position, standing in enumerate(ranked, start=1):
        current = order(standing)
        if current != previous:
            place = position  # competition ranking: 1, 2, 2, 4
            previous = current
        places[standing.key] = place
    return places


def pair_score(place: int, opponent_place: int) -> float:
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def rating_changes(standings: Sequence[Standing]) -> dict[Hashable, int]:
    """Each player's rating change for one finished match (whole points, rounded)."""
    if len(standings) < 2:
        raise ValueError("a rated match needs at least two players")
    keys = [standing.key for standing in standings]
    if len(set(keys)) != len(keys):
        raise ValueError("each player appears once in a match")
    places = effective_places(standings)
    opponents = len(standings) - 1
    changes: dict[Hashable, int] = {}
    for player in standings:
        total = 0.0
        for other in standings:
            if other is player:
                continue
            total += pair_score(places[player.key], places[other.key]) - expected_score(player.rating, other.rating)
        changes[player.key] = round(k_factor(player.matches) * total / opponents)
    return changes
