"""Queueing a game's review, by task name (tasks are a leaf nothing imports): when a game ends (the
review subscribes to the tables' `GameFinished`: apps/review/subscribers.py), and from the replay page
when a game has no review yet."""

from __future__ import annotations

from django.conf import settings

from apps.lib.queueing import queue_task

TASK = "review.review_game"


def review_queue(game_id: int) -> None:
    """Queue the review of a finished game. A broker outage is logged, not raised (the periodic
    `review.review_pending` queues it later); tests that drive the review themselves turn queueing off
    with REVIEW_ENQUEUE_TASKS (by default as TABLE_ENQUEUE_TASKS)."""
    if getattr(settings, "REVIEW_ENQUEUE_TASKS", getattr(settings, "TABLE_ENQUEUE_TASKS", True)):
        queue_task(TASK, game_id)
