"""The pure Elo module (apps/leaderboards/rating.py): no database."""

from __future__ import annotations

import pytest

from apps.leaderboards.rating import (
    K_FACTOR,
    K_FACTOR_PROVISIONAL,
    PROVISIONAL_MATCHES,
    Standing,
    effective_places,
    expected_score,
    is_provisional,
    rating_changes,
)

SEASONED = PROVISIONAL_MATCHES  # matches played by a player no longer provisional


def test_two_equal_players_the_winner_gains_what_the_loser_loses():
    changes = rating_changes([Standing("ana", 1000, SEASONED, 1), Standing("ben", 1000, SEASONED, 2)])
    assert changes == {"ana": K_FACTOR // 2, "ben": -K_FACTOR // 2}


def test_a_shared_place_between_equals_changes_nothing():
    changes = rating_changes([Standing("ana", 1000, SEASONED, 1), Standing("ben", 1000, SEASONED, 1)])
    assert changes == {"ana": 0, "ben": 0}


def test_a_shared_place_is_a_draw_that_moves_the_stronger_player_down():
    changes = rating_changes([Standing("strong", 1400, SEASONED, 1), Standing("weak", 1000, SEASONED, 1)])
    # Expected score of the stronger side at +400 is 10/11: a draw costs it 32 * (0.5 - 0.909) = -13.
    assert changes == {"strong": -13, "weak": 13}


def test_an_upset_moves_ratings_more_than_an_expected_win():
    expected = rating_changes([Standing("a", 1200, SEASONED, 1), Standing("b", 1000, SEASONED, 2)])
    upset = rating_changes([Standing("a", 1200, SEASONED, 2), Standing("b", 1000, SEASONED, 1)])
    assert expected["a"] == 8 and upset["b"] == 24


def test_four_players_in_order_the_winner_gains_and_the_last_loses_k_scaled_by_opponents():
    standings = [Standing(key, 1000, SEASONED, place) for place, key in enumerate("abcd", start=1)]
    changes = rating_changes(standings)
    # Each pair is worth (score - 0.5); the winner beats 3: 32 * 1.5 / 3 = 16; second: 32 * 0.5 / 3 = 5.33.
    assert changes == {"a": 16, "b": 5, "c": -5, "d": -16}


def test_four_players_with_two_sharing_second_place():
    standings = [Standing("a", 1000, SEASONED, 1), Standing("b", 1000, SEASONED, 2), Standing("c", 1000, SEASONED, 2), Standing("d", 1000, SEASONED, 4)]
    assert rating_changes(standings) == {"a": 16, "b": 0, "c": 0, "d": -16}


def test_a_player_who_left_is_placed_last_whatever_their_recorded_place():
    standings = [Standing("leaver", 1000, SEASONED, 1, left=True), Standing("b", 1000, SEASONED, 2), Standing("c", 1000, SEASONED, 3)]
    assert effective_places(standings) == {"b": 1, "c": 2, "leaver": 3}
    changes = rating_changes(standings)
    assert changes["leaver"] == -16 and changes["b"] == 16 and changes["c"] == 0


def test_two_leavers_keep_their_order_among_themselves_after_those_who_stayed():
    standings = [
        Standing("first_out", 1000, SEASONED, 4, left=True),
        Standing("second_out", 1000, SEASONED, 3, left=True),
        Standing("stayed", 1000, SEASONED, 2),
        Standing("won", 1000, SEASONED, 1),
    ]
    assert effective_places(standings) == {"won": 1, "stayed": 2, "second_out": 3, "first_out": 4}


def test_a_provisional_player_moves_with_the_larger_k():
    changes = rating_changes([Standing("new", 1000, 0, 1), Standing("old", 1000, SEASONED, 2)])
    assert changes == {"new": K_FACTOR_PROVISIONAL // 2, "old": -K_FACTOR // 2}


def test_a_player_is_provisional_for_their_first_ten_rated_matches():
    assert [is_provisional(n) for n in (0, 9, 10, 11)] == [True, True, False, False]


def test_a_missing_place_counts_as_last():
    assert effective_places([Standing("a", 1000, 0, None), Standing("b", 1000, 0, 2)]) == {"b": 1, "a": 2}


def test_expected_scores_of_a_pair_add_up_to_one():
    assert expected_score(1234, 987) + expected_score(987, 1234) == pytest.approx(1.0)


def test_a_match_needs_two_distinct_players():
    with pytest.raises(ValueError):
        rating_changes([Standing("a", 1000, 0, 1)])
    with pytest.raises(ValueError):
        rating_changes([Standing("a", 1000, 0, 1), Standing("a", 1000, 0, 2)])
