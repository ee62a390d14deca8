"""Telling the viewers of a table, and the lobby, that something changed (after commit)."""

from __future__ import annotations

import logging
from typing import Any

from rummysite import metrics
from rummysite.realtime import group_send, group_send_later

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
#: Seconds after a table's broadcast when a small follow-up repeats its version: a connection that
#: shows an older one by then missed the broadcast, and sends its viewer the current state at once
#: (the viewer's own pings would notice it too, but only at their next one, up to 5 s later). Two of
#: them, in case one is lost as well; each costs a few bytes per viewer.
FOLLOW_UPS_AFTER = (0.5, 1.3)


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def table_changed(table_id: int, version: int, payload: dict[str, Any] | None = None) -> None:
    """Send every viewer of the table the payload of its current version (each connection forwards
    only its own seat's view). `payload` is built from the database unless the caller has it."""
    from apps.tables.snapshot import table_payload

    if payload is None:
        try:
            payload = table_payload(table_id)
        except Exception:  # the table was deleted, say; viewers resync on their own
            log.exception("Could not build the payload of table %s v%s", table_id, version)
            return
    group_send(table_group(table_id), {"type": "table.update", "payload": payload})
    metrics.table_broadcast(table_id, payload["version"])
    for delay in FOLLOW_UPS_AFTER:
        group_send_later(delay, table_group(table_id), {"type": "table.version", "version": payload["version"]})


def lobby_changed(table_id: int) -> None:
    from apps.tables.models import Seat, Table
    from apps.tables.snapshot import lobby_entry

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    if table.private or table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
        group_send(LOBBY_GROUP, {"type": "lobby.update", "id": table_id, "entry": None})
        return
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    group_send(LOBBY_GROUP, {"type": "lobby.update", "id": table_id, "entry": lobby_entry(table, seats)})
