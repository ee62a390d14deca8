"""The table views that act in one press (apps/tables/views.py): Play now with a game and a bot level,
and taking a seat, for a visitor (a guest account made on the spot) and for a player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.models import User
from apps.tables import services
from apps.tables.models import Table
from apps.tables.options import PACES
from apps.tables.views import play_now_level
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def play_now(client, **data):  # type: ignore[no-untyped-def]
    return client.post(reverse("tables:play_now"), data)


@pytest.mark.parametrize("game", ["tile-rummy", "tile-rummy-rearrange"])
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_play_now_seats_a_visitor_as_a_guest_against_the_chosen_bot_at_a_started_table(client, game, level):
    response = play_now(client, game=game, level=level)

    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("tables:table", args=[table.pk])
    assert (table.game, table.status, table.seat_count) == (game, Table.Status.PLAYING, 2)
    seats = list(table.seats.order_by("index"))
    assert seats[0].user.is_guest and client.session["_auth_user_id"] == str(seats[0].user_id)
    assert seats[1].bot_level == level
    assert table.turn_seconds == (0 if level == "easy" else PACES[game][0])  # a beginner is never timed out


def test_play_now_without_a_level_offers_the_easy_bot_for_a_first_game(client):
    play_now(client, game="tile-rummy")
    assert Table.objects.get().seats.get(index=1).bot_level == "easy"


def test_play_now_offers_first_the_level_of_the_players_latest_finished_match_against_a_bot(client):
    ana = make_user("ana")
    assert play_now_level(ana) == "easy"
    table = services.table_open(by=ana, game="tile-rummy", seat_count=2, bots=["hard"])
    services.table_start(table_id=table.pk, by=ana)
    assert play_now_level(ana) == "easy"  # not finished yet
    table.refresh_from_db()
    table.match.finished_at = table.match.started_at
    table.match.save()
    assert play_now_level(ana) == "hard"


@pytest.mark.parametrize("data", [{"game": "tile-rummy", "level": "expert"}, {"game": "chess", "level": "easy"}])
def test_play_now_refuses_an_unknown_level_or_game_with_a_reason_and_makes_nothing(client, data):
    response = play_now(client, **data)
    assert response.status_code == 302 and response["Location"] == reverse("tables:lobby")
    assert not Table.objects.exists() and not User.objects.exists()
    page = client.get(response["Location"])
    assert any("bot" in str(message) for message in page.context["messages"])


def test_a_signed_in_player_joins_an_open_table_in_one_press_in_the_seat_they_chose(client):
    host, ben = make_user("host"), make_user("ben")
    table = services.table_open(by=host, game="tile-rummy", seat_count=3)
    client.force_login(ben)
    client.post(reverse("tables:join", args=[table.pk]), {"seat": "2"})
    assert table.seats.get(index=2).user == ben and table.seats.get(index=1).user is None


def test_joining_a_full_table_says_why_and_changes_no_seat(client):
    host = make_user("host")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, bots=["easy"])
    client.force_login(make_user("ben"))
    response = client.post(reverse("tables:join", args=[table.pk]), follow=True)
    assert [str(message) for message in response.context["messages"]] == ["This table is full."]
    assert [seat.user_id or seat.bot_level for seat in table.seats.order_by("index")] == [host.pk, "easy"]


def test_the_table_page_names_its_game_and_its_pace_in_the_title(client):
    host = make_user("host")
    table = services.table_open(by=host, game="tile-rummy-rearrange", seat_count=2, turn_seconds=120)
    body = client.get(reverse("tables:table", args=[table.pk])).content.decode()
    assert "<title>Tile Rummy: Rearrange · Table" in body
    assert "<h1>Tile Rummy: Rearrange <span" in body and ">120 s per turn</p>" in body


def test_play_now_remembers_the_pace_the_player_chose_last_time_against_that_bot(client):
    play_now(client, game="tile-rummy", level="easy")
    first = Table.objects.get()
    assert first.turn_seconds == 0
    user = first.seats.get(index=0).user
    services.table_pace(table_id=first.pk, by=user, turn_seconds=30)
    services.table_leave(table_id=first.pk, by=user)
    play_now(client, game="tile-rummy", level="easy")
    assert Table.objects.exclude(pk=first.pk).get().turn_seconds == 30
    play_now(client, game="tile-rummy", level="hard")  # another bot: its own default
    assert Table.objects.filter(seats__bot_level="hard").get().turn_seconds == PACES["tile-rummy"][0]
