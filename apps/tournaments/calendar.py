"""The arenas' calendar (SPEC 16): what is planned, slot by slot, for the next six hours.

    plan_calendar(now) -> the arenas it made (none for the slots already planned)

- every hour, on the hour: a Tile Rummy arena at 60 s a turn, 2 seats, 50 minutes;
- every hour at half past: a Rearrange arena at 60 s, 2 seats, 50 minutes, so that a player of either game
  finds one starting within the hour; not while the daily Rearrange arena runs (17:30 and 18:30 in Bucharest);
- every day at 18:00 Europe/Bucharest: a Rearrange arena at 60 s, 2 seats, 60 minutes;
- every evening at 20:00 Europe/Bucharest: the evening arena, Tile Rummy at 60 s, 3-4 seats, 90 minutes;
- every Sunday at 17:00 Europe/Bucharest: a rating-capped arena (below 1200), Tile Rummy, 60 minutes.

Each slot has a key (`Tournament.calendar_key`, unique): planning it twice, or two planners at once,
makes it once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from apps.tournaments.models import Tournament

BUCHAREST = ZoneInfo("Europe/Bucharest")
HORIZON = timedelta(hours=6)


@dataclass(frozen=True)
class Slot:
    key: str
    name: str  # an English name, translated where shown (gettext_noop marks it)
    starts_at: datetime
    game: str
    seats: str
    turn_seconds: int
    minutes: int
    rating_below: int | None = None


HOURLY = gettext_noop("Hourly Tile Rummy arena")
HOURLY_REARRANGE = gettext_noop("Hourly Rearrange arena")
DAILY_REARRANGE = gettext_noop("Daily Rearrange arena")
EVENING = gettext_noop("Evening arena")
WEEKLY_CAPPED = gettext_noop("Weekly arena, ratings below 1200")
#: The names the calendar gives, for the pages to translate.
NAMES = (HOURLY, HOURLY_REARRANGE, DAILY_REARRANGE, EVENING, WEEKLY_CAPPED)


def slots(now: datetime, horizon: timedelta = HORIZON) -> Iterator[Slot]:
    """Every calendar slot starting after `now` and within `horizon` of it."""
    end = now + horizon
    hour = now.astimezone(BUCHAREST).replace(minute=0, second=0, microsecond=0)
    while hour <= end:
        half = hour + timedelta(minutes=30)
        if now < half <= end and hour.timetz().replace(tzinfo=None) not in (time(17), time(18)):
            utc = half.astimezone(ZoneInfo("UTC"))
            yield Slot(f"hourly-rearrange:{utc:%Y-%m-%dT%H:%M}", HOURLY_REARRANGE, utc, "tile-rummy-rearrange", "2", 60, 50)
        if hour > now:
            utc = hour.astimezone(ZoneInfo("UTC"))
            stamp = utc.strftime("%Y-%m-%dT%H:%M")
            yield Slot(f"hourly:{stamp}", HOURLY, utc, "tile-rummy", "2", 60, 50)
            local = hour.timetz().replace(tzinfo=None)
            if local == time(18):
                yield Slot(f"daily-rearrange:{stamp}", DAILY_REARRANGE, utc, "tile-rummy-rearrange", "2", 60, 60)
            if local == time(20):
                yield Slot(f"evening:{stamp}", EVENING, utc, "tile-rummy", "3-4", 60, 90)
            if local == time(17) and hour.weekday() == 6:
                yield Slot(f"weekly-capped:{stamp}", WEEKLY_CAPPED, utc, "tile-rummy", "2", 60, 60, rating_below=1200)
        # Step by wall-clock hours in Bucharest (a DST change makes one hour repeat or vanish there).
        hour = (hour.astimezone(ZoneInfo("UTC")) + timedelta(hours=1)).astimezone(BUCHAREST)


def plan_calendar(now: datetime | None = None) -> list[Tournament]:
    """Make the arenas of the next six hours that are not planned yet (each slot once)."""
    now = now or timezone.now()
    wanted = list(slots(now))
    known = set(Tournament.objects.filter(calendar_key__in=[slot.key for slot in wanted]).values_list("calendar_key", flat=True))
    made = []
    for slot in wanted:
        if slot.key in known:
            continue
        try:
            with transaction.atomic():
                made.append(
                    Tournament.objects.create(
                        name=slot.name,
                        calendar_key=slot.key,
                        starts_at=slot.starts_at,
                        game=slot.game,
                        seats=slot.seats,
                        turn_seconds=slot.turn_seconds,
                        minutes=slot.minutes,
                        rated=True,
                        rating_below=slot.rating_below,
                    )
                )
        except IntegrityError:  # another planner made it meanwhile
            continue
    return made
