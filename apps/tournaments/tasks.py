"""The arenas' periodic tasks (a leaf: they only call services)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.signals import beat_init

from apps.tournaments import calendar, services


@shared_task(name="tournaments.tick", ignore_result=True)
def tick() -> dict[str, int]:
    """Every 2 s: start, remind, pair and finish the arenas (one run at a time site-wide)."""
    return services.arenas_tick()


@shared_task(name="tournaments.plan_calendar", ignore_result=True)
def plan_calendar() -> int:
    """The next six hours of the calendar, each slot once."""
    return len(calendar.plan_calendar())


@beat_init.connect  # the embedded beat sends it too
def _plan_when_beat_starts(sender: Any = None, **kwargs: Any) -> None:
    """A fresh site lists its coming arenas at once, not after the first period of the beat."""
    plan_calendar.apply_async()
