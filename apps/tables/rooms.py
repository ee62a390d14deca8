"""The tables as one web process sees them: one room per table with sockets here (CONVENTIONS 9).

A room holds the last published change of its table (the version, each viewer's frame as text, who
sits where) and the process's sockets of that table. A publish (apps/live/bus.py) reaches the room
once; the room hands each socket its own viewer's frame, already encoded. Pongs and syncs are answered
from the room, never from the database: a burst of syncs costs a few sends, so a busy server cannot be
pushed into answering its own late broadcasts with full reads (the "sync storm" of the old design).

Each room also knows who of the table has a socket here, and with the other processes' rooms (over the
bus) who is away: apps/tables/presence.py.

Lost messages are repaired by the process, not the clients: every CHECK_SECONDS the rooms' versions
are read in one query, and a room that is behind is brought up to date from the database once (then
its sockets are sent the frames they lack). After a gap of the bus (Redis came back) the check runs at
once. The same check stamps, about once a minute, the unstarted tables the process's sockets watch (SPEC 11:
a table nobody looks at closes; apps/tables/services/upkeep.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from django.conf import settings

from apps.live.bus import bus
from apps.live.loop import PerLoop
from apps.live.threads import db
from apps.tables.effects import LOBBY_TOPIC, table_topic
from apps.tables.models import Table
from apps.tables.presence import Presence
from apps.tables.services.upkeep import stamp_every, tables_watched
from apps.tables.snapshot import frame_in, table_envelope, unpack

log = logging.getLogger(__name__)


def check_seconds() -> float:
    return float(getattr(settings, "TABLE_ROOM_CHECK_SECONDS", 1.0))


class Listener(Protocol):
    """What the lobby needs of a socket."""

    async def send_text(self, text: str) -> None: ...


class LobbyListener(Listener, Protocol):
    """A lobby socket: it is handed the lobby's published frames (and may hold them back a moment)."""

    async def take_lobby(self, text: str) -> None: ...


class Viewer(Listener, Protocol):
    """What a room needs of a socket."""

    user_id: int | None
    sent: int
    wants_presence: bool


class Room:
    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.version = -1
        self.published: dict[str, Any] = {"seats": {}, "frames": {}}
        self.viewers: set[Viewer] = set()
        self.loading: asyncio.Future[None] | None = None
        self.presence: Presence | None = None  # made by Rooms.join, in the server loop
        self.listener: Callable[[str], None] | None = None  # its table's topic on the bus, while it has viewers

    def accept(self, text: str) -> bool:
        """Take a published change if it is newer than what the room holds."""
        published = unpack(text)
        if published["v"] <= self.version:
            return False
        self.version = int(published["v"])
        self.published = published
        return True

    def frame_for(self, user_id: int | None) -> str:
        return frame_in(self.published, user_id)

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        seat = self.published["seats"].get(str(user_id))
        return None if seat is None else int(seat)

    async def offer(self, viewer: Viewer, *, force: bool = False) -> None:
        """Send the viewer this room's frame if it has not had it (or again, with `force`)."""
        if self.version < 0 or (self.version <= viewer.sent and not force):
            return
        viewer.sent = self.version
        await viewer.send_text(self.frame_for(viewer.user_id))

    async def push(self) -> None:
        for viewer in list(self.viewers):
            await self.offer(viewer)

    async def tell_presence(self, text: str) -> None:
        """Send the presence frame (apps/tables/presence.py) to every socket of the room that asked for it."""
        for viewer in list(self.viewers):
            if viewer.wants_presence:
                await viewer.send_text(text)

    def presence_frame(self) -> str | None:
        """The presence frame for a socket that just opened (None while the room still asks the others)."""
        if self.presence is None or self.presence.settling:
            return None
        return self.presence.frame()


