"""The Rearrange Hard bot's search (issue 18): it reads its seat's view only, decides the same in every
process, and on hand-made positions holds back a tile or keeps its joker when that wins."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from apps.engine.bots import get_bot
from apps.engine.rearrange import RULES
from apps.engine.rearrange.bots.hard import HardRearrangeBot
from apps.engine.rearrange.bots.search import Candidate, Hidden, sample_hidden, unseen
from apps.engine.rearrange.bots.view import RearrangeSeatView
from apps.engine.rearrange.positions import position
from apps.engine.rearrange.solver import solve
from apps.engine.rearrange.state import RearrangeState
from apps.engine.tiles import Tile, parse_tiles, tile_of

ROOT = Path(__file__).resolve().parents[2]
GAME = "tile-rummy-rearrange"


def midgame() -> RearrangeState:
    """Seat 0 to move after opening, with several plays worth playing out (so the search runs)."""
    return position(
        ["r6 r7 b9 k1 y4 y5 y6 J", "r1 r2 y9 y10 k3 k3 b13", "k8 k9 y12 b1"],
        table="r3 r4 r5 | b10 b11 b12 | y7 b7 k7 | k10 k11 k12",
        opened=[0, 1, 2],
        pool_size=30,
        turn_no=20,
    )


def poisoned(state: RearrangeState, seed: int) -> RearrangeState:
    """The same position as seat 0 sees it, the hidden tiles dealt otherwise: the other racks and the
    pool shuffled together, every count kept."""
    hidden = [*state.racks[1], *state.racks[2], *state.pool]
    random.Random(seed).shuffle(hidden)
    one, two = len(state.racks[1]), len(state.racks[2])
    racks = (state.racks[0], tuple(sorted(hidden[:one])), tuple(sorted(hidden[one : one + two])))
    return replace(state, racks=racks, pool=tuple(hidden[one + two :]))


def test_the_search_runs_on_the_test_position() -> None:
    bot = HardRearrangeBot()
    seat = RearrangeSeatView.of(RULES.view_for(midgame(), 0))
    full = solve(seat.table, seat.rack)
    assert full is not None
    assert len(bot._candidates(seat, bot.planned_move(seat, full), full)) >= 2


def test_hard_never_reads_hidden_information() -> None:
    state = midgame()
    bot = get_bot(GAME, "hard")
    view = RULES.view_for(state, 0)
    move = str(bot.next_move(view, random.Random(11)))
    for seed in range(3):
        other = poisoned(state, seed)
        assert other.racks[1] != state.racks[1] or other.pool != state.pool
        assert RULES.view_for(other, 0) == view  # the seat cannot tell the two apart ...
        assert str(bot.next_move(RULES.view_for(other, 0), random.Random(11))) == move  # ... nor can the bot
    # Hidden racks smuggled into the view: the bot does not look at them.
    smuggled = dict(view, racks=[["J"] * 14] * 3, pool_tiles=["r1"] * 30)
    smuggled["players"] = [dict(player, rack=["J", "J"]) for player in view["players"]]
    assert str(bot.next_move(smuggled, random.Random(11))) == move


def test_the_sampler_deals_what_the_seat_cannot_see_by_the_counts_it_sees() -> None:
    state = midgame()
    seat = RearrangeSeatView.of(RULES.view_for(state, 0))
    hidden = sample_hidden(seat, random.Random(3))
    assert hidden.racks[0] == seat.rack
    assert [len(rack) for rack in hidden.racks[1:]] == [seat.tiles[1], seat.tiles[2]]
    assert len(hidden.pool) == seat.pool
    dealt = Counter([*hidden.racks[1], *hidden.racks[2], *hidden.pool])
    assert not dealt - Counter(unseen(seat))  # only tiles the seat cannot see ...
    really_hidden = Counter(tile_of(tile) for tile in (*state.racks[1], *state.racks[2], *state.pool, *state.gone))
    assert Counter(unseen(seat)) == really_hidden  # ... which are exactly the hidden ones
    assert sample_hidden(seat, random.Random(3)) == hidden  # seeded


def test_same_seed_same_moves_in_two_processes_with_different_hash_seeds() -> None:
    command = [sys.executable, "-m", "apps.engine", "simulate", "--game", GAME, "--bots", "hard,greedy", "--games", "2", "--seed", "4"]
    outputs = []
    for hash_seed in ("1", "987654"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=600)
        summary = json.loads(done.stdout)
        outputs.append({key: value for key, value in summary.items() if key not in ("seconds_per_game", "games_per_second", "move_ms", "move_cpu_ms")})
    assert outputs[0] == outputs[1]


def _decide(mine: str, theirs: str, table: str) -> tuple[Candidate, Candidate]:
    """Hard's choice and the solver's most-tiles play, seat 0 to move, the pool empty: with two players
    the other rack is then known exactly, so the one deal is the truth."""
    state = position([mine, theirs], table=table, opened=[0, 1], pool_size=0, turn_no=30)
    bot = HardRearrangeBot()
    seat = RearrangeSeatView.of(RULES.view_for(state, 0))
    full = solve(seat.table, seat.rack)
    assert full is not None
    candidates = [*bot._candidates(seat, bot.planned_move(seat, full), full), Candidate("pass", None, ())]
    chosen = bot.decide(seat, candidates, [Hidden((seat.rack, tuple(parse_tiles(theirs))), ())])
    return chosen, Candidate("greedy", full.table, full.placed)


def test_hard_holds_back_the_tile_that_would_let_the_other_player_go_out() -> None:
    # Placing r6 lets r7 r8 go out; held back, the other player is stuck and the rack totals decide.
    chosen, greedy = _decide("r6 b9 k1", "r7 r8", "r3 r4 r5 | b10 b11 b12 | y6 b6 k6")
    assert Tile.parse("r6") in greedy.placed
    assert chosen.table is not None
    assert list(chosen.placed) == [Tile.parse("b9")]


def test_hard_keeps_the_joker_the_other_player_would_free_to_go_out() -> None:
    # The most tiles put the joker after r5, where r6 frees it into y13 b13 J: the other player is out.
    chosen, greedy = _decide("J b9 k1", "r6 y13 b13", "r3 r4 r5 | k4 k5 k6 | b10 b11 b12")
    assert any(tile.is_joker for tile in greedy.placed)
    assert chosen.table is not None
    assert not any(tile.is_joker for tile in chosen.placed)
    assert Tile.parse("b9") in chosen.placed


@pytest.mark.parametrize("seed", [0, 1])
def test_hard_plays_whole_games_against_greedy_with_legal_moves(seed: int) -> None:
    rng = random.Random(seed)
    bots = [get_bot(GAME, "hard"), get_bot(GAME, "greedy")]
    state = RULES.new_game(2, rng)
    moves = 0
    while (seat := RULES.to_move(state)) is not None:
        state = RULES.apply(state, seat, bots[seat].next_move(RULES.view_for(state, seat), rng))
        moves += 1
        assert moves < 2000
    assert sorted(state.all_tiles()) == list(range(106))
