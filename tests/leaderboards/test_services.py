"""Applying a finished rated match to the ratings (apps/leaderboards/services.py and tasks.py)."""

from __future__ import annotations

import pytest

from apps.leaderboards.models import AppliedMatch, Rating, RatingChange
from apps.leaderboards.rating import START_RATING
from apps.leaderboards.services import matches_waiting_for_ratings, rating_apply_match
from apps.leaderboards.tasks import rate_match, rate_pending_matches
from tests.leaderboards.factories import finished_match, make_user

pytestmark = pytest.mark.django_db


def ratings_of(*users):
    return [Rating.objects.get(user=user, game="tile-rummy").rating for user in users]


def test_a_rated_match_updates_each_players_rating_and_stores_the_change_with_the_match():
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([(ana, 1), (ben, 2)])

    assert rating_apply_match(match_id=match.pk) is True

    assert ratings_of(ana, ben) == [START_RATING + 32, START_RATING - 32]  # both provisional: K = 64
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert (changes[ana.pk].before, changes[ana.pk].after, changes[ana.pk].delta, changes[ana.pk].place) == (1000, 1032, 32, 1)
    assert changes[ben.pk].delta == -32
    assert AppliedMatch.objects.get(match=match).rated
    assert Rating.objects.get(user=ana).matches == 1


def test_a_rated_match_is_applied_only_once_however_often_the_task_runs():
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([(ana, 1), (ben, 2)])

    assert rate_match(match.pk) is True
    assert rate_match(match.pk) is False
    assert rating_apply_match(match_id=match.pk) is False

    assert ratings_of(ana, ben) == [1032, 968]
    assert RatingChange.objects.filter(match=match).count() == 2
    assert Rating.objects.get(user=ben).matches == 1


def test_an_unrated_match_never_changes_a_rating():
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([(ana, 1), (ben, 2)], rated=False)

    assert rate_match(match.pk) is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not AppliedMatch.objects.exists()


def test_a_match_still_being_played_is_not_rated_yet():
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([(ana, 1), (ben, 2)], finished=False)
    assert rating_apply_match(match_id=match.pk) is False
    assert not Rating.objects.exists()


def test_a_four_player_match_with_a_leaver_places_the_leaver_last():
    a, b, c, d = (make_user(name) for name in "abcd")
    # d recorded first but stood up: placed after everyone who stayed.
    match = finished_match([(a, 2), (b, 3), (c, 4), (d, 1)], left=[d])
    rating_apply_match(match_id=match.pk)
    places = dict(RatingChange.objects.filter(match=match).values_list("user__username", "place"))
    assert places == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert ratings_of(a, b, c, d) == [1032, 1011, 989, 968]


def test_ratings_carry_over_from_one_match_to_the_next():
    ana, ben = make_user("ana"), make_user("ben")
    rating_apply_match(match_id=finished_match([(ana, 1), (ben, 2)]).pk)
    rating_apply_match(match_id=finished_match([(ana, 1), (ben, 2)]).pk)
    ana_rating = Rating.objects.get(user=ana)
    assert ana_rating.matches == 2 and ana_rating.rating > 1032 and ana_rating.peak == ana_rating.rating
    history = list(RatingChange.objects.filter(user=ana).order_by("created_at", "id").values_list("before", "after"))
    assert history[0] == (1000, 1032) and history[1][0] == 1032


def test_bots_and_guests_in_a_match_wrongly_marked_rated_get_no_rating():
    ana, ben, guest = make_user("ana"), make_user("ben"), make_user("Guest-000001", guest=True)
    match = finished_match([(ana, 1), (ben, 3), (guest, 2), (None, 4)])
    rating_apply_match(match_id=match.pk)
    assert set(Rating.objects.values_list("user__username", flat=True)) == {"ana", "ben"}


def test_a_rated_match_with_fewer_than_two_registered_players_is_marked_done_without_ratings():
    ana = make_user("ana")
    match = finished_match([(ana, 1), (None, 2)])
    assert rating_apply_match(match_id=match.pk) is False
    assert not Rating.objects.exists()
    assert not AppliedMatch.objects.get(match=match).rated  # in the ledger, with nothing rated
    assert matches_waiting_for_ratings() == []


def test_the_sweep_rates_a_finished_match_whose_task_was_lost():
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([(ana, 1), (ben, 2)])
    assert matches_waiting_for_ratings() == [match.pk]
    assert rate_pending_matches() == 1
    assert matches_waiting_for_ratings() == []
    assert ratings_of(ana, ben) == [1032, 968]


def test_an_unknown_match_is_ignored():
    assert rating_apply_match(match_id=999_999) is False
