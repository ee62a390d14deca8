"""The house-game bots: legal moves only, from a view only, deterministic for a seed, and the plays a
Hard bot must find on hand-made positions (written with `apps.engine.house.positions.position`)."""

from __future__ import annotations

import random

import pytest

from apps.engine.bots import BOT_LEVELS, get_bot
from apps.engine.errors import InvalidMove
from apps.engine.game import JSON, Move
from apps.engine.house import RULES
from apps.engine.house.state import HouseState


def play_game(levels: list[str], seed: int) -> tuple[HouseState, list[tuple[int, str]]]:
    """A whole game between bots of these levels; every move goes through `apply` (which refuses illegal ones)."""
    rng = random.Random(seed)
    bots = [get_bot("tile-rummy", level) for level in levels]
    state = RULES.new_game(len(levels), rng)
    moves: list[tuple[int, str]] = []
    while (seat := RULES.to_move(state)) is not None:
        view = RULES.view_for(state, seat)
        move: Move = bots[seat].next_move(view, rng)
        state = RULES.apply(state, seat, move)
        moves.append((seat, str(move)))
        assert len(moves) < 2000
    return state, moves


def test_the_levels_offered_to_players_are_easy_and_hard() -> None:
    assert BOT_LEVELS == ("easy", "hard")


def test_asking_for_an_unknown_game_or_level_is_an_invalid_move() -> None:
    with pytest.raises(InvalidMove, match="no bots"):
        get_bot("chess", "easy")
    with pytest.raises(InvalidMove, match="no 'wizard' bot"):
        get_bot("tile-rummy", "wizard")


@pytest.mark.parametrize("levels", [["easy", "easy"], ["hard", "easy", "easy"], ["hard", "hard", "easy", "easy"], ["hard", "hard"]])
def test_bots_play_whole_games_with_legal_moves_only(levels: list[str]) -> None:
    for seed in range(6):
        state, _ = play_game(levels, seed)
        assert RULES.is_over(state)
        assert sorted(state.all_tiles()) == list(range(106))


def test_the_same_seed_gives_the_same_moves() -> None:
    assert play_game(["hard", "easy", "hard"], 7)[1] == play_game(["hard", "easy", "hard"], 7)[1]


def test_a_bot_is_given_a_view_with_no_other_rack_and_no_pile() -> None:
    state = RULES.new_game(3, random.Random(3))
    view: JSON = RULES.view_for(state, state.turn)
    assert isinstance(view["pile"], int)
    assert all(set(player) >= {"tiles"} and "rack" not in player for player in view["players"])
    move = get_bot("tile-rummy", "easy").next_move(view, random.Random(0))
    RULES.apply(state, state.turn, move)
