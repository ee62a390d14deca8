"""House-game puzzles (apps/engine/puzzles/house.py): goals checked by applying the answer with the game's
own rules. Positions written for these tests: a run to extend and a set to lay (going out), a joker
standing for r6 that the rack's r6 takes, and an opening that the greedy choice (the richest meld, y10-y13)
misses, from a self-play game of seed 3."""

from __future__ import annotations

import pytest

from apps.engine.puzzles import Puzzle, judge, recheck
from apps.engine.puzzles.house import find, greedy_opens, position_json
from apps.engine.tiles import Tile, parse_tiles


def house_puzzle(rack: str, table: list[str], opened: bool) -> Puzzle:
    position = position_json(
        parse_tiles(rack), [tuple(parse_tiles(meld)) for meld in table], [1] * len(table), Tile.parse("k7"), opened
    )
    puzzle = find(position)
    assert puzzle is not None
    return puzzle


@pytest.fixture(scope="module")
def joker_out() -> Puzzle:
    return house_puzzle("r6 y9 b9 k9 k2", ["r5 J r7"], opened=True)


@pytest.fixture(scope="module")
def opening() -> Puzzle:
    return house_puzzle(
        "r2 r3 r11 r13 y10 y11 y12 y13 b6 b13 k2 k3 k6 k7 k10", ["k8 k9 J k11", "b2 b3 b4"], opened=False
    )


def test_a_go_out_that_needs_the_joker_is_found(joker_out: Puzzle) -> None:
    assert joker_out.kind == "go-out"
    assert joker_out.target == {"tiles": 4}
    assert "joker-retrieval" in joker_out.themes
    assert joker_out.search["easy"] == 3  # the Easy bot lays y9 b9 k9 and keeps r6
    assert recheck(joker_out) is None


def test_any_order_of_the_moves_that_goes_out_is_right(joker_out: Puzzle) -> None:
    assert judge(joker_out, "joker 0 r6; lay y9 b9 k9 J; discard k2").right
    assert judge(joker_out, ["joker 0 r6", "lay y9 b9 J", "add 1 k9", "discard k2"]).right
    assert judge(joker_out, "joker 0 r6; lay J y9 b9 k9").right  # the discard of the last tile may be left out


def test_a_turn_one_tile_short_of_going_out_is_short_by_one(joker_out: Puzzle) -> None:
    verdict = judge(joker_out, "lay y9 b9 k9; discard k2")
    assert verdict.legal and not verdict.right
    assert verdict.short_by == 1 and verdict.reached == 3


def test_an_illegal_move_is_refused_with_the_rules_reason(joker_out: Puzzle) -> None:
    verdict = judge(joker_out, "lay y9 b9; discard k2")
    assert not verdict.legal and verdict.code == "not_a_meld"
    assert "y9 b9" in verdict.reason
    after_the_end = judge(joker_out, "joker 0 r6; lay y9 b9 k9 J; discard k2; draw")
    assert not after_the_end.legal
    assert not judge(joker_out, "fly away").legal


def test_an_opening_the_greedy_choice_misses_is_found(opening: Puzzle) -> None:
    assert opening.kind == "open" and opening.target == {"points": 45}
    assert not greedy_opens(parse_tiles(opening.position["rack"]))
    assert recheck(opening) is None


def test_any_opening_is_right_and_a_short_one_is_short_by_its_points(opening: Puzzle) -> None:
    assert judge(opening, "lay r13 y13 b13 | y10 y11 y12; discard r11").right
    assert judge(opening, "lay y10 y11 y12 | b13 r13 y13").right
    short = judge(opening, "lay y10 y11 y12 y13")  # 40: the engine refuses it
    assert not short.right and not short.legal
    assert short.unit == "points" and short.short_by == 5


def test_taking_the_joker_without_laying_it_is_not_right() -> None:
    puzzle = Puzzle(
        "tile-rummy", "take-joker", "Take the joker and lay it again",
        position_json(parse_tiles("r6 y9 b9 k9 k2 k3"), [tuple(parse_tiles("r5 J r7"))], [1], Tile.parse("k7"), True),
        {"tiles": 4}, {"moves": ["joker 0 r6", "lay y9 b9 k9 J", "discard k3"]},
    )  # fmt: skip
    assert judge(puzzle, puzzle.solution["moves"]).right
    kept = judge(puzzle, "joker 0 r6; lay y9 b9 k9; discard k3")
    assert not kept.right and "still in your hand" in kept.reason
    untaken = judge(puzzle, "lay y9 b9 k9; discard k3")
    assert not untaken.right and "No joker" in untaken.reason
