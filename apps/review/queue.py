"""Queueing a game's review when it ends: the one function the table service calls, after the commit
that finished the game (apps/tables/services.py)."""

from __future__ import annotations

import logging

from django.conf import settings

from apps.review.tasks import review_game

log = logging.getLogger(__name__)


def review_queue(game_id: int) -> None:
    """Queue the review of a finished game. A broker outage is logged, not raised (the periodic
    `review.review_pending` queues it later); tests that drive the review themselves turn queueing off
    with REVIEW_ENQUEUE_TASKS."""
    if not getattr(settings, "REVIEW_ENQUEUE_TASKS", getattr(settings, "TABLE_ENQUEUE_TASKS", True)):
        return
    try:
        review_game.delay(game_id)
    except Exception as error:  # the broker is away: an outage the backstop covers
        log.warning("Could not queue the review of game %s (%s: %s)", game_id, type(error).__name__, error)
