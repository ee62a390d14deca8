"""Answering a puzzle (apps/puzzles/services.py, views.py): the server judges the play, both ratings move
once per player and puzzle, a visitor's first answer makes a guest whose progress stays when the account
is kept, and the solution reaches no page and no response before the player answers or gives up."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.accounts.services import guest_convert
from apps.puzzles import services
from apps.puzzles.models import Attempt, Puzzle, PuzzleRating
from tests.puzzles.conftest import ILLEGAL, RIGHT_OTHER, SHORT_ONE
from tests.tables.helpers import make_user


def answer(client: Client, puzzle: Puzzle, play: str, **more: object) -> dict[str, object]:
    response = client.post(
        reverse("puzzles:answer", args=[puzzle.pk]), json.dumps({"play": play, **more}), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def solution_sets(puzzle: Puzzle) -> list[str]:
    """The solution's sets that are not on the table already: what would give the answer away."""
    return [meld for meld in puzzle.solution["table"] if meld not in puzzle.position["table"]]


@pytest.mark.django_db
def test_a_right_play_other_than_the_stored_one_is_the_best_play_and_moves_both_ratings(lend: Puzzle) -> None:
    ana = make_user("ana")
    outcome = services.puzzle_answer(user_id=ana.pk, puzzle_id=lend.pk, answer=RIGHT_OTHER)
    assert outcome.verdict.right and outcome.rated
    assert outcome.rating_after > outcome.rating_before == 1500
    lend.refresh_from_db()
    assert lend.rating < 1500 and lend.plays == 1 and lend.solved == 1
    attempt = Attempt.objects.get(user=ana, puzzle=lend)
    assert attempt.right and attempt.short_by == 0 and attempt.answer == RIGHT_OTHER


@pytest.mark.django_db
def test_a_play_one_tile_short_is_short_by_one_and_lowers_the_players_rating(lend: Puzzle) -> None:
    ana = make_user("ana")
    outcome = services.puzzle_answer(user_id=ana.pk, puzzle_id=lend.pk, answer=SHORT_ONE)
    assert not outcome.verdict.right and outcome.verdict.short_by == 1 and outcome.verdict.legal
    assert outcome.rating_after < 1500
    lend.refresh_from_db()
    assert lend.rating > 1500 and lend.solved == 0


@pytest.mark.django_db
def test_only_the_first_answer_is_rated(lend: Puzzle) -> None:
    ana = make_user("ana")
    services.puzzle_answer(user_id=ana.pk, puzzle_id=lend.pk, answer=SHORT_ONE)
    rating = PuzzleRating.objects.get(user=ana).rating
    again = services.puzzle_answer(user_id=ana.pk, puzzle_id=lend.pk, answer=RIGHT_OTHER)
    assert again.verdict.right and not again.rated
    assert PuzzleRating.objects.get(user=ana).rating == rating
    assert Attempt.objects.filter(user=ana).count() == 1
    lend.refresh_from_db()
    assert lend.plays == 1


@pytest.mark.django_db
def test_an_illegal_play_is_judged_not_legal(lend: Puzzle) -> None:
    outcome = services.puzzle_answer(user_id=make_user("ana").pk, puzzle_id=lend.pk, answer=ILLEGAL)
    assert not outcome.verdict.right and not outcome.verdict.legal


@pytest.mark.django_db
def test_an_answer_that_is_not_text_or_too_long_changes_nothing(lend: Puzzle) -> None:
    ana = make_user("ana")
    for bad in (None, ["r1"], "r1 " * 1000):
        with pytest.raises(services.AnswerRefused):
            services.puzzle_answer(user_id=ana.pk, puzzle_id=lend.pk, answer=bad)
    assert not Attempt.objects.exists() and not PuzzleRating.objects.exists()


@pytest.mark.django_db
def test_the_solution_is_in_no_page_and_no_response_before_an_answer(lend: Puzzle) -> None:
    client = Client()
    hidden = solution_sets(lend)
    assert hidden
    placed = lend.solution["placed"]
    page = client.get(reverse("puzzles:puzzle", args=[lend.pk])).content.decode()
    frame = json.loads(
        re.search(r'<script id="puzzle-frame" type="application/json">(.*?)</script>', page, re.S).group(1)
    )
    assert frame["view"]["rack"] == lend.position["rack"].split()
    assert [" ".join(meld["tiles"]) for meld in frame["view"]["table"]] == lend.position["table"]
    for text in (*hidden, placed):
        assert text not in page
    assert "solution" not in json.dumps(frame)
    refused = client.get(reverse("puzzles:solution", args=[lend.pk]))
    assert refused.status_code == 403
    verdict = answer(client, lend, SHORT_ONE)
    for text in (*hidden, placed):
        assert text not in json.dumps(verdict)
    shown = client.get(reverse("puzzles:solution", args=[lend.pk]))
    assert shown.status_code == 200 and shown.json()["table"] == lend.solution["table"]


