"""The calendar (SPEC 16): the next six hours planned, each slot exactly once, even with two planners at once."""

from __future__ import annotations

import threading
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import close_old_connections, connection

from apps.tournaments import calendar, tasks
from apps.tournaments.models import Tournament

pytestmark = pytest.mark.django_db
UTC = ZoneInfo("UTC")
# A Sunday in December (Bucharest is UTC+2): 12:30 UTC is 14:30 there; six hours reach 20:30 there.
SUNDAY = datetime(2026, 12, 6, 12, 30, tzinfo=UTC)


def test_six_hours_hold_six_hourlies_the_weekly_the_daily_rearrange_and_the_evening_arena():
    made = calendar.plan_calendar(SUNDAY)
    keys = sorted(t.calendar_key for t in made)
    assert [k for k in keys if k.startswith("hourly:")] == [f"hourly:2026-12-06T{h:02d}:00" for h in range(13, 19)]
    # Rearrange every hour at half past (15:30 to 20:30 in Bucharest), but not beside the daily one (17:30, 18:30).
    assert [k for k in keys if k.startswith("hourly-rearrange:")] == [
        f"hourly-rearrange:2026-12-06T{h:02d}:30" for h in (13, 14, 17, 18)
    ]
    assert {t.game for t in made if t.calendar_key.startswith("hourly-rearrange:")} == {"tile-rummy-rearrange"}
    assert "weekly-capped:2026-12-06T15:00" in keys  # 17:00 in Bucharest
    assert "daily-rearrange:2026-12-06T16:00" in keys  # 18:00 in Bucharest
    assert "evening:2026-12-06T18:00" in keys  # 20:00 in Bucharest
    evening = Tournament.objects.get(calendar_key="evening:2026-12-06T18:00")
    assert evening.starts_at.astimezone(calendar.BUCHAREST).hour == 20 and evening.seats == "3-4"
    assert Tournament.objects.get(calendar_key="weekly-capped:2026-12-06T15:00").rating_below == 1200
    hourly = Tournament.objects.get(calendar_key="hourly:2026-12-06T13:00")
    assert (hourly.game, hourly.turn_seconds) == ("tile-rummy", 60)


def test_planning_again_makes_nothing_new():
    first = calendar.plan_calendar(SUNDAY)
    assert calendar.plan_calendar(SUNDAY) == []
    later = calendar.plan_calendar(datetime(2026, 12, 6, 13, 30, tzinfo=UTC))  # an hour on: one more of each hourly
    assert sorted(t.calendar_key for t in later) == ["hourly-rearrange:2026-12-06T19:30", "hourly:2026-12-06T19:00"]
    assert Tournament.objects.count() == len(first) + 2


def test_the_task_plans_the_calendar_from_now():
    assert tasks.plan_calendar() >= 6
    assert tasks.plan_calendar() == 0


@pytest.mark.django_db(transaction=True)
def test_two_planners_at_once_make_each_slot_once():
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    barrier = threading.Barrier(2)
    counts = []

    def plan():
        try:
            barrier.wait()
            counts.append(len(calendar.plan_calendar(SUNDAY)))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=plan) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    slots = len(list(calendar.slots(SUNDAY)))
    assert sum(counts) == slots and Tournament.objects.count() == slots
