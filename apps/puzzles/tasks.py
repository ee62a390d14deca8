"""Periodic work of the puzzles: choosing the day's puzzle at midnight in Bucharest (beat,
`rummysite/settings.py`); a request that finds today without one chooses it the same way."""

from __future__ import annotations

from celery import shared_task

from apps.puzzles import selectors, services


@shared_task(name="puzzles.choose_daily", ignore_result=True)
def choose_daily() -> int | None:
    """Choose today's puzzle (a no-op when it is chosen); the puzzle's id, or None if none is left."""
    chosen = services.daily_choose(selectors.today())
    return None if chosen is None else chosen.puzzle_id
