"""Queueing a game's review: by task name (tasks are a leaf nothing imports), as the table's effects do
when a game ends (apps/tables/effects.py); the replay page queues it too when a game has no review yet."""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings

log = logging.getLogger(__name__)

TASK = "review.review_game"


def review_queue(game_id: int) -> None:
    """Queue the review of a finished game. A broker outage is logged, not raised (the periodic
    `review.review_pending` queues it later); tests that drive the review themselves turn queueing off
    with REVIEW_ENQUEUE_TASKS (by default as TABLE_ENQUEUE_TASKS)."""
    if not getattr(settings, "REVIEW_ENQUEUE_TASKS", getattr(settings, "TABLE_ENQUEUE_TASKS", True)):
        return
    try:
        current_app.send_task(TASK, args=(game_id,))
    except Exception as error:  # the broker is away: an outage the backstop covers
        log.warning("Could not queue the review of game %s (%s: %s)", game_id, type(error).__name__, error)
