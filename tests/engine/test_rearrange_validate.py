"""The check of a play against the turn's start (SPEC 4 "The turn", "Opening", "Jokers on the table"):
one readable error per failing condition. Positions are written in notation; where they come from is noted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.engine.errors import IllegalMove
from apps.engine.rearrange.validate import PlayCheck, check_play
from apps.engine.tiles import COLOURS, JOKER, Colour, Tile, format_melds, parse_melds, parse_tiles


def play(start: str, rack: str, table: str, *, opened: bool = True) -> PlayCheck:
    return check_play(parse_melds(start), parse_tiles(rack), parse_melds(table), opened=opened)


def refused(start: str, rack: str, table: str, *, opened: bool = True) -> str:
    with pytest.raises(IllegalMove) as caught:
        play(start, rack, table, opened=opened)
    return str(caught.value)


def placed(check: PlayCheck) -> list[str]:
    return [str(tile) for tile in check.placed]


# --- rebuilding the table (seed 004 "Building on Sets" and "Round" diagrams) ---------------------------------


def test_a_run_takes_rack_tiles_at_both_ends() -> None:
    # 004: "Red 5, 6, 7 are on the table; you add a red 4 and a red 8 from the rack."
    assert placed(play("r5 r6 r7", "r4 r8 k2", "r4 r5 r6 r7 r8")) == ["r4", "r8"]


def test_a_fourth_tile_of_a_group_can_leave_it_for_a_new_run() -> None:
    # 004: "You can take the blue 7 from the group of four on the table and lay the run."
    assert placed(play("r7 y7 b7 k7", "b5 b6", "r7 y7 k7 | b5 b6 b7")) == ["b5", "b6"]


def test_a_run_can_give_its_end_to_a_new_group() -> None:
    # 004: "You can add a black 11 to the run and use the 8s to form a new group."
    assert placed(play("k8 k9 k10", "k11 r8 y8", "k9 k10 k11 | r8 y8 k8")) == ["r8", "y8", "k11"]


def test_a_run_can_be_split_around_a_rack_tile() -> None:
    # 004: "You can split the run and use the orange 7 to form two new runs."
    assert placed(play("y4 y5 y6 y7 y8 y9", "y7", "y4 y5 y6 y7 | y7 y8 y9")) == ["y7"]


def test_a_combined_split_takes_tiles_from_a_run_and_a_group() -> None:
    # 004: "You can place the red 1 from the rack with the orange 1 from the run and black 1 from the group."
    start = "y1 y2 y3 y4 | k1 b1 y1 r1"
    assert placed(play(start, "r1", "y2 y3 y4 | b1 y1 r1 | r1 y1 k1")) == ["r1"]


# --- the End-turn conditions, one error each (SPEC 4 "The turn"; 002 FAQ "Why can I not end my turn?") --------


def test_it_quotes_a_set_that_is_not_legal() -> None:
    message = refused("r5 r6 r7", "r9", "r5 r6 r7 r9")
    assert message == "'r5 r6 r7 r9' is not a set: a run goes up one number at a time, in table order"


def test_it_refuses_a_table_tile_that_went_to_the_rack() -> None:
    message = refused("r5 r6 r7 r8", "k1", "r5 r6 r7")
    assert message == "A table tile went to your rack (r8): tiles on the table stay on the table"


def test_it_refuses_a_table_joker_that_went_to_the_rack() -> None:
    message = refused("r4 J r6", "r5", "r4 r5 r6")
    assert message.startswith("A joker from the table went to your rack")


def test_it_refuses_a_tile_that_is_not_on_the_rack() -> None:
    message = refused("r5 r6 r7", "k1", "r5 r6 r7 r8")
    assert message == "r8: not on your rack (and not on the table at the start of the turn)"


def test_it_refuses_a_play_that_takes_nothing_from_the_rack() -> None:
    message = refused("r5 r6 r7 r8 r9 r10", "k1", "r5 r6 r7 | r8 r9 r10")
    assert message == "Nothing left your rack: play at least one tile, or draw"


# --- the opening: 30 from the rack, the table untouched (SPEC 4 "Opening"; 004 "Initial Play") -------------


def test_an_opening_of_30_in_new_sets_is_legal() -> None:
    check = play("", "r10 y10 b10 k1", "r10 y10 b10", opened=False)
    assert (check.opening_points, placed(check)) == (30, ["r10", "y10", "b10"])


def test_an_opening_under_30_gives_its_running_total() -> None:
    message = refused("", "r9 y9 b9 k1", "r9 y9 b9", opened=False)
    assert message == "Your opening is worth 27: it needs at least 30 in new sets of tiles from your rack"


def test_an_opening_counts_a_joker_as_the_tile_it_stands_for() -> None:
    # 002 tips: "A joker with two elevens is thirty-three"; "eleven-twelve-thirteen is thirty-six".
    assert play("", "r11 y11 J", "r11 y11 J", opened=False).opening_points == 33
    assert play("", "b13 J J", "J J b13", opened=False).opening_points == 36
    assert "worth 24" in refused("", "r5 J J r1 r2 r3", "r5 J J | r1 r2 r3", opened=False)


def test_an_opening_leaves_the_sets_on_the_table_as_they_were() -> None:
    # SPEC 4 decision: on the opening turn the sets already on the table must stay exactly as they were.
    message = refused("r5 r6 r7", "r8 k10 y10 b10", "r5 r6 r7 r8 | k10 y10 b10", opened=False)
    assert message == "On your opening turn the sets already on the table stay as they were: 'r5 r6 r7' was changed"


def test_an_opening_beside_untouched_sets_is_legal() -> None:
    check = play("r5 r6 r7 | y2 b2 k2", "k11 k12 k13", "r5 r6 r7 | y2 b2 k2 | k11 k12 k13", opened=False)
    assert check.opening_points == 36


def test_an_opening_may_write_a_group_on_the_table_in_another_order() -> None:
    # Issue 13: a bot client or another front end sends the sets in its own order. SPEC 4, decisions: the
    # same tiles in each set; the order of a group's tiles does not matter.
    check = play("y7 b7 r7 k7", "r10 r11 r12 k1", "r7 y7 b7 k7 | r10 r11 r12", opened=False)
    assert (check.opening_points, placed(check)) == (33, ["r10", "r11", "r12"])
    assert play("r9 J b9 | k2 k3 k4", "y11 y12 y13", "k2 k3 k4 | J b9 r9 | y11 y12 y13", opened=False).opening_points == 36


def test_an_opening_may_not_turn_a_group_into_a_run_of_the_same_tiles() -> None:
    # r13 J J can only be a group of 13s; J J r13 is the run 11-12-13: another set, though the same tiles.
    message = refused("r13 J J", "k10 k11 k12", "J J r13 | k10 k11 k12", opened=False)
    assert message == "On your opening turn the sets already on the table stay as they were: 'r13 J J' was changed"


def test_an_opening_keeps_a_runs_jokers_where_they_were() -> None:
    # A run's order is its numbers: r5 J J (5-6-7) and J r5 J (4-5-6) are different runs.
    assert "'r5 J J' was changed" in refused("r5 J J", "k10 k11 k12", "J r5 J | k10 k11 k12", opened=False)


@given(
    number=st.integers(1, 13),
    colours=st.lists(st.sampled_from(COLOURS), min_size=3, max_size=4, unique=True),
    joker=st.booleans(),
    data=st.data(),
)
def test_an_opening_accepts_a_group_on_the_table_in_any_order(
    number: int, colours: list[Colour], joker: bool, data: st.DataObject
) -> None:
    group = [Tile(colour, number) for colour in colours]
    if joker:
        group[data.draw(st.integers(0, len(group) - 1), label="joker for")] = JOKER
    order = data.draw(st.permutations(group), label="order")
    check = check_play([group], parse_tiles("b11 b12 b13 k1"), [list(order), parse_tiles("b11 b12 b13")], opened=False)
    assert check.opening_points == 36 and placed(check) == ["b11", "b12", "b13"]


def test_tiles_tacked_onto_a_set_count_nothing_towards_the_opening() -> None:
    # 002: "A tile tacked onto somebody else's set counts nothing towards that thirty."
    assert "was changed" in refused("r11 r12 r13", "r10 k1", "r10 r11 r12 r13", opened=False)


# --- jokers on the table (SPEC 4 "Jokers on the table"; 004 "Playing the Joker") --------------------------------


def test_a_joker_freed_by_the_tile_it_stands_for_is_played_with_two_rack_tiles() -> None:
    # 004: "replace it with a tile from your rack ... combined with two or more tiles from your rack".
    assert placed(play("r4 J r6", "r5 k7 k8", "r4 r5 r6 | J k7 k8")) == ["r5", "k7", "k8"]


def test_a_joker_in_a_three_tile_group_is_freed_by_either_missing_colour() -> None:
    for colour in ("b5", "k5"):
        play("r5 y5 J", f"{colour} r8 r9", f"r5 y5 {colour} | r8 r9 J")


def test_a_joker_that_keeps_standing_for_its_tile_may_move_with_the_table() -> None:
    assert placed(play("r4 J r6", "r3", "r3 r4 J r6")) == ["r3"]


def test_a_group_joker_still_standing_for_a_missing_colour_is_kept() -> None:
    # r5 y5 J: the joker stands for b5 or k5; in y5 b5 J (missing r5, k5) it can still stand for k5.
    assert placed(play("r5 y5 J | b5 b6 b7 b8", "r6 r7", "r5 r6 r7 | b6 b7 b8 | y5 b5 J")) == ["r6", "r7"]


def test_a_joker_is_freed_only_by_the_tile_it_stands_for_from_the_rack() -> None:
    # The r5 in its place came from the group on the table, not from the rack.
    message = refused("r4 J r6 | r5 y5 b5 k5", "k7 k8", "r4 r5 r6 | y5 b5 k5 | J k7 k8")
    assert message == (
        "A joker is freed from 'r4 J r6' only by putting the tile it stands for, r5, from your rack in its place"
    )


def test_a_freed_joker_needs_two_rack_tiles_in_its_new_set() -> None:
    message = refused("r4 J r6 | k7 k8 k9", "r5 k10", "r4 r5 r6 | k7 k8 k9 k10 J")
    assert message == (
        "A freed joker must be played again in a set with at least two tiles from your rack: "
        "'k7 k8 k9 k10 J' does not have them"
    )


def test_a_joker_standing_for_a_new_tile_counts_as_freed() -> None:
    message = refused("J r5 r6", "r7", "r5 r6 r7 J")
    assert "only by putting the tile it stands for, r4, from your rack" in message


def test_the_replacement_may_itself_join_the_freed_jokers_new_set() -> None:
    # The joker stood for r5; r5 and y5 from the rack make a new group with it while r4 and r6 join runs.
    start = "r1 r2 r3 | r7 r8 r9 | r4 J r6"
    assert placed(play(start, "r5 y5", "r1 r2 r3 r4 | r6 r7 r8 r9 | r5 y5 J")) == ["r5", "y5"]


def test_two_jokers_on_the_table_are_told_apart_by_what_they_stand_for() -> None:
    # Either joker may be the one that moved: the check tries both.
    start = "r4 J r6 | k1 k2 J"
    assert placed(play(start, "r5 y9 b9", "r4 r5 r6 | k1 k2 J | y9 b9 J")) == ["r5", "y9", "b9"]


def test_before_the_opening_no_table_joker_can_be_freed() -> None:
    assert "was changed" in refused("r4 J r6", "r5 k10 k11 k12", "r4 r5 r6 | J k10 k11 k12", opened=False)


def test_a_rack_joker_goes_anywhere() -> None:
    assert placed(play("r5 r6 r7", "J", "r5 r6 r7 J")) == ["J"]


@given(
    runs=st.lists(st.tuples(st.sampled_from(COLOURS), st.integers(1, 11)), min_size=3, max_size=6),
    opened=st.booleans(),
)
def test_no_play_naming_three_or_more_jokers_is_ever_accepted(runs: list[tuple[Colour, int]], opened: bool) -> None:
    # Every set legal on its own ("r4 J r6"), one joker each, and a rack said to hold every tile: still
    # refused, since there are only two jokers in the game (SPEC 2).
    table = [[Tile(colour, start), JOKER, Tile(colour, start + 2)] for colour, start in runs]
    rack = [tile for meld in table for tile in meld]
    with pytest.raises(IllegalMove) as caught:
        check_play([], rack, table, opened=opened)
    assert str(caught.value) == f"{format_melds(table)!r} is not a table: there are only two jokers in the game, not {len(runs)}"


def test_the_placed_tiles_are_the_new_ones_in_face_order() -> None:
    assert play("r5 r6 r7", "k1 r8 J", "r5 r6 r7 r8 J").placed == (Tile.parse("r8"), Tile.parse("J"))


def test_two_jokers_in_one_group_stand_for_two_different_colours() -> None:
    # Both jokers stood for y13; in b13 J J they stand for two of r13, y13, k13: one of them changed.
    message = refused("y10 y11 y12 J | y10 y11 y12 J", "b13", "y10 y11 y12 | y10 y11 y12 | b13 J J")
    assert "only by putting the tile it stands for, y13, from your rack" in message
