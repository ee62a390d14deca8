"""The house-game bots: legal moves only, from a view only, deterministic for a seed, and the plays a
Hard bot must find on hand-made positions (written with `apps.engine.house.positions.position`)."""

from __future__ import annotations

import random

import pytest

from apps.engine.bots import BOT_LEVELS, get_bot
from apps.engine.errors import InvalidMove
from apps.engine.game import JSON, Move
from apps.engine.house import RULES
from apps.engine.house.moves import Discard, LayOff, TakeDiscard, TakeJoker
from apps.engine.house.positions import position
from apps.engine.house.state import HouseState, Phase
from apps.engine.tiles import Tile


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


def hard_turn(state: HouseState) -> tuple[HouseState, list[str]]:
    """Let the Hard bot play the rest of its turn (one call per move, from a fresh view each time)."""
    seat = state.turn
    bot = get_bot("tile-rummy", "hard")
    moves: list[str] = []
    while RULES.to_move(state) == seat and len(moves) < 20:
        move = bot.next_move(RULES.view_for(state, seat), random.Random(0))
        state = RULES.apply(state, seat, move)
        moves.append(str(move))
        if isinstance(move, Discard):
            break
    return state, moves


def test_hard_goes_out_by_discarding_its_joker_for_double_points() -> None:
    state = position(["J r8 k12", "r1 r2 b5 b9 k3 k4 y11"], melds=[(1, "r5 r6 r7"), (1, "k9 k10 k11")], opened=[0, 1])
    after, moves = hard_turn(state)
    assert moves[-1] == "discard J"
    assert after.out == 0 and after.out_by_joker


def test_hard_takes_a_joker_it_holds_the_tile_for_and_goes_out_with_it() -> None:
    state = position(["r6 y2", "r1 r2 b5 b9 k3 k4 y11"], melds=[(1, "r5 J r7"), (1, "y3 y4 y5")], opened=[0, 1])
    after, moves = hard_turn(state)
    assert moves[0] == str(TakeJoker(0, (Tile.parse("r6"),)))
    assert after.out == 0 and after.out_by_joker


def test_hard_takes_the_last_discard_into_a_new_meld() -> None:
    state = position(
        ["b7 b8 k2 y13 r4", "r1 r2 b5 b9 k3 k4 y11"],
        melds=[(1, "r9 r10 r11")],
        discards="b9",
        discard_open=True,
        phase=Phase.DRAW,
        opened=[0, 1],
    )
    after, moves = hard_turn(state)
    assert moves[0] == str(TakeDiscard(tuple(Tile.parse(face) for face in ("b7", "b8", "b9"))))
    assert len(after.racks[0]) == 2


def test_hard_draws_when_the_last_discard_would_only_break_a_meld_for_another() -> None:
    # Taking y6 into y5 y6 y7 breaks the set of 5s: five tiles left either way, and the new meld would
    # give the other player places to lay off. It draws.
    state = position(
        ["y5 b5 k5 y7 k2 y13 r9", "r1 r2 b5 b9 k3 k4 y11"],
        melds=[(1, "r9 r10 r11")],
        discards="y6",
        discard_open=True,
        phase=Phase.DRAW,
        opened=[0, 1],
    )
    _, moves = hard_turn(state)
    assert moves[0] == "draw"


def test_hard_lays_off_what_fits_before_discarding() -> None:
    # On a set (a run's end it keeps back until it goes out: tests/engine/test_bots_house_hard_holds.py).
    state = position(["y8 k12 y3", "r1 r2 b5 b9 k3 k4 y11"], melds=[(1, "r8 b8 k8")], opened=[0, 1])
    after, moves = hard_turn(state)
    assert moves[0] == str(LayOff(0, (), (Tile.parse("y8"),)))
    assert len(after.racks[0]) == 1
