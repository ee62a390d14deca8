"""The chat's frames on the wire (docs/protocol.md) and the topic they travel on.

A table's chat has a topic of its own on the live bus (`chat:<table id>`), next to the table's
versioned one: a message never raises the table's version and never passes through a move's
transaction. A frame names the author by id and name and says what they said: text, or a quick phrase
by code. It carries nothing of the game.
"""

from __future__ import annotations

import json
from typing import Any

from apps.live.bus import bus

#: The fields of a published chat frame; a test checks that no frame carries more.
MESSAGE_FIELDS = ("id", "user_id", "name", "seat", "text", "phrase", "at")


def chat_topic(table_id: int) -> str:
    return f"chat:{table_id}"


def message_frame(message: Any, name: str) -> dict[str, Any]:
    return {
        "id": message.pk,
        "user_id": message.author_id,
        "name": name,
        "seat": message.seat,
        "text": message.text,
        "phrase": message.phrase,
        "at": message.created_at.isoformat(),
    }


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def publish(table_id: int, frame: dict[str, Any], *, author_id: int | None = None) -> None:
    """Send a frame to every socket of the table, everywhere. `author_id` lets each socket leave out
    what its viewer muted (the envelope's `a`; the frame itself is `f`)."""
    bus().publish(chat_topic(table_id), dumps({"a": author_id, "f": dumps(frame)}))
