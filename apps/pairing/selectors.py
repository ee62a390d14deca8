"""What the pages and sockets read of quick pairing: a player's place in a pool, the typical wait of a
pool, and the seeks a player may take."""

from __future__ import annotations

import statistics
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from apps.catalog.data import game_name
from apps.pairing.models import PoolEntry, Seek, Wait
from apps.pairing.pools import Pool
from apps.pairing.rules import PairingError, check_may_join, facts_of

#: The typical wait is the median of a pool's last waits, of the last hour, once there are a few.
TYPICAL_OF = 20
TYPICAL_AT_LEAST = 3


def typical_wait(pool: Pool) -> float | None:
    """The median of the pool's recent waits in seconds (None while too few are known); cached 10 s."""
    key = f"pairing:typical:{pool.key}"
    found = cache.get(key)
    if found is None:
        since = timezone.now() - timedelta(hours=1)
        waits = list(Wait.objects.filter(pool=pool.key, at__gte=since).values_list("seconds", flat=True)[:TYPICAL_OF])
        found = round(statistics.median(waits), 1) if len(waits) >= TYPICAL_AT_LEAST else -1.0
        cache.set(key, found, 10)
    return None if found < 0 else float(found)


def waiting_count(pool: Pool) -> int:
    """How many wait in the pool (not those being seated); cached 2 s."""
    key = f"pairing:count:{pool.key}"
    found = cache.get(key)
    if found is None:
        found = PoolEntry.objects.filter(
            game=pool.game, seats=pool.seats, pace=pool.pace, rated=pool.rated, table_id__isnull=True
        ).count()
        cache.set(key, found, 2)
    return int(found)


def pool_entry(user_id: int | None) -> PoolEntry | None:
    if user_id is None:
        return None
    return PoolEntry.objects.filter(user_id=user_id).first()


def waiting_status(user_id: int | None) -> dict[str, Any] | None:
    """The waiting screen's facts (the frame `waiting`), or None if the player is in no pool."""
    entry = pool_entry(user_id)
    if entry is None:
        return None
    pool = Pool(entry.game, entry.seats, entry.pace, entry.rated)
    frame: dict[str, Any] = {
        "type": "waiting",
        "pool": pool.key,
        "label": pool.label(),
        "waited": round((timezone.now() - entry.since).total_seconds()),
        "count": waiting_count(pool),
        "typical": typical_wait(pool),
    }
    if entry.table_id is not None:
        frame.update(type="paired", table=entry.table_id, url=f"/t/{entry.table_id}/")
    return frame


def seek_of(user_id: int | None) -> Seek | None:
    return Seek.objects.filter(user_id=user_id).first() if user_id is not None else None


def seeks_for(user: Any, *, limit: int = 50) -> list[dict[str, Any]]:
    """The seeks shown to `user`: the rated ones only to players who may play rated, and only those whose
    range takes the player's rating in that game (anonymous visitors and guests see the casual ones);
    the player's own seek is marked."""
    rows = list(Seek.objects.select_related("user").order_by("created_at")[: limit * 2])
    shown: list[dict[str, Any]] = []
    ratings: dict[str, float] = {}
    rights: dict[bool, bool] = {}
    for seek in rows:
        own = user is not None and getattr(user, "pk", None) == seek.user_id
        pool = Pool(seek.game, seek.seats, seek.pace, seek.rated)
        if not own:
            if seek.rated not in rights:
                try:
                    check_may_join(user, pool) if getattr(user, "is_authenticated", False) else None
                    rights[seek.rated] = not (seek.rated and not getattr(user, "is_authenticated", False))
                except PairingError:
                    rights[seek.rated] = False
            if not rights[seek.rated]:
                continue
            if getattr(user, "is_authenticated", False):
                if seek.game not in ratings:
                    ratings[seek.game] = facts_of(user, seek.game).rating
                if not seek.rating_min <= ratings[seek.game] <= seek.rating_max:
                    continue
        shown.append(
            {
                "id": seek.pk,
                "own": own,
                "player": seek.user.get_username(),
                "rating": round(seek.rating),
                "label": pool.label(),
                "game": game_name(seek.game),
                "seats": seek.seats,
                "pace": seek.pace,
                "rated": seek.rated,
                "min": seek.rating_min,
                "max": seek.rating_max,
            }
        )
        if len(shown) >= limit:
            break
    return shown
