"""The leaderboard pages (apps/leaderboards/views.py): public, paginated, a constant number of queries."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from apps.leaderboards.models import Rating
from apps.leaderboards.views import PAGE_SIZE
from tests.leaderboards.factories import finished_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    """Leaderboard counts are cached: every test starts from an empty cache."""
    cache.clear()
    yield
    cache.clear()

URL = reverse("leaderboards:game", args=["tile-rummy"])


def rated_players(count: int, *, game: str = "tile-rummy") -> list[Rating]:
    users = [make_user(f"p{i:03d}") for i in range(count)]
    return Rating.objects.bulk_create(
        [Rating(user=user, game=game, rating=1500 - i, matches=i % 15) for i, user in enumerate(users)]
    )


def test_a_visitor_sees_rank_player_rating_matches_and_the_provisional_mark(client):
    rated_players(3)
    response = client.get(URL)
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [(rank, r.user.username, r.rating, r.matches) for rank, r in rows] == [
        (1, "p000", 1500, 0),
        (2, "p001", 1499, 1),
        (3, "p002", 1498, 2),
    ]
    html = response.content.decode()
    assert 'href="/u/p000/"' in html and '>?</abbr>' in html


def test_a_seasoned_rating_has_no_question_mark(client):
    user = make_user("old")
    Rating.objects.create(user=user, game="tile-rummy", rating=1234, matches=10)
    assert '>?</abbr>' not in client.get(URL).content.decode()


def test_the_leaderboard_is_paginated_and_ranks_continue_on_the_next_page(client):
    rated_players(PAGE_SIZE + 3)
    rows = client.get(URL, {"page": 2}).context["rows"]
    assert [rank for rank, _ in rows] == [PAGE_SIZE + 1, PAGE_SIZE + 2, PAGE_SIZE + 3]
    assert client.get(URL, {"page": "nonsense"}).context["page"].number == 1


def test_a_leaderboard_page_takes_the_same_two_queries_for_few_or_many_players(client, django_assert_num_queries):
    rated_players(3)
    with django_assert_num_queries(2):  # the count, and one page of ratings joined to their users
        client.get(URL)
    rated_players_more = [make_user(f"q{i}") for i in range(80)]
    Rating.objects.bulk_create([Rating(user=u, game="tile-rummy", rating=900) for u in rated_players_more])
    cache.clear()
    with django_assert_num_queries(2):
        client.get(URL, {"page": 2})


def test_the_player_count_is_reused_until_a_new_player_is_rated(client, django_assert_num_queries):
    rated_players(3)
    client.get(URL)
    with django_assert_num_queries(1):  # the page only: the count comes from the cache
        assert client.get(URL).context["page"].paginator.count == 3
    from apps.leaderboards.services import rating_apply_match

    rating_apply_match(match_id=finished_match([(make_user("new1"), 1), (make_user("new2"), 2)]).pk)
    assert client.get(URL).context["page"].paginator.count == 5


def test_bots_and_guests_never_appear_on_a_leaderboard(client):
    ana, ben, guest = make_user("ana"), make_user("ben"), make_user("Guest-000009", guest=True)
    from apps.leaderboards.services import rating_apply_match

    rating_apply_match(match_id=finished_match([(ana, 1), (guest, 2), (None, 3), (ben, 4)]).pk)
    names = {r.user.username for _, r in client.get(URL).context["rows"]}
    assert names == {"ana", "ben"}


def test_each_game_has_its_own_leaderboard(client):
    rated_players(2, game="tile-rummy-rearrange")
    assert client.get(URL).context["rows"] == []
    other = client.get(reverse("leaderboards:game", args=["tile-rummy-rearrange"]))
    assert len(other.context["rows"]) == 2


def test_an_unknown_game_has_no_leaderboard(client):
    assert client.get(reverse("leaderboards:game", args=["chess"])).status_code == 404


def test_the_index_shows_the_top_players_of_each_game(client):
    rated_players(7)
    response = client.get(reverse("leaderboards:index"))
    boards = dict((entry.slug, top) for entry, top in response.context["boards"])
    assert [(rank, r.user.username) for rank, r in boards["tile-rummy"]] == [(1, "p000"), (2, "p001"), (3, "p002"), (4, "p003"), (5, "p004")]
    assert boards["tile-rummy-rearrange"] == []
