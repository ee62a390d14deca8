"""The social app's periodic task: a leaf nobody imports (CONVENTIONS 16)."""

from __future__ import annotations

from celery import shared_task

from apps.social import services


@shared_task(name="social.expire_challenges", ignore_result=True)
def expire_challenges() -> int:
    """End the challenges past their time (every action on a challenge expires it itself; this tells the
    players of those nobody touched). Safe with any number of workers: rows are taken with SKIP LOCKED."""
    return services.challenges_expire()
