"""Celery tasks of the review: small and idempotent; each calls one service (CONVENTIONS 10)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from apps.review import services

#: Retries of a review whose computation raised (a database outage, a worker lost mid-way); after
#: them, the review is marked failed and the replay page says so.
MAX_RETRIES = 3


@shared_task(bind=True, name="review.review_game", ignore_result=True, max_retries=MAX_RETRIES, acks_late=True)
def review_game(self: Any, game_id: int) -> str:
    """Queued on commit when a game ends (apps/review/queue.py). Safe to run twice: a stored review
    is left as it is."""
    try:
        return services.review_compute(game_id=game_id)
    except Exception as error:
        if self.request.retries >= MAX_RETRIES:
            services.review_failed(game_id=game_id, error=error)
            return "failed"
        raise self.retry(exc=error, countdown=2 ** self.request.retries) from error


@shared_task(name="review.review_pending", ignore_result=True)
def review_pending() -> int:
    """Periodic backstop: queue the review of every recent finished game whose task was lost."""
    waiting = services.games_waiting_for_reviews()
    for game_id in waiting:
        review_game.delay(game_id)
    return len(waiting)
