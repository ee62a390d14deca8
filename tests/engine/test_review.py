"""The review of a game record (SPEC 13 "Review"): every turn judged from what its seat saw, on records
written by hand in notation (tests/engine/review_records.py); and the hint for the seat to move."""

from __future__ import annotations

import random

import pytest

from apps.engine.bots import get_bot
from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.game import get_rules
from apps.engine.records import GameRecord, start_record
from apps.engine.review import hint, review
from apps.engine.review.report import TurnReview
from apps.engine.review.turns import turns_of
from tests.engine.review_records import house_record, rearrange_record

# The house game. Seat 0 starts with an opening (r9-r13 is 45, with a run) and b3 b4 b5 beside it, and
# keeps y5 y6 for later; seat 1 holds nothing that makes a meld, but y7 and b13, which would complete
# seat 0's y5 y6 and b11 b12.
HOUSE_RACKS = [
    "r9 r10 r11 r12 r13 b3 b4 b5 y5 y6 k8 b11 y12 k2 k1",
    "y1 y3 b7 b9 k10 k12 r2 r4 r6 b1 y9 k6 y7 b13",
]
OPENING = [(0, "lay r9 r10 r11 r12 r13 | b3 b4 b5"), (0, "discard k1"), (1, "draw")]

# The Rearrange game. Seat 0 could open with r10 r11 r12 (33) at once; seat 1 has nothing to play.
REARRANGE_RACKS = [
    "r10 r11 r12 y1 y4 y7 b2 b5 b8 b13 k3 k6 k9 k12",
    "r1 r3 r5 y2 y6 y10 b1 b4 b7 b11 k2 k5 k8 k13",
]


def turn(record: GameRecord, number: int) -> TurnReview:
    return review(record).turns[number - 1]


# --- the house game ----------------------------------------------------------------------------------------


def test_a_house_turn_where_the_player_drew_but_could_have_laid_three_tiles_is_missed_by_three() -> None:
    record = house_record(HOUSE_RACKS, [*OPENING, (1, "discard k3"), (0, "draw"), (0, "discard y7")], pile="k3 y7")
    third = turn(record, 3)
    assert (third.seat, third.played, third.tiles, third.points) == (0, "draw; discard y7", 0, 0)
    assert third.missed and (third.missed_tiles, third.missed_points) == (3, 15)
    assert third.to_dict()["best"] == "draw; lay y5 y6 y7; discard y12"


def test_a_house_turn_that_was_already_the_best_is_not_missed() -> None:
    record = house_record(HOUSE_RACKS, [*OPENING, (1, "discard k3"), (0, "draw"), (0, "discard y7")], pile="k3 y7")
    first = turn(record, 1)
    assert (first.tiles, first.points) == (8, 60)  # the opening's 45 and b3 b4 b5, by their rack points
    assert first.placed == ("r9", "r10", "r11", "r12", "r13", "b3", "b4", "b5")
    assert not first.missed and first.to_dict()["best"] == first.played and first.to_dict()["best_play"] is None


def test_the_house_review_never_uses_another_rack_or_the_pile() -> None:
    # Seat 0 draws b12: b11 b12 with seat 1's b13, or y5 y6 with seat 1's y7 (or the other y7, deeper in
    # the pile), would be a run; from what seat 0 could see there was nothing to lay.
    record = house_record(HOUSE_RACKS, [*OPENING, (1, "discard k3"), (0, "draw"), (0, "discard b12")], pile="k3 b12")
    third = turn(record, 3)
    assert third.played == "draw; discard b12"
    assert not third.missed and third.best is not None and third.best.tiles == 0


def test_a_house_turn_that_drew_instead_of_taking_the_last_discard_into_a_meld_is_missed() -> None:
    # Seat 1 throws y7, which seat 0 could have taken into y5 y6 y7; it drew r5 instead, and threw it.
    record = house_record(HOUSE_RACKS, [*OPENING, (1, "discard y7"), (0, "draw"), (0, "discard r5")], pile="k3 r5")
    third = turn(record, 3)
    assert third.missed and (third.missed_tiles, third.missed_points) == (3, 15)
    assert third.to_dict()["best"] == "take y5 y6 y7; discard y12"


def test_a_turn_cut_short_by_standing_up_is_not_judged() -> None:
    record = house_record(HOUSE_RACKS, [*OPENING, (1, "leave")], pile="k3")
    last = review(record).turns[-1]
    assert last.seat == 1 and last.played == "draw" and last.best is None and not last.missed


# --- the Rearrange game ----------------------------------------------------------------------------------------


def test_a_rearrange_turn_where_the_player_drew_but_could_have_opened_with_three_tiles_is_missed_by_three() -> None:
    record = rearrange_record(REARRANGE_RACKS, [(0, "draw"), (1, "draw"), (0, "play r10 r11 r12")], pool="y10 k1")
    first, second, third = review(record).turns
    assert first.missed and (first.missed_tiles, first.missed_points) == (3, 33)
    assert first.to_dict()["best"] == "play r10 r11 r12"
    assert not second.missed and second.to_dict()["best"] == "draw"
    assert (third.tiles, third.points) == (3, 33) and not third.missed


