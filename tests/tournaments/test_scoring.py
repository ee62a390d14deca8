"""Points by place, streaks, berserk, performance, pause waits and table splits (SPEC 16), as plain values."""

from __future__ import annotations

import pytest

from apps.tournaments import scoring


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ([1, 2], [2, 0]),
        ([2, 1], [0, 2]),
        ([1, 1], [1, 1]),  # two sharing first at 2 seats: (2+0)//2
        ([1, 2, 3], [3, 1, 0]),
        ([1, 1, 3], [2, 2, 0]),
        ([1, 2, 2], [3, 0, 0]),  # (1+0)//2 rounds down to 0
        ([1, 2, 3, 4], [4, 2, 1, 0]),
        ([1, 1, 3, 4], [3, 3, 1, 0]),  # SPEC 16's example: (4+2)/2 = 3 each
        ([1, 2, 2, 4], [4, 1, 1, 0]),
        ([1, 1, 1, 1], [1, 1, 1, 1]),  # 7//4
    ],
)
def test_points_by_place_share_the_places_they_cover_rounded_down(places, points):
    assert scoring.place_points(places) == points


def test_a_table_of_one_or_five_is_refused():
    with pytest.raises(ValueError, match="2 to 4 seats"):
        scoring.place_points([1])
    with pytest.raises(ValueError, match="2 to 4 seats"):
        scoring.place_points([1, 2, 3, 4, 5])


def test_the_third_first_place_in_a_row_is_doubled_and_a_loss_ends_the_streak():
    first = scoring.score_seat(base=2, first=True, left=False, streak=0, berserk=False, own_turns=0)
    second = scoring.score_seat(base=2, first=True, left=False, streak=first.streak, berserk=False, own_turns=0)
    third = scoring.score_seat(base=2, first=True, left=False, streak=second.streak, berserk=False, own_turns=0)
    lost = scoring.score_seat(base=0, first=False, left=False, streak=third.streak, berserk=False, own_turns=0)
    assert [first.points, second.points, third.points] == [2, 2, 4]
    assert [first.doubled, second.doubled, third.doubled] == [False, False, True]
    assert lost.streak == 0 and lost.points == 0


def test_berserk_adds_one_after_doubling_only_with_seven_own_turns():
    assert scoring.score_seat(base=4, first=True, left=False, streak=2, berserk=True, own_turns=7).points == 9
    assert scoring.score_seat(base=4, first=True, left=False, streak=2, berserk=True, own_turns=6).points == 8
    assert scoring.score_seat(base=2, first=False, left=False, streak=0, berserk=True, own_turns=30).points == 2


def test_a_leaver_scores_nothing_and_loses_the_streak():
    score = scoring.score_seat(base=4, first=True, left=True, streak=5, berserk=True, own_turns=10)
    assert (score.points, score.streak, score.won) == (0, 0, False)


def test_performance_is_the_opponents_rating_moved_by_the_result():
    assert scoring.performances([1, 2], [1500, 1100]) == [(1100 + 400, 1), (1500 - 400, 1)]
    assert scoring.performances([1, 1, 3], [1000, 1200, 1400]) == [(1200 + 1800, 2), (1000 + 1800, 2), (600 + 800, 2)]


def test_the_pause_wait_doubles_within_twenty_minutes_up_to_two_minutes():
    assert scoring.pause_wait(0, None) == 10
    assert scoring.pause_wait(10, 60) == 20
    assert scoring.pause_wait(80, 60) == 120
    assert scoring.pause_wait(120, 60) == 120
    assert scoring.pause_wait(40, 21 * 60) == 10


@pytest.mark.parametrize(
    ("count", "split"),
    [(3, [3]), (4, [4]), (5, [4]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]), (11, [4, 4, 3]), (2, [])],
)
def test_three_four_fills_tables_of_four_and_uses_three_where_the_count_needs_it(count, split):
    assert sorted(scoring.table_sizes_for(count, (4, 3)), reverse=True) == split


def test_fixed_seats_split_into_tables_of_that_size():
    assert scoring.table_sizes_for(7, (2,)) == [2, 2, 2]