class Lobby:
    """The lobby sockets of one server loop: each published lobby frame is sent to all of them as it is."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.viewers: set[LobbyListener] = set()

    def join(self, viewer: LobbyListener) -> None:
        if not self.viewers:
            bus().listen(LOBBY_TOPIC, self.take)
        self.viewers.add(viewer)

    def leave(self, viewer: LobbyListener) -> None:
        self.viewers.discard(viewer)
        if not self.viewers:
            bus().unlisten(LOBBY_TOPIC, self.take)

    def take(self, text: str) -> None:
        self.rooms.spawn(self.push(text))

    async def push(self, text: str) -> None:
        for viewer in list(self.viewers):
            await viewer.take_lobby(text)


class Rooms:
    """The rooms of one server loop."""

    def __init__(self) -> None:
        self.rooms: dict[int, Room] = {}
        self.lobby = Lobby(self)
        self.wake = asyncio.Event()
        self._pushing: set[asyncio.Task[None]] = set()
        self.stamped_at = float("-inf")

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._pushing.add(task)
        task.add_done_callback(self._pushing.discard)

    def join(self, table_id: int, viewer: Viewer) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            room = self.rooms[table_id] = Room(table_id)
            bus().listen(table_topic(table_id), self._listener(room))
            # A change published before the subscription reached Redis is lost: check once it has.
            bus().after_subscribing(table_topic(table_id), self.wake.set)
            made = room  # the closure keeps this room, not whichever has the id later
            room.presence = Presence(table_id, lambda: made.published["seats"], lambda text: self.spawn(made.tell_presence(text)))
            room.presence.start()
        room.viewers.add(viewer)
        assert room.presence is not None
        room.presence.opened(viewer.user_id)
        return room

    def leave(self, room: Room, viewer: Viewer) -> None:
        if viewer in room.viewers and room.presence is not None:
            room.presence.closed(viewer.user_id)
        room.viewers.discard(viewer)
        if not room.viewers and self.rooms.get(room.table_id) is room:
            del self.rooms[room.table_id]
            if room.listener is not None:
                bus().unlisten(table_topic(room.table_id), room.listener)
            if room.presence is not None:
                room.presence.stop()

    def _listener(self, room: Room) -> Callable[[str], None]:
        def listener(text: str) -> None:
            self.take(room, text)

        room.listener = listener
        return listener

    def take(self, room: Room, text: str) -> None:
        if room.accept(text):
            self.spawn(room.push())
            if room.presence is not None:
                room.presence.update()  # someone sat down or stood up

    async def bring_up_to(self, room: Room, version: int) -> None:
        """Make sure the room holds at least `version` (one read of the database for all the sockets that
        ask at once)."""
        while room.version < version:
            if room.loading is not None:
                await asyncio.shield(room.loading)
                continue
            room.loading = asyncio.get_running_loop().create_future()
            try:
                text = await db(table_envelope)(room.table_id)
                if text is not None:
                    self.take(room, text)
                if text is None or room.version < version:
                    return  # gone, or read from a replica that lags: the check catches up
            finally:
                room.loading.set_result(None)
                room.loading = None

    async def check(self) -> None:
        """Bring every room that is behind the database up to date."""
        if not self.rooms:
            return
        now = asyncio.get_running_loop().time()
        if now - self.stamped_at >= stamp_every().total_seconds():
            self.stamped_at = now
            await db(tables_watched)(list(self.rooms))
        versions = await db(_versions)(list(self.rooms))
        for table_id, version in versions.items():
            room = self.rooms.get(table_id)
            if room is not None and version > room.version:
                await self.bring_up_to(room, version)

    async def check_forever(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self.wake.wait(), check_seconds())
            except TimeoutError:
                pass
            self.wake.clear()
            try:
                await self.check()
            except Exception as error:  # the database is away for a moment: the next check retries
                log.warning("Checking the tables' versions failed: %s: %s", type(error).__name__, error)

    def gap(self) -> None:
        self.wake.set()
        for room in list(self.rooms.values()):
            if room.presence is not None:
                room.presence.gap()


def _versions(table_ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


def _new_rooms() -> Rooms:
    bus().on_gap(_gap_of_every_loop)
    return Rooms()


#: The rooms of the running server loop.
rooms = PerLoop(_new_rooms)


def _gap_of_every_loop() -> None:
    for found in rooms.every():
        found.gap()


async def keep_rooms_current() -> None:
    """The per-process check (started with the server loop by apps.live.loop)."""
    await rooms().check_forever()

