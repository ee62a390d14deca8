"""Melds of the house game and their opening values (SPEC 3 "Melds", "Opening", "Decisions")."""

from __future__ import annotations

import pytest

from apps.engine.errors import IllegalMove
from apps.engine.house.melds import MeldKind, opening_check, rack_penalty, read_meld, try_read_meld
from apps.engine.tiles import parse_tiles


def meld(text: str):  # type: ignore[no-untyped-def]
    return read_meld(parse_tiles(text))


def problem(text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        read_meld(parse_tiles(text))
    return str(caught.value)


# --- runs (SPEC 3 "Melds": examples from the SPEC and the seed's meld table) ---------------------------


@pytest.mark.parametrize("text", ["r5 r6 r7", "r1 r2 r3", "r12 r13 r1", "k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13", "b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 b1"])
def test_it_accepts_a_run_of_consecutive_numbers_in_one_colour(text: str) -> None:
    assert meld(text).kind is MeldKind.RUN


def test_it_refuses_a_1_in_the_middle_of_a_run() -> None:
    assert "never sit in the middle" in problem("r13 r1 r2")  # SPEC: 13 1 2 is not a run


def test_it_refuses_a_run_with_a_1_at_both_ends() -> None:
    assert "at most 13 tiles" in problem("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r1")


def test_it_refuses_a_run_of_two_colours() -> None:
    assert "one colour" in problem("r5 r6 y7")


def test_it_refuses_a_run_with_a_gap() -> None:
    assert "consecutive" in problem("r5 r6 r8")


def test_it_refuses_a_run_written_descending() -> None:
    assert "consecutive" in problem("r7 r6 r5")  # SPEC decisions: runs ascending


def test_it_refuses_a_meld_of_two_tiles() -> None:
    assert "at least 3 tiles" in problem("r5 r6")


def test_it_refuses_a_joker_below_1_or_past_a_1_after_13() -> None:
    assert "never sit in the middle" in problem("J r1 r2")  # the joker would be a 0
    assert "past" in problem("r12 r13 J r2")  # nothing follows the 1 after 13
    assert meld("r11 r12 r13 J").stands_for[3] == tuple(parse_tiles("r1"))


# --- sets ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["r9 y9 k9", "r9 y9 b9 k9", "r9 y9 J", "k1 b1 y1"])
def test_it_accepts_a_set_of_one_number_in_different_colours(text: str) -> None:
    assert meld(text).kind is MeldKind.SET


def test_it_refuses_a_set_with_a_colour_twice() -> None:
    assert "different colours" in problem("r9 r9 k9")


def test_it_refuses_a_set_of_five() -> None:
    assert "at most 4" in problem("r9 y9 b9 k9 J")


def test_it_refuses_a_mix_of_numbers_and_colours() -> None:
    assert "one colour" in problem("r9 y10 k11")


# --- jokers ---------------------------------------------------------------------------------------------


def test_it_refuses_more_jokers_than_half_the_real_tiles() -> None:
    message = problem("r5 J J")  # SPEC: r5 J J is not fine
    assert message == "'r5 J J' is not a meld: a meld needs at least twice as many real tiles as jokers"


@pytest.mark.parametrize("text", ["J J J r5", "r1 J r3 r4 J r6 r7 r8 J r10 r11 r12 r13", "J r2 r3 J r5 r6 r7 J r9 r10"])
def test_it_refuses_a_meld_with_three_jokers_as_there_are_only_two(text: str) -> None:
    # Issue 13: a 13-tile run with three jokers met the "twice as many real tiles" rule; SPEC 2 has two jokers.
    assert problem(text) == f"{text!r} is not a meld: there are only two jokers in the game, not 3"


def test_it_refuses_two_jokers_side_by_side() -> None:
    assert "side by side" in problem("r3 r4 J J r7 r8")


def test_two_jokers_apart_with_four_real_tiles_are_fine() -> None:
    assert meld("r3 J r5 J r7 r8").stands_for[1] == (parse_tiles("r4")[0],)


def test_a_jokers_place_in_a_run_says_what_it_stands_for() -> None:
    assert meld("r5 J r7").stands_for[1] == tuple(parse_tiles("r6"))
    assert meld("r12 r13 J").stands_for[2] == tuple(parse_tiles("r1"))  # the 1 after 13
    assert meld("J r2 r3").stands_for[0] == tuple(parse_tiles("r1"))


def test_a_joker_in_a_set_stands_for_any_missing_colour() -> None:
    assert meld("r9 y9 J").stands_for[2] == tuple(parse_tiles("b9 k9"))
    assert meld("r9 J y9 k9").stands_for[1] == tuple(parse_tiles("b9"))


# --- opening values (SPEC 3 "Opening" table, every line) --------------------------------------------


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("r2 r3 r4", (5, 5, 5)),  # 2-9 = 5
        ("r8 r9 r10", (5, 5, 10)),  # 10-13 = 10
        ("r11 r12 r13", (10, 10, 10)),
        ("r1 r2 r3", (5, 5, 5)),  # a 1 at the start of a run = 5
        ("r12 r13 r1", (10, 10, 10)),  # a 1 after 13 = 10
        ("r1 y1 b1", (25, 25, 25)),  # a 1 in a set of 1s = 25
        ("r7 y7 b7 k7", (5, 5, 5, 5)),
        ("r12 y12 k12", (10, 10, 10)),
        ("r5 J r7", (5, 5, 5)),  # a joker = the value of the tile it stands for
        ("r9 J r11", (5, 10, 10)),
        ("r12 r13 J", (10, 10, 10)),  # joker as the 1 after 13
        ("J r2 r3", (5, 5, 5)),  # joker as the 1 at the start
        ("r1 y1 J", (25, 25, 25)),  # joker in a set of 1s
    ],
)
def test_every_opening_value_of_the_spec_table(text: str, values: tuple[int, ...]) -> None:
    assert meld(text).values == values


def test_an_opening_needs_45_points() -> None:
    check = opening_check([meld("r1 r2 r3 r4 r5 r6 r7 r8")])  # 40
    assert not check.qualifies
    assert check.missing == 5
    assert check.reason == "An opening needs at least 45 points: this is 40, 5 short"


def test_it_refuses_an_opening_without_a_run() -> None:
    check = opening_check([meld("r1 y1 b1")])  # 75 points of sets alone
    assert check.points == 75
    assert not check.qualifies
    assert check.reason == "An opening needs at least one run"


def test_runs_alone_open() -> None:
    assert opening_check([meld("r11 r12 r13"), meld("k7 k8 k9")]).qualifies  # 30 + 15


def test_a_run_and_a_set_open_together() -> None:
    check = opening_check([meld("b2 b3 b4"), meld("r10 y10 k10")])  # 15 + 30
    assert check.points == 45 and check.qualifies


@pytest.mark.parametrize(("text", "penalty"), [("r2", 5), ("r9", 5), ("r10", 10), ("k13", 10), ("y1", 25), ("J", 50)])
def test_every_rack_penalty_of_the_scoring_table(text: str, penalty: int) -> None:
    assert rack_penalty(parse_tiles(text)[0]) == penalty


def test_try_read_meld_answers_none_for_a_non_meld() -> None:
    assert try_read_meld(parse_tiles("r5 J J")) is None
