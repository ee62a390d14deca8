"""Player profiles at /u/<username>/ (apps/players/views.py, profile.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.leaderboards.services import rating_apply_match
from tests.leaderboards.factories import finished_match, make_user

pytestmark = pytest.mark.django_db


def profile_url(name: str) -> str:
    return reverse("players:profile", args=[name])


def test_a_profile_shows_the_rating_per_game_with_a_history_chart(client):
    ana, ben = make_user("ana"), make_user("ben")
    for _ in range(3):
        rating_apply_match(match_id=finished_match([(ana, 1), (ben, 2)]).pk)
    response = client.get(profile_url("ana"))
    assert response.status_code == 200
    [item] = response.context["ratings"]
    assert item.entry.slug == "tile-rummy" and item.rank == 1 and item.rating.matches == 3
    assert item.chart is not None and len(item.chart.points) == 4  # the start and three matches
    html = response.content.decode()
    assert "<svg" in html and item.chart.path in html


def test_a_profile_lists_recent_matches_with_places_points_opponents_record_downloads_and_replays(client):
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([(ana, 2), (ben, 1)], points=[40, 215], games=3)
    rating_apply_match(match_id=match.pk)
    [item] = client.get(profile_url("ana")).context["matches"]
    assert (item.player.place, item.player.points, item.opponents, item.delta) == (2, 40, ["ben"], -32)
    game_ids = list(match.games.order_by("number").values_list("pk", flat=True))
    assert item.records == [
        (n, reverse("tables:game_record", args=[gid]), reverse("review:replay", args=[gid]))
        for n, gid in zip((1, 2, 3), game_ids, strict=True)
    ]
    html = client.get(profile_url("ana")).content.decode()
    assert f'href="{reverse("tables:game_record", args=[game_ids[0]])}"' in html and "2nd" in html
    assert f'href="{reverse("review:replay", args=[game_ids[0]])}"' in html


def test_a_match_still_being_played_has_no_place_and_no_record_yet(client):
    ana, ben = make_user("ana"), make_user("ben")
    finished_match([(ana, 1), (ben, 2)], finished=False)
    [item] = client.get(profile_url("ana")).context["matches"]
    assert not item.finished and item.records == []


def test_matches_at_private_tables_show_only_to_the_player_themselves(client):
    ana, ben = make_user("ana"), make_user("ben")
    finished_match([(ana, 1), (ben, 2)], private=True, rated=False)
    visitor = client.get(profile_url("ana"))
    assert visitor.context["matches"] == []
    # never "No matches yet" beside a count of matches: the page says why none is shown
    assert "No matches at public tables yet" in visitor.content.decode()
    client.force_login(ana)
    assert len(client.get(profile_url("ana")).context["matches"]) == 1


def test_a_guest_profile_offers_its_owner_to_keep_the_account(client):
    guest = make_user("Guest-000123", guest=True)
    assert reverse("accounts:guest_convert").encode() not in client.get(profile_url(guest.username)).content
    client.force_login(guest)
    assert reverse("accounts:guest_convert").encode() in client.get(profile_url(guest.username)).content


def test_there_is_no_profile_for_an_unknown_or_disabled_name(client):
    make_user("gone", is_active=False)
    assert client.get(profile_url("nobody")).status_code == 404
    assert client.get(profile_url("gone")).status_code == 404


def test_the_record_link_helper_gives_nothing_for_a_view_that_does_not_exist():
    from apps.players.profile import optional_url

    assert optional_url("tables:no_such_view", 1) == ""


def test_a_signed_in_player_finds_their_profile_in_the_header(client):
    client.force_login(make_user("ana"))
    html = client.get(reverse("catalog:index")).content.decode()
    assert f'class="site-nav__user" href="{profile_url("ana")}"' in html
