"""What pairing tells the pages, after the commit, on the live bus (apps/live/bus.py): each player's own
topic (`pairing:<user id>`: seated at a table, out of the pool) and the seeks' topic (the lobby's seeks
changed: each socket reads the ones its player may take)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from apps.live.bus import bus
from apps.live.compact import dumps

SEEKS_TOPIC = "seeks"


def user_topic(user_id: int) -> str:
    return f"pairing:{user_id}"


def tell(user_id: int, frame: dict[str, Any]) -> None:
    """Send `frame` to every pairing socket of the user, once the transaction commits."""
    text = dumps(frame)
    transaction.on_commit(lambda: bus().publish(user_topic(user_id), text))


def seeks_changed() -> None:
    transaction.on_commit(lambda: bus().publish(SEEKS_TOPIC, '{"type":"seeks_changed"}'))