def test_the_rearrange_review_never_uses_another_rack_or_the_pool() -> None:
    # r10 r11 needs r9 or r12 (seat 1 holds both, the pool's first tile is the other r12); y13 b13 need
    # k13, also seat 1's. Seat 0 could place nothing.
    racks = ["r10 r11 y1 y4 y7 b2 b5 b8 b13 k3 k6 k9 k12 y13", "r9 r12 r1 r3 y2 y6 b1 b4 b7 b11 k2 k5 k8 k13"]
    record = rearrange_record(racks, [(0, "draw")], pool="r12")
    only = turn(record, 1)
    assert not only.missed and only.best is not None and only.best.tiles == 0 and only.to_dict()["best"] == "draw"


def test_the_summary_counts_each_seats_missed_turns_tiles_and_points_and_its_hints() -> None:
    info = {"hints": [{"seat": 0, "move": 2}, {"seat": 9, "move": "x"}]}  # a malformed entry is ignored
    record = rearrange_record(REARRANGE_RACKS, [(0, "draw"), (1, "draw"), (0, "play r10 r11 r12")], pool="y10 k1", info=info)
    result = review(record)
    assert [turn.hint for turn in result.turns] == [False, False, True]
    assert [seat.to_dict() for seat in result.summary] == [
        {"seat": 0, "turns": 2, "missed_turns": 1, "missed_tiles": 3, "missed_points": 33, "hints": 1},
        {"seat": 1, "turns": 1, "missed_turns": 0, "missed_tiles": 0, "missed_points": 0, "hints": 0},
    ]


def test_turns_the_table_played_are_reviewed_but_left_out_of_the_summary() -> None:
    record = rearrange_record(REARRANGE_RACKS, [(0, "timeout"), (1, "draw"), (0, "auto")], pool="y10 k1 k4 k7")
    result = review(record)
    assert [turn.by_table for turn in result.turns] == [True, False, True]
    assert result.turns[0].missed  # the clock ran out on a turn that could have opened
    assert result.summary[0].turns == 0 and result.summary[0].missed_turns == 0


def test_a_record_cut_into_turns_holds_only_the_seats_own_views() -> None:
    record = house_record(HOUSE_RACKS, [*OPENING, (1, "back"), (1, "discard k3"), (0, "draw"), (0, "discard y7")], pile="k3 y7")
    turns = list(turns_of(record))
    assert [(turn.seat, turn.first, turn.last) for turn in turns] == [(0, 0, 1), (1, 2, 4), (0, 5, 6)]
    for each in turns:
        for view in (*each.views, each.after):
            assert view["you"] == each.seat and isinstance(view["pile"], int)  # the pile as a count only
            assert "racks" not in view and "pile_order" not in view and "deal" not in view


def test_a_record_whose_moves_do_not_replay_is_refused_naming_the_move() -> None:
    record = rearrange_record(REARRANGE_RACKS, [(0, "draw"), (1, "play r1 r2 r3")])
    with pytest.raises(InvalidMove, match=r"Move 2 \('play r1 r2 r3' by seat 1\) fails"):
        review(record)


def test_every_best_play_of_a_bot_game_is_legal_and_worth_what_it_says() -> None:
    """Played from the real state at each judged turn, the review's best play is legal, and places what
    the review counts; and no turn the bots played beats it (the search is exact)."""
    for slug in ("tile-rummy", "tile-rummy-rearrange"):
        rules = get_rules(slug)
        rng = random.Random(5)
        state = rules.new_game(3, rng)
        record = start_record(slug, state)
        states = [state]
        bots = [get_bot(slug, level) for level in ("easy", "hard", "easy")]
        while not rules.is_over(state):
            seat = rules.to_move(state)
            move = bots[seat].next_move(rules.view_for(state, seat), rng)
            state = rules.apply(state, seat, move)
            record = record.add(seat, move, len(states))
            states.append(state)
        for judged in review(record).turns:
            assert judged.best is not None and judged.best.worth >= (judged.tiles, judged.points)
            if not judged.missed:
                continue
            replayed = states[judged.first]
            for move in judged.best.moves:
                replayed = rules.apply(replayed, judged.seat, move)
            assert rules.to_move(replayed) != judged.seat  # the play is a whole turn


# --- hints -----------------------------------------------------------------------------------------------------


def test_a_hint_is_the_best_play_from_the_seats_own_view() -> None:
    record = rearrange_record(REARRANGE_RACKS, [])
    rules = get_rules("tile-rummy-rearrange")
    view = rules.view_for(rules.from_deal(record.deal), 0)
    found = hint(view)
    assert found.notation == "play r10 r11 r12" and (found.tiles, found.points) == (3, 33)
    assert [str(tile) for tile in found.placed] == ["r10", "r11", "r12"]


def test_a_hint_is_refused_out_of_turn_and_for_a_spectator() -> None:
    rules = get_rules("tile-rummy-rearrange")
    state = rules.from_deal(rearrange_record(REARRANGE_RACKS, []).deal)
    with pytest.raises(IllegalMove, match="not this seat's turn"):
        hint(rules.view_for(state, 1))
    with pytest.raises(InvalidMove, match="not a spectator's"):
        hint(rules.view_for(state, None))
    with pytest.raises(InvalidMove, match="There is no game 'chess'"):
        hint({"game": "chess", "you": 0, "rack": []})
