"""The replay page, the review's status for the page, the hints left at a table (apps/review/views.py),
and the links to the replay from the match page and the profile."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from celery import current_app
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from apps.review import services, views
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


# --- private and missing answer alike (issue 40, section 5) --------------------------------------------------


def answer(client: Client, url: str) -> tuple[int, str, str]:
    """A response's status, body and reason (the 404 page's `exception`, shown in DEBUG), with what
    differs between any two pages taken out: the form's masked CSRF token and the address asked for."""
    response = client.get(url)
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
    reason = re.sub(r"\d+", "N", str(response.context.get("exception", ""))) if response.context else ""
    return response.status_code, body.replace(url, "URL"), reason


@pytest.mark.parametrize("page", ["review:replay", "review:review_json", "tables:game_record"])
def test_a_private_game_in_progress_or_finished_answers_a_stranger_as_a_missing_one(client: Client, page: str) -> None:
    finished = finished_game()
    playing, _guest = unrated_table(name="guest-playing")
    Table.objects.filter(pk__in=[finished.match.table_id, playing.pk]).update(private=True)
    missing = Game.objects.order_by("-pk").values_list("pk", flat=True)[0] + 100
    client.force_login(make_user("stranger"))
    expected = answer(client, reverse(page, args=[missing]))
    assert expected[0] == 404
    for game_id in (finished.pk, playing.current_game_id):
        assert answer(client, reverse(page, args=[game_id])) == expected


def test_the_hints_of_a_private_table_answer_as_those_of_a_missing_table(client: Client) -> None:
    table, guest = unrated_table()
    Table.objects.filter(pk=table.pk).update(private=True)
    missing = table.pk + 100
    for viewer in (None, make_user("stranger")):
        if viewer is not None:
            client.force_login(viewer)
        hidden, absent = client.get(reverse("review:hints", args=[table.pk])), client.get(reverse("review:hints", args=[missing]))
        assert hidden.status_code == absent.status_code == 200
        assert hidden.content.decode().replace(str(table.pk), "ID") == absent.content.decode().replace(str(missing), "ID")
    client.force_login(guest)
    assert client.get(reverse("review:hints", args=[table.pk])).json()["available"]


# --- the replay kept, revalidated and limited (issue 40, section 5) ------------------------------------------


def test_the_positions_of_a_finished_game_are_computed_once_for_every_viewer(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished_game()
    calls: list[int] = []
    real = views.replay_steps
    monkeypatch.setattr(views, "replay_steps", lambda record: calls.append(1) or real(record))
    url = reverse("review:replay", args=[game.pk])
    first = client.get(url)
    client.force_login(MatchPlayer.objects.filter(match=game.match, user__isnull=False).get().user)
    second = client.get(url)
    assert first.status_code == second.status_code == 200 and calls == [1]
    assert page_data(first)["steps"] == page_data(second)["steps"]
    assert [p["you"] for p in page_data(first)["players"]] == [False, False]  # what is the viewer's is not kept
    assert True in [p["you"] for p in page_data(second)["players"]]


def test_a_game_in_progress_is_never_kept(client: Client) -> None:
    table, guest = unrated_table()
    client.force_login(guest)
    assert client.get(reverse("review:replay", args=[table.current_game_id])).status_code == 404
    with pytest.raises(AssertionError, match="a game in progress has no replay"):
        views.replay_positions(Game.objects.get(pk=table.current_game_id))
    assert cache.get(f"review:positions:{views.PAGE_STAMP}:{table.current_game_id}") is None


def test_an_unchanged_replay_and_review_answer_304_to_their_etag(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(current_app, "send_task", lambda name, args=(), **options: None)
    game = finished_game()
    for url in (reverse("review:replay", args=[game.pk]), reverse("review:review_json", args=[game.pk])):
        first = client.get(url)
        etag = first["ETag"]
        assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
        assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    replay = reverse("review:replay", args=[game.pk])
    etag = client.get(replay)["ETag"]
    services.review_compute(game_id=game.pk)  # the review is ready: the page shows it, a new ETag
    assert client.get(replay, HTTP_IF_NONE_MATCH=etag).status_code == 200
    client.force_login(make_user("someone"))  # another viewer: another page (the header names them)
    assert client.get(replay, HTTP_IF_NONE_MATCH=client.get(replay)["ETag"]).status_code == 304
    assert client.get(replay)["ETag"] != etag


@override_settings(REVIEW_REPLAYS_PER_MINUTE=3)
def test_the_replay_is_limited_per_client_address_with_a_clean_429(client: Client) -> None:
    game = finished_game()
    url = reverse("review:replay", args=[game.pk])
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Too many replays were asked from your network address: try again in a minute." in refused.content.decode()
    assert client.get(url, REMOTE_ADDR="203.0.113.9").status_code == 200  # another address has its own
