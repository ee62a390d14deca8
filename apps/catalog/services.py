from __future__ import annotations

from django.db import transaction

from apps.catalog.data import CATALOG
from apps.catalog.models import Game


@transaction.atomic
def catalog_load() -> int:
    """Write every catalog entry to the database (idempotent). Returns how many games there are."""
    for entry in CATALOG:
        Game.objects.update_or_create(
            slug=entry.slug,
            defaults={
                "name": str(entry.name),
                "tagline": str(entry.tagline),
                "min_players": entry.min_players,
                "max_players": entry.max_players,
                "min_minutes": entry.min_minutes,
                "max_minutes": entry.max_minutes,
                "difficulty": str(entry.difficulty),
                "has_leaderboard": entry.has_leaderboard,
                "position": entry.position,
            },
        )
    return len(CATALOG)
