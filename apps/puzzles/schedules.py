"""A Celery crontab read in a time zone of its own: the daily puzzle changes at midnight in Bucharest,
whatever the Celery app's zone (UTC), daylight saving included."""

from __future__ import annotations

from datetime import tzinfo
from zoneinfo import ZoneInfo

from celery.schedules import crontab


class BucharestCrontab(crontab):
    """`crontab(...)` whose fields are hours and minutes in Europe/Bucharest."""

    zone = ZoneInfo("Europe/Bucharest")

    @property
    def tz(self) -> tzinfo:  # type: ignore[override]  # celery-types says str; Celery's own code takes a tzinfo
        return self.zone


def midnight_in_bucharest() -> BucharestCrontab:
    return BucharestCrontab(minute=0, hour=0)
