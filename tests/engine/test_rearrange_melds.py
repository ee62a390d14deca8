"""Sets of the Rearrange game and their face values (SPEC 4 "Sets" and "Decisions", seeds 002 and 004)."""

from __future__ import annotations

import pytest

from apps.engine.errors import IllegalMove
from apps.engine.rearrange.melds import Meld, rack_value, read_meld, try_read_meld
from apps.engine.tiles import Tile, parse_tiles


def meld(text: str) -> Meld:
    return read_meld(parse_tiles(text))


def problem(text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        read_meld(parse_tiles(text))
    return str(caught.value)


def faces(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


# --- groups (seed 004 "Playing": 3 or 4 matching tiles in different colours) ------------------------------


@pytest.mark.parametrize("text", ["r5 y5 b5", "r5 y5 b5 k5", "k13 b13 r13", "r5 y5 J", "r5 J b5 k5", "J y13 J"])
def test_it_accepts_a_group_of_three_or_four_tiles_of_one_number_in_different_colours(text: str) -> None:
    assert meld(text).kind == "set"


def test_it_refuses_a_group_with_a_colour_twice() -> None:
    assert problem("r5 y5 r5") == "'r5 y5 r5' is not a set: a group has each colour only once"


def test_it_refuses_a_group_of_five() -> None:
    assert "at most 4 tiles" in problem("r5 y5 b5 k5 J")


def test_a_group_joker_stands_for_any_missing_colour() -> None:
    assert meld("r5 y5 J").stands_for[2] == faces("b5 k5")
    assert meld("r5 J b5 k5").stands_for[1] == faces("y5")


# --- runs (seed 004: one colour, numbers in a row; 1 is always the lowest, never after 13) ----------------


@pytest.mark.parametrize("text", ["r1 r2 r3", "b11 b12 b13", "k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13", "y4 J y6"])
def test_it_accepts_a_run_of_consecutive_numbers_in_one_colour(text: str) -> None:
    assert meld(text).kind == "run"


def test_it_refuses_a_run_that_goes_on_from_13_to_1() -> None:
    assert "never goes on from 13 to 1" in problem("r12 r13 r1")  # SPEC 4: no 12 13 1
    assert "never goes on from 13 to 1" in problem("r13 r1 r2")


def test_it_refuses_a_joker_that_would_stand_for_14() -> None:
    assert problem("r12 r13 J") == "'r12 r13 J' is not a set: a run can't go past 13, jokers included"


def test_it_refuses_a_joker_that_would_stand_for_0() -> None:
    assert problem("J r1 r2") == "'J r1 r2' is not a set: a run can't go below 1, jokers included"


def test_it_refuses_a_run_with_a_gap() -> None:
    assert problem("r5 r7 r8") == "'r5 r7 r8' is not a set: a run goes up one number at a time, in table order"


def test_it_refuses_a_run_written_downwards() -> None:
    assert "up one number at a time" in problem("r7 r6 r5")  # SPEC 3 decisions: runs are written ascending


def test_it_refuses_a_mix_of_colours_and_numbers() -> None:
    assert "a run is one colour" in problem("r5 y6 b7")


def test_it_refuses_fewer_than_three_tiles() -> None:
    assert problem("r5 r6") == "'r5 r6' is not a set: a set needs at least 3 tiles"


def test_a_joker_in_a_run_stands_for_the_number_of_its_place() -> None:
    assert meld("J r5 r6").stands_for[0] == faces("r4")
    assert meld("r5 J r7").stands_for[1] == faces("r6")


# --- jokers (SPEC 4: two jokers may sit in one set; a joker counts as the tile it replaces) ---------------


def test_two_jokers_may_sit_in_one_set() -> None:
    assert meld("r5 J J").kind == "run"
    assert meld("J r5 J y5").kind == "set"


@pytest.mark.parametrize("text", ["J J J r5", "r5 J J J", "r1 J r3 r4 J r6 r7 r8 J r10 r11 r12 r13", "J J y7 J"])
def test_it_refuses_a_set_with_three_jokers_as_there_are_only_two(text: str) -> None:
    # Issue 13: "J J J r5" read as the run 2-5; SPEC 2 has two jokers.
    assert problem(text) == f"{text!r} is not a set: there are only two jokers in the game, not 3"


def test_one_tile_with_two_jokers_reads_as_a_run_where_it_can() -> None:
    # SPEC 4 decisions: r5 J J is the run 5-6-7, worth 18.
    run = meld("r5 J J")
    assert (run.kind, run.points, run.stands_for[1:]) == ("run", 18, (faces("r6"), faces("r7")))
    assert meld("J J r13").points == 36  # 11-12-13
    assert meld("r13 J J").kind == "set"  # 13-14-15 is no run, so three 13s: 39
    assert meld("r13 J J").points == 39


def test_a_set_needs_a_numbered_tile() -> None:
    assert try_read_meld(faces("J J J")) is None


# --- values (seed 004 "Counting": face value; a joker counts as the tile it replaces) ------------------------


def test_a_set_is_worth_its_face_values_with_each_joker_as_what_it_stands_for() -> None:
    assert meld("r11 r12 r13").points == 36  # seed 002 tip: "a single run of eleven-twelve-thirteen is thirty-six"
    assert meld("r11 y11 J").points == 33  # seed 002 tip: "a joker with two elevens is thirty-three"
    assert meld("r1 r2 r3 r4").points == 10


def test_a_tile_left_on_a_rack_counts_its_number_and_a_joker_30() -> None:
    assert [rack_value(tile) for tile in parse_tiles("r1 k13 J")] == [1, 13, 30]
