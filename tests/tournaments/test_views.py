"""The arenas' pages (visitors too), their buttons, a real match's end reaching the arena, and the admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.tables import services as table_services
from apps.tables.models import Game, Table
from apps.tournaments import services
from apps.tournaments.models import ArenaTable, Entry, Tournament
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def test_a_visitor_sees_the_list_and_a_tournament(client, arena):
    listing = client.get(reverse("tournaments:index"))
    assert listing.status_code == 200 and "Test arena" in listing.content.decode()
    page = client.get(reverse("tournaments:detail", args=[arena.pk]))
    assert page.status_code == 200 and 'id="arena-standings"' in page.content.decode()
    assert "Sign in to join" in page.content.decode()


def test_the_pages_speak_romanian(client, arena):
    page = client.get(reverse("tournaments:detail", args=[arena.pk]), HTTP_ACCEPT_LANGUAGE="ro")
    text = page.content.decode()
    assert "Clasament" in text and "Mese în joc" in text


def test_join_pause_and_play_on_in_one_press_each(client, arena):
    ana = make_user("ana")
    client.force_login(ana)
    client.post(reverse("tournaments:join", args=[arena.pk]))
    assert Entry.objects.filter(tournament=arena, user=ana, paused=False).exists()
    client.post(reverse("tournaments:pause", args=[arena.pk]))
    assert Entry.objects.get(user=ana).paused
    refused = client.post(reverse("tournaments:play_on", args=[arena.pk]), follow=True)
    assert "play on in" in refused.content.decode() and Entry.objects.get(user=ana).paused


def test_a_real_match_left_by_one_player_scores_the_other_and_pauses_the_leaver(client, arena, django_capture_on_commit_callbacks):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    for user in (ana, bogdan):
        services.tournament_join(tournament_id=arena.pk, by=user)
    services.arenas_tick()
    table = ArenaTable.objects.get(tournament=arena)
    with django_capture_on_commit_callbacks(execute=True):  # the table's effects deliver MatchFinished after the commit
        table_services.table_leave(table_id=table.table_id, by=bogdan)
    assert Entry.objects.get(user=ana).points == 2
    leaver = Entry.objects.get(user=bogdan)
    assert leaver.points == 0 and leaver.paused
    table.refresh_from_db()
    page = client.get(reverse("tournaments:detail", args=[arena.pk])).content.decode()
    assert reverse("tables:match", args=[table.match_id]) in page  # the match page, with its fair-deal check


def test_berserk_before_the_first_move_is_marked_and_after_it_refused(client, arena):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    for user in (ana, bogdan):
        services.tournament_join(tournament_id=arena.pk, by=user)
    services.arenas_tick()
    seat = services.tournament_berserk(tournament_id=arena.pk, by=ana)
    assert seat.berserk
    table = Table.objects.get(pk=seat.arena_table.table_id)
    mine = next(info for info in table.seating if info["user_id"] == ana.pk)
    assert mine["berserk"]  # the table's clock gives ana half the pace (tests/tables/test_open_started.py)
    Game.objects.filter(match_id=table.match_id).update(move_count=1)  # the first move is made
    with pytest.raises(services.TournamentError, match="before the first move"):
        services.tournament_berserk(tournament_id=arena.pk, by=bogdan)


def test_moderators_cancel_stop_and_remove_a_player_from_the_admin(client, arena):
    staff = make_user("mod", staff=True)
    staff.is_superuser = True
    staff.save()
    ana = make_user("ana")
    services.tournament_join(tournament_id=arena.pk, by=ana)
    client.force_login(staff)
    assert client.get(reverse("admin:tournaments_tournament_change", args=[arena.pk])).status_code == 200
    entry = Entry.objects.get(user=ana)
    client.post(reverse("admin:tournaments_entry_changelist"), {"action": "remove_player", "_selected_action": [entry.pk]})
    assert Entry.objects.get(pk=entry.pk).removed
    client.post(reverse("admin:tournaments_tournament_changelist"), {"action": "stop", "_selected_action": [arena.pk]})
    assert Tournament.objects.get(pk=arena.pk).status == Tournament.Status.FINISHED
    planned = Tournament.objects.create(name="Later", game="tile-rummy", starts_at=arena.starts_at)
    client.post(reverse("admin:tournaments_tournament_changelist"), {"action": "cancel", "_selected_action": [planned.pk]})
    assert Tournament.objects.get(pk=planned.pk).status == Tournament.Status.CANCELLED


def test_the_admin_refuses_a_bad_arena_and_saves_nothing(client):
    staff = make_user("mod", staff=True)
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    data = {"name": "Bad", "game": "tile-rummy", "seats": "2", "turn_seconds": 45, "minutes": 200, "rated": "on",
            "min_rated_matches": 0, "starts_at_0": "2026-12-24", "starts_at_1": "20:00:00",
            "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0}
    page = client.post(reverse("admin:tournaments_tournament_add"), data)
    text = page.content.decode()
    assert page.status_code == 200 and "30 to 120 minutes" in text and "60, 30 seconds" in text
    assert not Tournament.objects.filter(name="Bad").exists()
    data.update(turn_seconds=60, minutes=60)
    assert client.post(reverse("admin:tournaments_tournament_add"), data).status_code == 302
    assert Tournament.objects.filter(name="Bad", status="planned").exists()
