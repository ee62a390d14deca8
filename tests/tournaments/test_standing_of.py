"""A player's place in an arena's standings read with one COUNT (selectors.standing_of, what a seated
player's table socket sends after each standings change): the same place as the standings' own order,
ties of points, performance and score time included."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.tournaments.models import Entry
from apps.tournaments.selectors import standing_of, standings_queryset
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def test_the_rank_is_the_place_in_the_standings_order_with_every_kind_of_tie(arena):
    rng = random.Random(3)
    then = timezone.now()
    users = [make_user(f"p{i}") for i in range(40)]
    for user in users:
        count = rng.choice([0, 0, 3, 7])
        Entry.objects.create(
            tournament=arena, user=user, points=rng.choice([0, 2, 2, 4]), streak=rng.randint(0, 3),
            perf_sum=rng.choice([1000, 1001, 3003, 2100]) * (1 if count else 0), perf_count=count,
            reached_at=rng.choice([None, then, then + timedelta(seconds=1)]), removed=rng.random() < 0.1,
        )
    order = list(standings_queryset(arena.pk).values_list("user_id", "points", "streak"))
    assert len({points for _u, points, _s in order}) > 1
    for place, (user_id, points, streak) in enumerate(order, start=1):
        assert standing_of(arena.pk, user_id) == {"points": points, "streak": streak, "rank": place}
    removed = Entry.objects.filter(tournament=arena, removed=True).values_list("user_id", flat=True)
    assert removed and all(standing_of(arena.pk, user_id) is None for user_id in removed)


def test_the_rank_takes_one_statement_however_many_entrants(arena):
    Entry.objects.bulk_create(Entry(tournament=arena, user=make_user(f"q{i}"), points=i % 5) for i in range(30))
    someone = Entry.objects.filter(tournament=arena).order_by("id").last()
    with CaptureQueriesContext(connection) as queries:
        standing = standing_of(arena.pk, someone.user_id)
    assert standing is not None and len(queries) == 1
    assert "COUNT" in queries[0]["sql"].upper()
