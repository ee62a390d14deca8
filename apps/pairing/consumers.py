"""The pairing socket `/ws/pairing/` (the waiting screen, and the seeks on the lobby and quick-play
pages) and the part pairing adds to every table's socket (a paired player has come).

The pairing socket, while open, stamps its player's pool entry and seek as seen every
PAIRING_TOUCH_SECONDS and sends the waiting screen's facts (time waited, how many wait, the typical
wait); closing it (leaving the page) stops the stamps, and the wave's sweep takes the player out
PAIRING_GONE_SECONDS later, whichever process the socket was on. It listens to the player's own topic
(seated at a table: the page moves there) and to the seeks' topic (re-reads the seeks its player may
take).

Frames it sends: `{"type": "waiting", "pool", "label", "waited", "count", "typical"}` (every beat),
`{"type": "paired", "table", "url"}` (go there), `{"type": "requeued", "front", "url"}` (a paired player
did not come: back in the pool), `{"type": "left"}` (out of the pool: Cancel, a gone page, a ban),
`{"type": "seeks", "seeks": [...]}`; it reads `sync` and `ping` (answered `pong`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, ClassVar

from django.conf import settings

from apps.live.bus import bus
from apps.live.compact import dumps
from apps.live.endpoint import Endpoint
from apps.live.guard import FrameSpec
from apps.live.threads import db
from apps.pairing import selectors, services
from apps.pairing.effects import SEEKS_TOPIC, user_topic
from apps.tables.parts import SocketPart

NO_FIELDS = FrameSpec()


def touch_seconds() -> float:
    return float(getattr(settings, "PAIRING_TOUCH_SECONDS", 2.0))


def _status_of(user_id: int) -> dict[str, Any]:
    services.entries_touch(user_id=user_id)
    return selectors.waiting_status(user_id) or {"type": "left"}


class PairingSocket(Endpoint):
    frames: ClassVar[dict[str, FrameSpec]] = {"sync": NO_FIELDS, "ping": NO_FIELDS}
    max_frame_bytes: ClassVar[int] = 512
    frame_rate: ClassVar[tuple[float, int] | None] = (2.0, 10)

    user: Any = None
    user_id: int | None = None
    _beat: asyncio.Task[None] | None = None

    async def connect(self) -> int | None:
        user = self.scope.get("user")
        if user is not None and getattr(user, "is_authenticated", False):
            self.user, self.user_id = user, user.pk
        self._sending: set[asyncio.Future[Any]] = set()
        return None

    async def opened(self) -> None:
        if self.user_id is not None:
            bus().listen(user_topic(self.user_id), self.heard)
        bus().listen(SEEKS_TOPIC, self.seeks_changed)
        await self.send_seeks()
        if self.user_id is not None:
            await self.send_status()
            self._beat = asyncio.ensure_future(self.keep_seen(self.user_id))

    async def closed(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
        if self.user_id is not None:
            bus().unlisten(user_topic(self.user_id), self.heard)
        bus().unlisten(SEEKS_TOPIC, self.seeks_changed)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def heard(self, text: str) -> None:
        self._spawn(self.send_text(text))

    def seeks_changed(self, text: str) -> None:
        self._spawn(self.send_seeks())

    async def keep_seen(self, user_id: int) -> None:
        while self.open:
            await asyncio.sleep(touch_seconds())
            with contextlib.suppress(Exception):  # a database hiccup: the next beat tries again
                await self.send_json(await db(_status_of)(user_id))

    async def send_status(self) -> None:
        if self.user_id is not None:
            await self.send_json(await db(_status_of)(self.user_id))

    async def send_seeks(self) -> None:
        seeks = await db(selectors.seeks_for)(self.user)
        await self.send_text(dumps({"type": "seeks", "seeks": seeks}))

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self.send_status()
        await self.send_seeks()

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_text('{"type":"pong"}')


class ArrivalPart(SocketPart):
    """A part of every table's socket: a signed-in player's socket opening at the table tells pairing
    they came (one indexed read for a table no pairing made; an update for a paired player). A paired player's socket
    then hears their pairing topic until it closes: if another player does not come, the table closes and
    this player is back at the front of the pool, and the socket says so with a `pairing` frame
    (`{"type": "pairing", "url": "/play/quick/wait/"}`: the waiting screen to go back to)."""

    frames: ClassVar[dict[str, FrameSpec]] = {}
    topic: str | None = None

    async def opened(self) -> None:
        user_id = self.socket.user_id
        if user_id is None:
            return
        if await db(services.arrival)(table_id=self.socket.table_id, user_id=user_id):
            self.topic = user_topic(user_id)
            bus().listen(self.topic, self.heard)

    async def closed(self) -> None:
        if self.topic is not None:
            bus().unlisten(self.topic, self.heard)

    def heard(self, text: str) -> None:
        frame = json.loads(text)
        if frame.get("type") in ("requeued", "paired") and isinstance(frame.get("url"), str):
            self.socket.spawn_send(dumps({"type": "pairing", "url": frame["url"]}))
