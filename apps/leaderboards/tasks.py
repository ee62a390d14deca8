"""Celery tasks of the leaderboards: apply a finished rated match, and a sweep for lost messages."""

from __future__ import annotations

from celery import shared_task

from apps.leaderboards.services import matches_waiting_for_ratings, rating_apply_match


@shared_task(name="leaderboards.rate_match", ignore_result=True)
def rate_match(match_id: int) -> bool:
    """Queued by name when a rated match finishes (apps/leaderboards/subscribers.py). Safe to run twice."""
    return rating_apply_match(match_id=match_id)


@shared_task(ignore_result=True)
def rate_pending_matches() -> int:
    """Periodic backstop: apply any finished rated match whose `rate_match` message was lost."""
    return sum(rating_apply_match(match_id=match_id) for match_id in matches_waiting_for_ratings())
