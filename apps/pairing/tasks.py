"""The pairing wave, from beat every PAIRING_WAVE_SECONDS (rummysite/settings.py CELERY_BEAT_SCHEDULE):
small and idempotent, one service (CONVENTIONS 10). Two of them at once (two beats by mistake, a slow
wave) never pair twice: the wave holds a site-wide advisory lock, and the second returns at once."""

from __future__ import annotations

from celery import shared_task

from apps.pairing import services


@shared_task(name="pairing.wave", ignore_result=True, expires=10)
def wave() -> int:
    """One wave; returns how many tables it opened (-1: another wave was running)."""
    report = services.pairing_wave()
    return len(report.tables) + len(report.bots) if report.ran else -1
