"""The Rearrange-game bots: legal moves only, from a view only, deterministic for a seed, and the plays a
Hard bot must find on hand-made positions (made up for each test)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from apps.engine.bots import get_bot
from apps.engine.game import Draw, Move
from apps.engine.rearrange import RULES
from apps.engine.rearrange.moves import Play
from apps.engine.rearrange.positions import position as rearrange_position
from apps.engine.rearrange.state import RearrangeState
from apps.engine.tiles import tile_of

GAME = "tile-rummy-rearrange"


def play_game(levels: list[str], seed: int) -> tuple[RearrangeState, list[tuple[int, str]]]:
    """A whole game between bots; every move goes through `apply`, which refuses illegal ones."""
    rng = random.Random(seed)
    bots = [get_bot(GAME, level) for level in levels]
    state = RULES.new_game(len(levels), rng)
    moves: list[tuple[int, str]] = []
    while (seat := RULES.to_move(state)) is not None:
        move: Move = bots[seat].next_move(RULES.view_for(state, seat), rng)
        state = RULES.apply(state, seat, move)
        moves.append((seat, str(move)))
        assert len(moves) < 2000
    return state, moves


def position(racks: Sequence[str], table: str, *, opened: Sequence[bool], pool: int = 30) -> RearrangeState:
    """A position in notation: the racks, the table (sets separated by '|'); every other tile is in the
    pool (`pool` of them; the rest are out of the game, in `gone`)."""
    seats_opened = [seat for seat, flag in enumerate(opened) if flag]
    return rearrange_position(racks, table=table, opened=seats_opened, pool_size=pool, turn_no=10)


@pytest.mark.parametrize("levels", [["easy", "easy"], ["hard", "greedy"], ["greedy", "easy", "hard"], ["hard", "easy", "easy", "easy"]])
def test_bots_play_whole_games_with_legal_moves_only(levels: list[str]) -> None:
    for seed in range(5):
        state, _ = play_game(levels, seed)
        assert RULES.is_over(state)
        assert sorted(state.all_tiles()) == list(range(106))


def test_the_same_seed_gives_the_same_moves() -> None:
    assert play_game(["hard", "easy"], 3)[1] == play_game(["hard", "easy"], 3)[1]


def test_a_bot_is_given_a_view_with_no_other_rack_and_no_pool() -> None:
    state = RULES.new_game(2, random.Random(5))
    view = RULES.view_for(state, state.turn)
    assert isinstance(view["pool"], int)
    assert all("rack" not in player for player in view["players"])
    for level in ("easy", "hard", "greedy"):
        RULES.apply(state, state.turn, get_bot(GAME, level).next_move(view, random.Random(0)))


def test_hard_rebuilds_the_table_to_place_its_last_tiles() -> None:
    # The run must be split in three around a new group of 4s: the only way to place y4 and k4.
    state = position(["y4 k4", "r9 r10 r11 b1 b2"], "r1 r2 r3 r4 r5 r6 r7", opened=[True, True])
    move = get_bot(GAME, "hard").next_move(RULES.view_for(state, 0), random.Random(0))
    assert isinstance(move, Play)
    after = RULES.apply(state, 0, move)
    assert RULES.is_over(after) and after.out == 0


def test_easy_never_takes_the_table_apart_and_draws_instead() -> None:
    state = position(["y4 k4", "r9 r10 r11 b1 b2"], "r1 r2 r3 r4 r5 r6 r7", opened=[True, True])
    assert get_bot(GAME, "easy").next_move(RULES.view_for(state, 0), random.Random(0)) == Draw()


def test_easy_adds_single_tiles_to_the_ends_of_sets_and_lays_its_own_sets() -> None:
    state = position(["r8 b5 b6 b7 k1", "r9 r10 r11 b1 b2"], "r1 r2 r3 r4 r5 r6 r7", opened=[True, True])
    move = get_bot(GAME, "easy").next_move(RULES.view_for(state, 0), random.Random(0))
    after = RULES.apply(state, 0, move)
    assert [str(tile_of(tile)) for tile in after.racks[0]] == ["k1"]


def test_a_bot_that_has_not_opened_opens_only_with_30_from_its_rack() -> None:
    state = position(["r10 r11 r12 k2 y2 b2 k9", "r9 b1 b2"], "r3 r4 r5", opened=[False, True])
    for level in ("easy", "hard", "greedy"):
        move = get_bot(GAME, level).next_move(RULES.view_for(state, 0), random.Random(0))
        after = RULES.apply(state, 0, move)
        assert after.opened[0]
        assert [str(tile_of(tile)) for tile in after.table[0]] == ["r3", "r4", "r5"]
