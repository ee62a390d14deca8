"""Check-then-act under two connections (PostgreSQL): two answers to one puzzle at once (two tabs) are
rated once, and two workers choosing the same day's puzzle at once make one daily puzzle."""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import close_old_connections, connection

from apps.puzzles import services
from apps.puzzles.models import Attempt, DailyPuzzle, Puzzle, PuzzleRating
from tests.puzzles.conftest import RIGHT_OTHER
from tests.tables.helpers import make_user


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; their results (or exceptions) in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # reported by the test's asserts
            results[index] = error
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_answers_at_once_from_two_tabs_are_rated_once(lend: Puzzle) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    for round_ in range(5):
        ana = make_user(f"ana{round_}")
        outcomes = at_once(
            lambda user_id=ana.pk: services.puzzle_answer(user_id=user_id, puzzle_id=lend.pk, answer=RIGHT_OTHER),
            lambda user_id=ana.pk: services.puzzle_answer(user_id=user_id, puzzle_id=lend.pk, answer=RIGHT_OTHER),
        )
        assert all(isinstance(outcome, services.Outcome) for outcome in outcomes), outcomes
        assert sorted(outcome.rated for outcome in outcomes) == [False, True]
        assert Attempt.objects.filter(user=ana, puzzle=lend).count() == 1
        rating = PuzzleRating.objects.get(user=ana)
        assert rating.rated == 1
        rated = next(outcome for outcome in outcomes if outcome.rated)
        assert rating.rating == rated.rating_after
    lend.refresh_from_db()
    assert lend.plays == 5


@pytest.mark.django_db(transaction=True)
def test_two_workers_choosing_a_days_puzzle_at_once_make_one(starter: int) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    for offset in range(5):
        day = datetime.date(2027, 1, 1) + datetime.timedelta(days=offset)
        chosen = at_once(lambda day=day: services.daily_choose(day), lambda day=day: services.daily_choose(day))
        assert all(isinstance(daily, DailyPuzzle) for daily in chosen), chosen
        assert chosen[0].pk == chosen[1].pk and chosen[0].puzzle_id == chosen[1].puzzle_id
        assert DailyPuzzle.objects.filter(date=day).count() == 1
    assert DailyPuzzle.objects.values("puzzle").distinct().count() == 5


@pytest.mark.django_db(transaction=True)
def test_two_days_chosen_at_once_never_share_a_puzzle(starter: int) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    first, second = datetime.date(2027, 2, 1), datetime.date(2027, 2, 2)
    chosen = at_once(lambda: services.daily_choose(first), lambda: services.daily_choose(second))
    assert all(isinstance(daily, DailyPuzzle) for daily in chosen), chosen
    assert chosen[0].puzzle_id != chosen[1].puzzle_id
