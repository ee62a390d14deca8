"""`/ws/notifications/`: the bell of every page of a signed-in player, live (SPEC 17).

The socket listens on the player's own topic of the live bus (apps/notifications/services.py
`user_topic`): a new notification, or a new unread count when another page marked some read. What the
bus carries has no words: each socket says the notification in its own language, so two pages of one
player in two languages each read their own. It reads only `ping`.

    -> {"type": "unread", "unread": 3}                              on opening, and after a mark read
    -> {"type": "notification", "unread": 4, "item": {"id", "kind", "text", "url", "read", "created"}}
    -> {"type": "challenge", "challenge": 7, "change": "declined", "status": "declined", "actor": "bob",
        "reason": "too_fast", "reason_text": "Too fast", "table_url": ""}     a challenge of the player changed

The first `unread` frame of a connection comes once the listen can miss nothing more: a page that
compares what it shows with the server (a challenge's page) does it then, after opening and after each
reconnect, and hears every later change live.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar

from django.urls import reverse
from django.utils import translation

from apps.live.bus import bus
from apps.live.compact import dumps
from apps.live.endpoint import Endpoint
from apps.live.guard import FrameSpec
from apps.live.threads import db
from apps.notifications.services import unread_count, user_topic
from apps.notifications.texts import Item, reason_label

#: Close code for a socket without a signed-in player (docs/protocol.md).
NOT_SIGNED_IN = 4401


def item_of(wired: dict[str, Any]) -> Item:
    return Item(
        id=int(wired["id"]),
        kind=str(wired["kind"]),
        actor=str(wired.get("actor") or ""),
        table_id=wired.get("table"),
        reason=str(wired.get("reason") or ""),
        read=bool(wired.get("read")),
        created=str(wired.get("created") or ""),
        tournament_id=wired.get("tournament"),
        challenge_id=wired.get("challenge"),
        subject=str(wired.get("subject") or ""),
    )


def challenge_frame(wired: dict[str, Any], language: str) -> dict[str, Any]:
    """A change of a challenge as the bus carries it (apps/notifications/subscribers.py), with the decline's
    reason in the socket's language and the table's address once it started."""
    table = wired.get("table")
    with translation.override(language):
        reason_text = reason_label(str(wired.get("reason") or ""))
    return {
        "type": "challenge",
        "challenge": wired.get("challenge"),
        "change": wired.get("change"),
        "status": wired.get("status"),
        "actor": wired.get("actor") or "",
        "reason": wired.get("reason") or "",
        "reason_text": reason_text,
        "table_url": reverse("tables:table", args=[table]) if table else "",
    }


class BellSocket(Endpoint):
    frames: ClassVar[dict[str, FrameSpec]] = {"ping": FrameSpec()}
    max_frame_bytes: ClassVar[int] = 256
    frame_rate: ClassVar[tuple[float, int] | None] = (2.0, 10)
    user_id: int | None = None

    async def connect(self) -> int | None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return NOT_SIGNED_IN
        self.user_id = int(user.pk)
        self._sending: set[asyncio.Task[None]] = set()
        return None

    async def opened(self) -> None:
        assert self.user_id is not None
        # Listen first, then count: a notification made in between is counted, and told, at worst twice.
        # The count goes out once the listen is in effect (on Redis: its SUBSCRIBE reached the server), so
        # a page that reads its state on this frame misses no change after it.
        topic = user_topic(self.user_id)
        bus().listen(topic, self.heard)
        await bus().until_listening([topic])
        count = await db(unread_count)(self.user_id)
        await self.send_json({"type": "unread", "unread": count})

    async def closed(self) -> None:
        if self.user_id is not None:
            bus().unlisten(user_topic(self.user_id), self.heard)

    def heard(self, text: str) -> None:
        """A frame on the player's topic (in the server's loop): said in this socket's language."""
        frame = json.loads(text)
        if frame.get("type") == "notification":
            with translation.override(self.language):
                frame = {"type": "notification", "unread": frame.get("unread"), "item": item_of(frame["item"]).frame()}
        elif frame.get("type") == "challenge":
            frame = challenge_frame(frame, self.language)
        task = asyncio.ensure_future(self.send_text(dumps(frame)))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_text('{"type":"pong"}')
