"""When beat sends the daily e-mail: 08:00 in Bucharest, daylight saving included."""

from __future__ import annotations

from apps.puzzles.schedules import BucharestCrontab


def digest_hour() -> BucharestCrontab:
    return BucharestCrontab(minute=0, hour=8)
