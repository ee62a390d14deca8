"""The issue's "done when": two registered players play a rated match through the table service, the
rating task runs, and both the leaderboard and the profile chart show the new ratings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.leaderboards.models import Rating
from apps.leaderboards.tasks import rate_match
from apps.tables import services as tables
from apps.tables.models import Match
from tests.leaderboards.factories import make_user
from tests.tables.helpers import play_match

pytestmark = pytest.mark.django_db


def test_a_rated_match_played_at_a_table_moves_the_leaderboard_and_the_profile_chart(client):
    ana, ben = make_user("ana", verified=True), make_user("ben", verified=True)
    table = tables.table_open(by=ana, game="tile-rummy", seat_count=2)
    tables.table_join(table_id=table.pk, by=ben)
    tables.table_start(table_id=table.pk, by=ana)
    play_match(table.pk, seed=3)
    match = Match.objects.get(table=table)
    assert match.rated and match.finished_at is not None

    assert rate_match(match.pk) is True  # what the service enqueues on commit
    assert rate_match(match.pk) is False

    ratings = {r.user.username: r.rating for r in Rating.objects.select_related("user")}
    assert set(ratings) == {"ana", "ben"} and sorted(ratings.values()) != [1000, 1000]
    rows = client.get(reverse("leaderboards:game", args=["tile-rummy"])).context["rows"]
    assert [r.rating for _, r in rows] == sorted(ratings.values(), reverse=True)
    [item] = client.get(reverse("players:profile", args=["ana"])).context["ratings"]
    assert item.chart is not None and item.chart.last == ratings["ana"]
