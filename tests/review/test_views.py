"""The replay page, the review's status for the page, the hints left at a table (apps/review/views.py),
and the links to the replay from the match page and the profile."""

from __future__ import annotations

import json
from typing import Any

import pytest
from celery import current_app
from django.test import Client, override_settings
from django.urls import reverse

from apps.review import services
from apps.review.models import GameReview
from apps.tables.models import Game, MatchPlayer, Table
from tests.review.helpers import finished_game, rated_table, unrated_table
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def page_data(response: Any) -> dict[str, Any]:
    html = response.content.decode()
    start = html.index('<script id="replay-data" type="application/json">') + len('<script id="replay-data" type="application/json">')
    return json.loads(html[start : html.index("</script>", start)])


def test_the_replay_of_a_finished_game_holds_every_position_with_every_rack(client: Client) -> None:
    game = finished_game()
    response = client.get(reverse("review:replay", args=[game.pk]))
    assert response.status_code == 200
    data = page_data(response)
    moves = game.moves.count()
    assert len(data["steps"]) == moves + 1 and data["steps"][0]["move"] is None
    assert data["steps"][1]["move"]["index"] == 0
    assert [len(rack) for rack in data["steps"][0]["racks"]] == sorted([14, 15], reverse=game.deal["starter"] == 0)
    assert data["steps"][-1]["view"]["over"] and data["steps"][-1]["view"]["result"]["scores"] == game.result["scores"]
    assert [player["name"] for player in data["players"]] == list(MatchPlayer.objects.filter(match=game.match).order_by("seat").values_list("name", flat=True))


def test_the_replay_says_the_review_is_being_prepared_until_it_is_ready(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    queued: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(current_app, "send_task", lambda name, args=(), **options: queued.append((name, tuple(args))))
    game = finished_game()
    url = reverse("review:replay", args=[game.pk])
    with override_settings(REVIEW_ENQUEUE_TASKS=True):
        response = client.get(url)
    assert "The review is being prepared…" in response.content.decode() and page_data(response)["status"] == "pending"
    assert queued == [("review.review_game", (game.pk,))]  # a game with no review yet is queued again
    services.review_compute(game_id=game.pk)
    answer = client.get(reverse("review:review_json", args=[game.pk])).json()
    assert answer["status"] == "ready" and answer["review"]["summary"][0]["seat"] == 0
    assert page_data(client.get(url))["review"] == GameReview.objects.get().data


def test_a_failed_review_leaves_the_page_saying_so(client: Client) -> None:
    game = finished_game()
    GameReview.objects.create(game=game, status=GameReview.Status.FAILED, error="Move 3 fails")
    response = client.get(reverse("review:replay", args=[game.pk]))
    assert "The review could not be prepared for this game." in response.content.decode()
    assert client.get(reverse("review:review_json", args=[game.pk])).json() == {"status": "failed", "review": None}


def test_a_game_still_being_played_has_no_replay(client: Client) -> None:
    table, guest = unrated_table()
    client.force_login(guest)
    assert client.get(reverse("review:replay", args=[table.current_game_id])).status_code == 404
    assert client.get(reverse("review:review_json", args=[table.current_game_id])).status_code == 404


def test_the_replay_of_a_private_table_is_for_its_players_only(client: Client) -> None:
    game = finished_game()
    Table.objects.filter(pk=game.match.table_id).update(private=True)
    url = reverse("review:replay", args=[game.pk])
    assert client.get(url).status_code == 404
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    player = MatchPlayer.objects.filter(match=game.match, user__isnull=False).get()
    client.force_login(player.user)
    response = client.get(url)
    assert response.status_code == 200 and [p["you"] for p in page_data(response)["players"]] == [p.seat == player.seat for p in MatchPlayer.objects.filter(match=game.match).order_by("seat")]


def test_the_match_page_links_each_finished_game_to_its_replay(client: Client) -> None:
    game = finished_game()
    html = client.get(reverse("tables:match", args=[game.match_id])).content.decode()
    assert f'href="{reverse("review:replay", args=[game.pk])}"' in html


def test_the_hints_left_at_a_table_for_its_player(client: Client) -> None:
    table, guest = unrated_table()
    url = reverse("review:hints", args=[table.pk])
    assert client.get(url).json()["code"] == "hints_for_players"
    client.force_login(guest)
    assert client.get(url).json() == {"available": True, "code": "", "message": "", "left": 3, "game": table.current_game_id}
    rated, ana, _ = rated_table()
    client.force_login(ana)
    assert client.get(reverse("review:hints", args=[rated.pk])).json()["code"] == "hints_off"
    assert Game.objects.count() == 2
