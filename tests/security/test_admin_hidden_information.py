"""The admin shows a game in progress's hidden information (every rack, the pile, the deal, the prepared
play) only to staff with tables.view_hidden, and logs every such view (issue 40, section 5). A staff
account with only "view game" once saw every rack and the pile."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.utils import timezone

from apps.tables import services
from apps.tables.models import Game
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def running_game() -> Game:
    alice, bob = make_user("alice"), make_user("bob")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2)
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    return Game.objects.get(match__table=table)


def staff(client, *codenames: str):  # type: ignore[no-untyped-def]
    user = make_user("viewer", staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="tables", codename__in=codenames))
    client.force_login(user)
    return user


def secrets_of(game: Game) -> list[str]:
    """Pieces of the hidden information as the admin would print them (its JSON fields)."""
    return [json.dumps(game.state["racks"]), json.dumps(game.state["pile"]), json.dumps(game.deal)]


def test_the_permission_to_see_hidden_information_exists_after_migrate():
    assert Permission.objects.filter(content_type__app_label="tables", codename="view_hidden").exists()


def test_staff_with_only_the_view_permission_sees_no_rack_or_pile_of_a_game_in_progress(client):
    game = running_game()
    staff(client, "view_game")
    response = client.get(f"/admin/tables/game/{game.pk}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"game {game.number} of match {game.match_id}" in page  # the page is there
    assert not any(secret in page for secret in secrets_of(game))
    assert "racks" not in page and "server_seed" not in page
    assert not LogEntry.objects.filter(object_id=str(game.pk)).exists()


def test_staff_with_the_hidden_permission_sees_it_and_each_view_is_logged(client):
    game = running_game()
    viewer = staff(client, "view_game", "view_hidden")
    for _ in range(2):
        page = client.get(f"/admin/tables/game/{game.pk}/change/").content.decode()
        assert '"racks"' in page or "&quot;racks&quot;" in page
    entries = LogEntry.objects.filter(object_id=str(game.pk), user=viewer)
    assert entries.count() == 2
    assert all("hidden information" in entry.change_message for entry in entries)


def test_a_finished_games_state_is_shown_with_the_view_permission_and_not_logged(client):
    game = running_game()
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now(), result={"reason": "pile"})
    staff(client, "view_game")
    page = client.get(f"/admin/tables/game/{game.pk}/change/").content.decode()
    assert "&quot;racks&quot;" in page or '"racks"' in page
    assert not LogEntry.objects.filter(object_id=str(game.pk)).exists()
