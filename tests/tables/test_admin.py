"""Moderators close tables and kick seats from the Django admin, through the same services, logged."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry

from apps.tables import services
from apps.tables.models import Match, Seat, Table
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator_client(client):
    moderator = make_user("moderator", staff=True)
    moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    return client


def playing_table():
    alice, bob = make_user("alice"), make_user("bob")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2)
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    return table


def test_a_moderator_closes_a_table_from_the_admin_and_it_is_logged(moderator_client):
    table = playing_table()
    response = moderator_client.post(
        "/admin/tables/table/", {"action": "close_tables", "_selected_action": [table.pk]}, follow=True
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert not Match.objects.get().rated
    assert LogEntry.objects.filter(object_id=str(table.pk), change_message__icontains="closed").exists()


def test_a_moderator_kicks_a_seat_mid_match_and_the_other_player_wins(moderator_client):
    table = playing_table()
    seat = Seat.objects.get(table=table, index=1)
    moderator_client.post("/admin/tables/seat/", {"action": "kick", "_selected_action": [seat.pk]}, follow=True)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert LogEntry.objects.filter(object_id=str(table.pk), change_message__icontains="kicked").exists()


def test_the_admin_pages_of_tables_answer(moderator_client):
    playing_table()
    for path in ("/admin/tables/table/", "/admin/tables/match/", "/admin/tables/game/", "/admin/tables/movelog/", "/admin/tables/seat/"):
        assert moderator_client.get(path).status_code == 200, path
