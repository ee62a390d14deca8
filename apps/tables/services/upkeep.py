"""Closing what nobody uses (SPEC 11): an unstarted table nobody has looked at for
TABLE_UNWATCHED_CLOSE_SECONDS, and (the backstop of the leave path) a playing table with no person left.

A table's `watched_at` is stamped when a socket opens on it and, while sockets watch it, once a minute by
each web process for all its rooms in one statement (`tables_watched`): never by a move. The periodic
sweep (`tables_close_unused`, every minute) closes what is left; each close is the ordinary one, so the
lobby shows it closed at once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.tables.models import Seat, Table
from apps.tables.services.rows import lock, seats
from apps.tables.services.seating import close, close_if_no_human

log = logging.getLogger(__name__)

#: Table.closed_reason of an unstarted table nobody watched.
UNWATCHED = "unwatched"
#: A table's stamp is written again only when it is at least this old (cheap: at most once a minute).
STAMP_EVERY = timedelta(seconds=60)


def unwatched_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "TABLE_UNWATCHED_CLOSE_SECONDS", 600)))


def stamp_every() -> timedelta:
    """How old a stamp must be to be written again: a minute, or a quarter of a shorter close window."""
    return min(STAMP_EVERY, unwatched_after() / 4)


def tables_watched(table_ids: Sequence[int], *, now: datetime | None = None) -> int:
    """Sockets watch these tables now: stamp the unstarted ones whose stamp is older than `stamp_every()`
    (one statement, no lock, no version: a stamp is nobody's state)."""
    if not table_ids:
        return 0
    now = now or timezone.now()
    stale = Coalesce("watched_at", "created_at")
    # Read first, write only what is stale: most calls find nothing to stamp, and a write (even of no
    # row) takes SQLite's table lock, which a socket opening beside a move must not contend for.
    ids = list(
        Table.objects.filter(pk__in=list(table_ids), status=Table.Status.OPEN)
        .alias(seen=stale)
        .filter(seen__lt=now - stamp_every())
        .values_list("pk", flat=True)
    )
    if not ids:
        return 0
    return Table.objects.filter(pk__in=ids, status=Table.Status.OPEN).update(watched_at=now)


def tables_close_unused(*, now: datetime | None = None) -> int:
    """Close the unstarted tables nobody watched for TABLE_UNWATCHED_CLOSE_SECONDS, and the playing tables
    with no person left in their match. Returns how many were closed."""
    now = now or timezone.now()
    unwatched = list(
        Table.objects.filter(status=Table.Status.OPEN)
        .alias(seen=Coalesce("watched_at", "created_at"))
        .filter(seen__lt=now - unwatched_after())
        .values_list("pk", flat=True)[:500]
    )
    person = Seat.objects.filter(table=OuterRef("pk"), user__isnull=False, left_match=False)
    alone = list(
        Table.objects.filter(status=Table.Status.PLAYING).filter(~Exists(person)).values_list("pk", flat=True)[:500]
    )
    closed = 0
    for table_id in unwatched:
        with transaction.atomic():
            table = lock(table_id)
            seen = table.watched_at or table.created_at
            if table.status == Table.Status.OPEN and seen < now - unwatched_after():
                close(table, UNWATCHED)
                closed += 1
    for table_id in alone:
        with transaction.atomic():
            table = lock(table_id)
            closed += close_if_no_human(table, seats(table))
    return closed
