"""Matches of 1, 3 or 5 games (SPEC 3 "Match" and "leaving"), generic over the game's rules."""

from __future__ import annotations

import json
import random

import pytest

from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.game import get_rules
from apps.engine.house import RULES
from apps.engine.house.playout import random_game
from apps.engine.match import Match, new_match


def finished(scores: list[tuple[int, ...]], seats: int = 3, left: tuple[bool, ...] | None = None) -> Match:
    return Match("tile-rummy", seats, 5, 0, tuple(scores), left or (False,) * seats)


def test_a_seeded_three_game_match_plays_to_the_end_with_scores_added_up_and_the_start_rotating() -> None:
    rng = random.Random(2024)
    match = new_match("tile-rummy", 3, rng, length=3)
    starters = []
    game_scores = []
    while not match.is_over:
        state = match.deal_next(rng)
        starters.append(state.starter)
        state, _ = random_game(state, rng)
        result = RULES.result(state)
        assert result is not None
        game_scores.append(result.scores)
        match = match.finish_game(state)
    assert match.games_played == 3
    assert starters == [(match.first_starter + i) % 3 for i in range(3)]  # clockwise
    assert match.totals == tuple(sum(scores[seat] for scores in game_scores) for seat in range(3))
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match
    with pytest.raises(IllegalMove, match="match is over"):
        match.deal_next(rng)


def test_most_points_wins_and_equal_points_share_a_place() -> None:
    match = finished([(100, 250, 100), (50, -100, 50)])
    assert match.totals == (150, 150, 150)
    assert match.places() == (1, 1, 1)
    match = finished([(300, 40, 120), (-100, 20, 0)], seats=3)  # totals 200, 60, 120
    assert [(s.seat, s.points, s.place) for s in match.standings()] == [(0, 200, 1), (2, 120, 2), (1, 60, 3)]
    match = finished([(10, 10, 5, 5)], seats=4)
    assert match.places() == (1, 1, 3, 3)


def test_a_seat_that_left_is_placed_after_everyone_still_in_whatever_its_points() -> None:
    match = finished([(500, 20, -40)]).leave(0)
    assert match.places() == (3, 1, 2)
    assert match.standings()[-1].left


def test_with_two_players_the_one_who_stayed_wins_the_match() -> None:
    rng = random.Random(5)
    match = new_match("tile-rummy", 2, rng, length=3)
    state = match.deal_next(rng)
    state = RULES.leave(state, 1)
    match = match.leave(1).finish_game(state)
    assert match.is_over
    assert match.places() == (1, 2)


def test_a_seat_that_left_gets_no_tiles_in_the_next_games_and_the_start_skips_it() -> None:
    rng = random.Random(9)
    match = new_match("tile-rummy", 3, rng, length=3, starter=0)
    state = RULES.leave(match.deal_next(rng), 1)
    state, _ = random_game(state, rng)
    match = match.finish_game(state)  # the leave recorded in the game counts for the match
    assert match.left == (False, True, False)
    assert match.next_starter() == 2  # seat 1 would start: it left
    following = match.deal_next(rng)
    assert following.racks[1] == () and RULES.has_left(following, 1) and following.starter == 2


def test_it_refuses_a_match_of_other_lengths_or_an_unfinished_game() -> None:
    rng = random.Random(1)
    with pytest.raises(InvalidMove, match="1, 3 or 5 games"):
        new_match("tile-rummy", 2, rng, length=2)
    with pytest.raises(InvalidMove, match="2-4 players"):
        new_match("tile-rummy", 5, rng)
    match = new_match("tile-rummy", 2, rng)
    with pytest.raises(IllegalMove, match="not over"):
        match.finish_game(match.deal_next(rng))


def test_the_first_deal_of_a_rearrange_match_starts_with_the_draw_for_the_start():
    """SPEC 4: every seat draws a tile and the highest starts; the match rotates from that seat."""
    from apps.engine.match import start_match

    rules = get_rules("tile-rummy-rearrange")
    for seed in range(20):
        match, state = start_match("tile-rummy-rearrange", 3, random.Random(seed), length=3)
        view = rules.view_for(state, None)
        assert view["ceremony"], "the draw for the start is part of the first deal"
        assert match.first_starter == rules.to_move(state)
        assert match.next_starter() == match.first_starter


def test_the_first_deal_of_a_house_match_starts_with_a_random_player():
    from apps.engine.match import start_match

    starters = {start_match("tile-rummy", 4, random.Random(seed))[0].first_starter for seed in range(40)}
    assert starters == {0, 1, 2, 3}
