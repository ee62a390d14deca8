"""Periodic upkeep of accounts."""

from __future__ import annotations

from celery import shared_task

from apps.accounts.services import guests_cleanup


@shared_task(ignore_result=True)
def cleanup_guests() -> int:
    """Delete old unused guest accounts (run daily by beat; see CELERY_BEAT_SCHEDULE)."""
    return guests_cleanup()
