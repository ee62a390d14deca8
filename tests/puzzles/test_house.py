"""House-game puzzles in the trainer: the turn's moves are applied one at a time by the engine (the page
gets the view after the moves so far, never the solution), and the discard that ends the turn is the
answer the judge rates. The puzzle is the starter set's first opening (h-25dddd937f2b, from self-play:
y11 b11 k11 and b8 b9 J b11 open with 60)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from apps.puzzles.models import Puzzle

KEY = "h-25dddd937f2b"


@pytest.fixture
def opening(starter: int) -> Puzzle:
    return Puzzle.objects.get(key=KEY)


def step(client: Client, puzzle: Puzzle, moves: object) -> tuple[int, dict[str, object]]:
    response = client.post(
        reverse("puzzles:step", args=[puzzle.pk]), json.dumps({"moves": moves}), content_type="application/json"
    )
    return response.status_code, response.json()


@pytest.mark.django_db
def test_the_page_shows_the_position_as_seat_zeros_view_and_not_the_solution(opening: Puzzle) -> None:
    page = Client().get(reverse("puzzles:puzzle", args=[opening.pk])).content.decode()
    assert '"answer": "moves"' in page
    assert opening.solution["moves"][0] not in page and "b8 b9 J b11" not in page


@pytest.mark.django_db
def test_each_move_is_applied_by_the_engine_and_the_view_comes_back(opening: Puzzle) -> None:
    client = Client()
    status, data = step(client, opening, [opening.solution["moves"][0]])
    assert status == 200
    view = data["view"]
    assert view["rack"] == ["r4", "r8", "r12", "y1", "y12", "k3", "k4", "k11"]
    assert [meld["tiles"] for meld in view["melds"]] == [["y11", "b11", "k11"], ["b8", "b9", "J", "b11"]]


@pytest.mark.django_db
@pytest.mark.parametrize("moves", [["lay r4 r8 r12"], ["discard y1"], ["nonsense"], "lay y11 b11 k11", [5]])
def test_a_move_the_rules_refuse_or_that_cannot_be_read_is_refused(opening: Puzzle, moves: object) -> None:
    status, data = step(Client(), opening, moves)
    assert status == 400 and data["message"]


@pytest.mark.django_db
def test_the_turn_ending_in_a_discard_is_judged_and_rated(opening: Puzzle) -> None:
    client = Client()
    play = "; ".join(opening.solution["moves"])
    response = client.post(
        reverse("puzzles:answer", args=[opening.pk]), json.dumps({"play": play}), content_type="application/json"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["right"] and data["rated"] and data["kind"] == "open"
    short = client.post(
        reverse("puzzles:answer", args=[opening.pk]),
        json.dumps({"play": "discard y1"}),
        content_type="application/json",
    ).json()
    assert not short["right"] and not short["rated"]
