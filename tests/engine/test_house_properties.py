"""Invariants of whole house games (Hypothesis): random legal games, with timeouts, autopilot turns and
seats leaving mixed in, keep exactly 106 tiles, never leak a rack or the pile through `view_for`, score
according to the SPEC table, survive `to_dict`/`from_dict`, and replay from their record to the same state."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.engine.game import Auto, Back, Leave, Move, Timeout
from apps.engine.house import RULES
from apps.engine.house.melds import rack_penalty, read_meld
from apps.engine.house.play import apply
from apps.engine.house.playout import random_game, random_turn
from apps.engine.house.state import HouseState, Phase
from apps.engine.records import GameRecord, replay, start_record
from apps.engine.tiles import TILE_COUNT, tile_of


def shuffle_hidden(state: HouseState, viewer: int | None, rng: random.Random) -> HouseState:
    """The same position as far as `viewer` can tell: every tile it cannot see (other racks, the pile, the
    racks of seats that left) dealt out again at random, with the same counts."""
    hidden_seats = [seat for seat in range(state.seats) if seat != viewer]
    hidden = [tile for seat in hidden_seats for tile in state.racks[seat]] + list(state.pile) + list(state.gone)
    rng.shuffle(hidden)
    racks = list(state.racks)
    at = 0
    for seat in hidden_seats:
        size = len(racks[seat])
        racks[seat] = tuple(sorted(hidden[at : at + size]))
        at += size
    pile = tuple(hidden[at : at + len(state.pile)])
    gone = tuple(hidden[at + len(state.pile) :])
    return replace(state, racks=tuple(racks), pile=pile, gone=gone)


def check_position(state: HouseState, rng: random.Random) -> None:
    assert sorted(state.all_tiles()) == list(range(TILE_COUNT))
    assert RULES.from_dict(json.loads(json.dumps(RULES.to_dict(state)))) == state
    viewer: int | None = rng.choice([None, *range(state.seats)])
    view = RULES.view_for(state, viewer)
    json.dumps(view)
    if viewer is None:
        assert "rack" not in view
    else:
        assert view["rack"] == [str(tile_of(tile)) for tile in state.racks[viewer]]
    assert "pile" not in view or isinstance(view["pile"], int)
    if state.phase is not Phase.OVER:
        # non-interference: what the viewer sees does not depend on anything hidden from it
        assert RULES.view_for(shuffle_hidden(state, viewer, rng), viewer) == view


def expected_total(state: HouseState, seat: int) -> int:
    """SPEC 3 scoring table, computed directly from the final position."""
    table = 0
    for table_meld in state.melds:
        meld = read_meld(table_meld.faces)
        table += sum(
            value
            for value, tile, by in zip(meld.values, meld.tiles, table_meld.placed_by, strict=True)
            if by == seat and not tile.is_joker
        )
    jokers = 50 * sum(1 for first in state.joker_by if first == seat)
    rack = [tile_of(tile) for tile in state.racks[seat]]
    if state.left[seat]:
        rack_term = 0
    elif state.opened_on[seat] is None:
        rack_term = -100
    else:
        rack_term = -sum(rack_penalty(tile) for tile in rack)
    base = table + jokers + rack_term + (100 if state.out == seat else 0) + (50 if state.twin_seat == seat else 0)
    if state.out == seat and state.out_by_joker:
        base *= 2
    face = tile_of(state.indicator)
    if face.is_joker or face.number == 1:
        base *= 2
    return base


def play_game(seed: int, seats: int) -> tuple[HouseState, GameRecord]:
    rng = random.Random(seed)
    state = RULES.new_game(seats, rng)
    record = start_record("tile-rummy", state)
    ms = 0
    left_once = False
    while state.phase is not Phase.OVER:
        seat = state.turn
        roll = rng.random()
        moves: list[tuple[int, Move]]
        if roll < 0.04:
            moves = [(seat, Timeout())]
        elif roll < 0.06:
            moves = [(seat, Auto()), (seat, Back())]
        elif roll < 0.07 and not left_once:
            left_once = True
            moves = [(rng.randrange(seats), Leave())]
        else:
            _, turn = random_turn(state, rng)
            moves = [(seat, move) for move in turn]
        for who, move in moves:
            if state.phase is Phase.OVER:
                break
            state = apply(state, who, move)
            ms += rng.randrange(100, 5000)
            record = record.add(who, move, ms)
            check_position(state, rng)
    result = RULES.result(state)
    assert result is not None
    return state, record.finish(result)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4))
def test_random_legal_games_keep_106_tiles_hide_what_is_hidden_and_score_by_the_table(seed: int, seats: int) -> None:
    state, _ = play_game(seed, seats)
    result = RULES.result(state)
    assert result is not None
    for seat in range(seats):
        assert result.scores[seat] == expected_total(state, seat)
        assert sum(line.points for line in result.seats[seat].lines) == result.scores[seat]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4))
def test_random_games_replay_from_their_record_to_the_same_state(seed: int, seats: int) -> None:
    state, record = play_game(seed, seats)
    round_tripped = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    replayed = replay(round_tripped)
    assert replayed.state == state
    assert replayed.result == RULES.result(state)


def test_random_four_player_games_reach_their_end() -> None:
    # How fast they do is measured in bench/house_speed.py, never here (CONVENTIONS 22).
    for seed in range(5):
        final, _ = random_game(RULES.new_game(4, random.Random(seed)), random.Random(seed))
        assert final.phase is Phase.OVER
