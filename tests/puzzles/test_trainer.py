"""Choosing puzzles (apps/puzzles/selectors.py): near the player's puzzle rating, not one already answered,
of a theme; and the trainer's pages answer for visitors and players."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from apps.puzzles import selectors, services
from apps.puzzles.models import Puzzle, PuzzleRating
from tests.tables.helpers import make_user


@pytest.mark.django_db
def test_the_next_puzzle_is_near_the_players_rating_and_not_answered(starter: int) -> None:
    ana = make_user("ana")
    puzzles = list(selectors.servable().order_by("id"))
    for index, puzzle in enumerate(puzzles):
        Puzzle.objects.filter(pk=puzzle.pk).update(rating=1000 + 20 * index)
    PuzzleRating.objects.create(user=ana, rating=1600)
    chosen = selectors.next_puzzle(ana.pk, rng=random.Random(1))
    assert chosen is not None and abs(chosen.rating - 1600) <= 20 * selectors.NEAR
    services.puzzle_give_up(user_id=ana.pk, puzzle_id=chosen.pk)
    for seed in range(20):
        again = selectors.next_puzzle(ana.pk, rng=random.Random(seed))
        assert again is not None and again.pk != chosen.pk


@pytest.mark.django_db
def test_a_themes_puzzles_all_have_the_theme(starter: int) -> None:
    found = dict(selectors.themes())
    assert found and all(count > 0 for count in found.values())
    theme = next(iter(found))
    for seed in range(10):
        puzzle = selectors.next_puzzle(None, theme=theme, rng=random.Random(seed))
        assert puzzle is not None and theme in puzzle.theme_list


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["trainer", "daily", "streak", "themes", "history"])
def test_the_trainers_pages_open_for_a_visitor(starter: int, name: str) -> None:
    assert Client().get(reverse(f"puzzles:{name}")).status_code == 200


@pytest.mark.django_db
def test_an_unknown_theme_or_puzzle_is_not_found(starter: int) -> None:
    client = Client()
    assert client.get(reverse("puzzles:theme", args=["no-such-theme"])).status_code == 404
    assert client.get(reverse("puzzles:puzzle", args=[10**9])).status_code == 404


@pytest.mark.django_db
def test_the_history_lists_the_players_answers(starter: int) -> None:
    client = Client()
    ana = make_user("ana")
    client.force_login(ana)
    puzzle = selectors.next_puzzle(ana.pk)
    assert puzzle is not None
    services.puzzle_give_up(user_id=ana.pk, puzzle_id=puzzle.pk)
    page = client.get(reverse("puzzles:history"))
    assert [attempt.puzzle_id for attempt in page.context["attempts"]] == [puzzle.pk]
    assert reverse("puzzles:puzzle", args=[puzzle.pk]) in page.content.decode()
