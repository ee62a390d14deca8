"""Fixtures of the arena tests: a casual arena that has started, and players to join it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.tournaments.models import Tournament


@pytest.fixture
def arena(db):
    return Tournament.objects.create(
        name="Test arena", game="tile-rummy", seats="2", turn_seconds=60, minutes=60, rated=False,
        starts_at=timezone.now() - timedelta(minutes=1), status=Tournament.Status.RUNNING,
    )