@pytest.mark.django_db
def test_the_themes_are_named_only_once_answered_or_when_chosen(lend: Puzzle) -> None:
    """A theme tells how to solve ("a joker from your rack"): not on the page before an answer."""
    from apps.puzzles.words import theme_name

    assert lend.theme_list
    names = [str(theme_name(name)) for name in lend.theme_list]
    client = Client()
    page = client.get(reverse("puzzles:puzzle", args=[lend.pk])).content.decode()
    assert re.search(r'<span id="puzzle-themes">\s*</span>', page)
    verdict = answer(client, lend, SHORT_ONE)
    assert verdict["themes"] == names
    page = client.get(reverse("puzzles:puzzle", args=[lend.pk])).content.decode()
    assert all(name in page for name in names)
    chosen = Client().get(reverse("puzzles:theme", args=[lend.theme_list[0]])).content.decode()
    assert names[0] in chosen  # the player asked for that theme


@pytest.mark.django_db
def test_giving_up_is_a_miss_and_opens_the_solution(lend: Puzzle) -> None:
    client = Client()
    response = client.post(reverse("puzzles:give_up", args=[lend.pk]), "{}", content_type="application/json")
    assert response.status_code == 200 and response.json()["rated"] and not response.json()["right"]
    assert Attempt.objects.get(puzzle=lend).gave_up
    assert client.get(reverse("puzzles:solution", args=[lend.pk])).status_code == 200


@pytest.mark.django_db
def test_a_visitors_first_answer_makes_a_guest_whose_rating_stays_when_the_account_is_kept(lend: Puzzle) -> None:
    client = Client()
    assert client.get(reverse("puzzles:trainer")).status_code == 200
    assert not User.objects.exists()  # opening a puzzle makes nothing
    verdict = answer(client, lend, RIGHT_OTHER)
    assert verdict["right"] and verdict["rated"] and verdict["rating_after"] > 1500
    guest = User.objects.get()
    assert guest.is_guest
    kept = guest_convert(user_id=guest.pk, username="ana", email="", password="a long pass phrase 1")
    assert kept.pk == guest.pk and not kept.is_guest
    assert round(PuzzleRating.objects.get(user=kept).rating) == verdict["rating_after"]
    assert Attempt.objects.filter(user=kept, puzzle=lend, right=True).exists()


@pytest.mark.django_db
def test_a_visitor_can_answer_again_after_becoming_a_guest_with_the_token_the_answer_returns(lend: Puzzle) -> None:
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("puzzles:puzzle", args=[lend.pk]))
    token = re.search(r'data-csrf="([^"]+)"', page.content.decode()).group(1)
    url = reverse("puzzles:answer", args=[lend.pk])
    first = client.post(url, json.dumps({"play": SHORT_ONE}), content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert first.status_code == 200
    stale = client.post(url, json.dumps({"play": RIGHT_OTHER}), content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert stale.status_code == 403  # signing in as a guest rotated the token the page was given
    again = client.post(
        url, json.dumps({"play": RIGHT_OTHER}), content_type="application/json", HTTP_X_CSRFTOKEN=first.json()["csrf"]
    )
    assert again.status_code == 200 and again.json()["right"] and not again.json()["rated"]


@pytest.mark.django_db
def test_a_bad_request_body_is_refused_and_changes_nothing(lend: Puzzle) -> None:
    client = Client()
    client.force_login(make_user("ana"))
    url = reverse("puzzles:answer", args=[lend.pk])
    assert client.post(url, "{nope", content_type="application/json").status_code == 400
    assert client.post(url, json.dumps({"play": 5}), content_type="application/json").status_code == 400
    assert client.get(url).status_code == 405
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_the_streak_counts_right_answers_and_keeps_the_best_when_it_ends(starter: int) -> None:
    client = Client()
    client.force_login(make_user("ana"))
    seen = []
    for _ in range(2):
        page = client.get(reverse("puzzles:streak"))
        puzzle = page.context["puzzle"]
        seen.append(puzzle)
        verdict = answer(client, puzzle, " | ".join(puzzle.solution["table"]), mode="streak")
        assert verdict["right"]
    assert verdict["streak"] == {"count": 2, "over": False}
    assert seen[1].rating >= seen[0].rating or seen[1].pk != seen[0].pk
    puzzle = client.get(reverse("puzzles:streak")).context["puzzle"]
    missed = answer(
        client, puzzle, " | ".join(puzzle.position["table"]) + " | " + puzzle.position["rack"].split()[0], mode="streak"
    )
    assert not missed["right"] and missed["streak"] == {"count": 2, "over": True}
    assert PuzzleRating.objects.get(user__username="ana").best_streak == 2


def test_a_guest_who_only_solved_puzzles_is_kept_by_the_cleanup_as_one_who_played(lend):
    """The guests' cleanup deletes guests who never played after two days: a guest's puzzle answers
    count as play (the puzzles app registers its attempts with accounts), so their rating is not lost."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.accounts.services import guest_create, guests_cleanup

    solver, idle = guest_create(), guest_create()
    services.puzzle_answer(user_id=solver.pk, puzzle_id=lend.pk, answer=RIGHT_OTHER)
    User.objects.filter(pk__in=[solver.pk, idle.pk]).update(last_seen=timezone.now() - timedelta(days=3))
    assert guests_cleanup() == 1
    assert User.objects.filter(pk=solver.pk).exists() and not User.objects.filter(pk=idle.pk).exists()
    assert PuzzleRating.objects.filter(user_id=solver.pk).exists()
