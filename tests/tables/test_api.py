"""The tables' side of the bot API (apps/tables/api.py): open, join, the invitations, a game's record;
a token acts only for its own bot account, and every refusal is JSON that changes nothing."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache

from apps.tables import services
from apps.tables.models import Game, Seat, Table
from tests.bots.helpers import make_bot
from tests.tables.helpers import make_user, play_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def call(client, method: str, path: str, secret: str, body: dict | None = None):
    headers = {"Authorization": f"Bearer {secret}"}
    if method == "GET":
        return client.get(path, headers=headers)
    return client.post(path, data=json.dumps(body or {}), content_type="application/json", headers=headers)


def test_a_bot_opens_a_table_against_a_site_bot_and_it_starts_by_itself(client):
    bot, secret = make_bot("robo")
    response = call(client, "POST", "/api/bot/tables", secret, {"game": "tile-rummy", "seat_1": "easy"})
    assert response.status_code == 201
    table = response.json()["table"]
    assert table["status"] == "playing" and table["seat"] == 0 and table["host"] is True
    assert table["socket"] == f"/ws/tables/{table['id']}/"
    assert table["turn_seconds"] == 60  # the game's first pace when none is given
    assert table["seats"][0]["bot_account"] is True and table["seats"][1]["bot"] == "easy"


def test_options_the_lobby_refuses_are_refused_with_their_fields_and_open_nothing(client):
    bot, secret = make_bot("robo")
    response = call(client, "POST", "/api/bot/tables", secret,
                    {"game": "tile-rummy", "seats": 7, "turn_seconds": 120, "seat_1": "wizard"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_request" and {"seats", "seat_1"} <= set(body["fields"])
    assert Table.objects.count() == 0


def test_a_bot_invites_another_bot_account_by_name(client):
    bot, secret = make_bot("robo")
    other, other_secret = make_bot("droid")
    response = call(client, "POST", "/api/bot/tables", secret,
                    {"game": "tile-rummy-rearrange", "seat_1": "account", "seat_1_account": "droid"})
    assert response.status_code == 201 and response.json()["table"]["status"] == "open"
    [invitation] = call(client, "GET", "/api/bot/invitations", other_secret).json()["invitations"]
    assert invitation["host"] == "robo" and invitation["game"] == "tile-rummy-rearrange" and invitation["rated"]
    accepted = call(client, "POST", f"/api/bot/invitations/{invitation['table']}/accept", other_secret)
    assert accepted.status_code == 200 and accepted.json()["table"]["seat"] == 1


def test_inviting_a_name_that_is_no_bot_account_is_refused(client):
    make_user("person")
    _bot, secret = make_bot("robo")
    response = call(client, "POST", "/api/bot/tables", secret, {"seat_1": "account", "seat_1_account": "person"})
    assert response.status_code == 400 and "seat_1_account" in response.json()["fields"]
    assert Table.objects.count() == 0


def test_its_tables_are_the_ones_it_sits_at(client):
    bot, secret = make_bot("robo")
    mine = services.table_open(by=bot, game="tile-rummy", seat_count=2)
    services.table_open(by=make_user("ann"), game="tile-rummy", seat_count=2)
    listed = call(client, "GET", "/api/bot/tables", secret).json()
    assert [table["id"] for table in listed["tables"]] == [mine.pk]


def test_a_token_cannot_sit_at_a_table_of_people_as_a_human(client):
    host = make_user("ann")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2)
    _bot, secret = make_bot("robo")
    response = call(client, "POST", f"/api/bot/tables/{table.pk}/join", secret)
    assert response.status_code == 403 and response.json()["code"] == "notallowed"
    assert Seat.objects.get(table=table, index=1).user is None


def test_a_token_cannot_act_for_another_bot_account(client):
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    _other, other_secret = make_bot("droid")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: bot})
    for action in ("accept", "decline"):
        response = call(client, "POST", f"/api/bot/invitations/{table.pk}/{action}", other_secret)
        assert response.status_code == 403 and response.json()["code"] == "notallowed"
    assert Seat.objects.get(table=table, index=1).invited == bot


def test_declining_answers_that_the_invitation_is_gone(client):
    bot, secret = make_bot("robo")
    table = services.table_open(by=make_user("ann"), game="tile-rummy", seat_count=2, invite={1: bot})
    response = call(client, "POST", f"/api/bot/invitations/{table.pk}/decline", secret)
    assert response.json() == {"type": "invitation", "table": table.pk, "invitation": None}
    assert call(client, "GET", "/api/bot/invitations", secret).json()["invitations"] == []


def test_an_invited_bot_may_look_at_the_private_table_it_is_invited_to(client):
    bot, secret = make_bot("robo")
    _other, other_secret = make_bot("droid")
    table = services.table_open(by=make_user("ann"), game="tile-rummy", seat_count=2, private=True, invite={1: bot})
    assert call(client, "GET", f"/api/bot/tables/{table.pk}", secret).status_code == 200
    missing = call(client, "GET", f"/api/bot/tables/{table.pk}", other_secret)
    assert missing.status_code == 404 and missing.json()["code"] == "tablenotfound"


def test_a_finished_games_record_and_a_running_ones_refusal(client):
    bot, secret = make_bot("robo")
    table = services.table_open(by=bot, game="tile-rummy", seat_count=2, bots=["easy"])
    services.table_start(table_id=table.pk, by=bot)
    game = Game.objects.get(match__table=table)
    running = call(client, "GET", f"/api/bot/games/{game.pk}/record", secret)
    assert running.status_code == 409 and running.json()["code"] == "not_finished"
    play_match(table.pk)
    record = call(client, "GET", f"/api/bot/games/{game.pk}/record", secret).json()
    assert record["format"] == "tile-rummy-record/1" and record["game"] == "tile-rummy"
    assert call(client, "GET", "/api/bot/games/999999/record", secret).status_code == 404
