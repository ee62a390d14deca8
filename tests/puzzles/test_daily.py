"""The daily puzzle (SPEC 18): one a date in Europe/Bucharest, never a puzzle used before, chosen by beat at
midnight there or by the first request of a day without one; on the home page with a share link."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse

from apps.puzzles import selectors, services
from apps.puzzles.models import DailyPuzzle, Puzzle
from apps.puzzles.schedules import midnight_in_bucharest
from apps.puzzles.tasks import choose_daily

DAY = datetime.date(2026, 12, 7)


@pytest.mark.django_db
def test_a_day_gets_one_puzzle_however_often_it_is_asked(starter: int) -> None:
    first = services.daily_choose(DAY)
    assert first is not None
    assert services.daily_choose(DAY) == first
    assert DailyPuzzle.objects.count() == 1


@pytest.mark.django_db
def test_no_puzzle_is_a_days_puzzle_twice(starter: int) -> None:
    servable = selectors.servable().count()
    days = [DAY + datetime.timedelta(days=n) for n in range(servable + 1)]
    chosen = [services.daily_choose(day) for day in days]
    puzzles = [daily.puzzle_id for daily in chosen if daily is not None]
    assert len(puzzles) == len(set(puzzles)) == servable
    assert chosen[-1] is None  # every puzzle has been one: nothing is reused


@pytest.mark.django_db
def test_the_best_rated_unused_puzzle_is_chosen(starter: int) -> None:
    sure = Puzzle.objects.filter(game="tile-rummy-rearrange").order_by("-id").first()
    assert sure is not None
    Puzzle.objects.filter(pk=sure.pk).update(deviation=60, plays=400)
    chosen = services.daily_choose(DAY)
    assert chosen is not None and chosen.puzzle_id == sure.pk


@pytest.mark.django_db
def test_the_task_chooses_todays_puzzle_in_bucharest(starter: int) -> None:
    puzzle_id = choose_daily()
    assert DailyPuzzle.objects.get(date=selectors.today()).puzzle_id == puzzle_id


def test_today_turns_at_midnight_in_bucharest_not_utc() -> None:
    utc = datetime.UTC
    assert selectors.today(datetime.datetime(2026, 12, 7, 21, 59, tzinfo=utc)) == datetime.date(2026, 12, 7)
    assert selectors.today(datetime.datetime(2026, 12, 7, 22, 0, tzinfo=utc)) == datetime.date(2026, 12, 8)  # UTC+2
    assert selectors.today(datetime.datetime(2026, 7, 7, 21, 0, tzinfo=utc)) == datetime.date(
        2026, 7, 8
    )  # summer: UTC+3


def test_beat_runs_the_task_at_midnight_in_bucharest() -> None:
    schedule = midnight_in_bucharest()
    zone = ZoneInfo("Europe/Bucharest")
    last = datetime.datetime(2026, 12, 7, 0, 0, tzinfo=zone)
    schedule.nowfun = lambda: datetime.datetime(2026, 12, 7, 21, 30, tzinfo=datetime.UTC)  # 23:30 there
    due, _ = schedule.is_due(last)
    assert not due
    schedule.nowfun = lambda: datetime.datetime(2026, 12, 7, 22, 0, 5, tzinfo=datetime.UTC)  # 00:00:05 there
    due, _ = schedule.is_due(last)
    assert due


@pytest.mark.django_db
def test_the_home_page_shows_the_daily_puzzle_with_a_share_link(starter: int) -> None:
    page = Client().get(reverse("home")).content.decode()
    daily = DailyPuzzle.objects.get(date=selectors.today())  # the first request chose it
    assert reverse("puzzles:daily") in page
    assert "http://testserver" + reverse("puzzles:daily") in page
    daily_page = Client().get(reverse("puzzles:daily"))
    assert daily_page.context["puzzle"].pk == daily.puzzle_id
