"""Helpers for the UI and the bots: melds from a rack, opening value, lay-off spots, jokers to take, and
melds for the last discard. Every move a helper offers must be legal (checked by applying it)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.engine.house import RULES
from apps.engine.house.helpers import (
    find_opening,
    joker_takes,
    jokers_on_table,
    lay_off_moves,
    lay_off_spots,
    melds_from_rack,
    opening_move,
    opening_of,
    take_discard_moves,
)
from apps.engine.house.melds import MeldKind, opening_check
from apps.engine.house.moves import parse_move
from apps.engine.house.play import apply
from apps.engine.house.playout import random_turn
from apps.engine.house.positions import position
from apps.engine.house.state import HouseState, Phase
from apps.engine.tiles import format_tiles, parse_melds, parse_tiles


def texts(melds) -> set[str]:  # type: ignore[no-untyped-def]
    return {format_tiles(meld.tiles) for meld in melds}


def test_it_finds_the_runs_and_sets_a_rack_can_make() -> None:
    found = texts(melds_from_rack(parse_tiles("r4 r5 r6 r7 y7 k7 b2")))
    assert found == {"r4 r5 r6", "r5 r6 r7", "r4 r5 r6 r7", "r7 y7 k7"}


def test_it_finds_melds_with_a_joker_filling_a_gap_an_end_or_a_missing_colour() -> None:
    found = texts(melds_from_rack(parse_tiles("r5 r7 y9 k9 J")))
    assert {"r5 J r7", "J r7", "y9 k9 J"} - found == {"J r7"}  # "J r7" is not a meld: two tiles
    assert "r5 J r7" in found and "y9 k9 J" in found and "r7 J" not in found
    assert all(meld.kind in (MeldKind.RUN, MeldKind.SET) for meld in melds_from_rack(parse_tiles("r12 r13 J r1")))
    assert "r12 r13 r1" in texts(melds_from_rack(parse_tiles("r12 r13 r1")))


def test_the_opening_value_of_a_selection_says_what_is_missing() -> None:
    check = opening_of(parse_melds("r10 y10 k10 | b1 b2 b3"))
    assert (check.points, check.has_run, check.missing, check.qualifies) == (45, True, 0, True)
    check = opening_of(parse_melds("r10 y10 k10"))
    assert check.reason == "An opening needs at least 45 points: this is 30, 15 short"


def test_it_finds_an_opening_in_a_rack_that_has_one_and_none_otherwise() -> None:
    melds = find_opening(parse_tiles("r11 r12 r13 y3 y4 y5 k9 b2 b9 b5"))
    assert melds is not None and opening_check(melds).qualifies
    assert find_opening(parse_tiles("r1 y1 b1 k1 k5 k9")) is None  # 100 points of sets, but no run
    state = position(["r11 r12 r13 y3 y4 y5 k9 b2", "b5"])
    move = opening_move(state, 0)
    assert move is not None
    assert apply(state, 0, move).opened_on[0] is not None


def test_a_1_can_be_laid_off_at_either_end_of_a_12_tile_run() -> None:
    table = [parse_tiles("r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13")]
    assert [str(move) for move in lay_off_spots(table, parse_tiles("r1")[0])] == ["add 0 r1 ..", "add 0 r1"]
    assert [str(move) for move in lay_off_spots([parse_tiles("r5 r6 r7")], parse_tiles("J")[0])] == ["add 0 J ..", "add 0 J"]
    assert [str(move) for move in lay_off_spots([parse_tiles("r9 y9 k9")], parse_tiles("b9")[0])] == ["add 0 b9"]
    assert lay_off_spots([parse_tiles("r9 y9 J")], parse_tiles("J")[0]) == []


def test_it_lists_the_jokers_a_seat_can_take_and_with_what() -> None:
    state = position(["r6 b9 k1", "y2"], melds=[(1, "r5 J r7"), (1, "r9 y9 J")], opened=[0])
    assert [str(move) for move in jokers_on_table(state)] == ["joker 0 r6", "joker 1 b9 k9"]
    assert [str(move) for move in joker_takes(state, 0)] == ["joker 0 r6"]  # k9 is missing for the set


def test_it_lists_the_melds_the_last_discard_can_go_into() -> None:
    state = apply(position(["r5 r6 y7 k7 b1", "b5 b6 r7"], turn=1, opened=[0]), 1, parse_move("discard r7"))
    assert {str(move) for move in take_discard_moves(state, 0)} == {"take r5 r6 r7", "take r7 y7 k7"}


def every_offer(state: HouseState, seat: int) -> list[str]:
    return [str(move) for move in (*lay_off_moves(state, seat), *joker_takes(state, seat), *take_discard_moves(state, seat))]


def check_offers(seed: int) -> set[str]:
    """Play a random 3-player game; at every turn apply every move a helper offers (before and after the
    draw) to check it is legal. Returns the kinds of move offered."""
    rng = random.Random(seed)
    state = RULES.new_game(3, rng)
    offered: set[str] = set()
    while state.phase is not Phase.OVER:
        seat = state.turn
        for _ in range(2):  # before drawing (the last discard), then after drawing (the table)
            for text in every_offer(state, seat):
                apply(state, seat, parse_move(text))  # raises if a helper offered an illegal move
                offered.add(text.split()[0])
            move = opening_move(state, seat)
            if move is not None:
                apply(state, seat, move)
                offered.add("lay")
            if state.phase is Phase.DRAW:
                state = apply(state, seat, parse_move("draw"))
        state, _ = random_turn(state, rng)
    return offered


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_move_a_helper_offers_is_legal(seed: int) -> None:
    check_offers(seed)


def test_the_helpers_offer_every_kind_of_table_move_over_a_few_games() -> None:
    offered = set().union(*(check_offers(seed) for seed in range(8)))
    assert offered == {"add", "joker", "take", "lay"}
