"""Standings pushed live (SPEC 16, issue 44): one frame per change, computed once, shared by every viewer.

A change to an arena's standings (a join, a pause, a table formed, a match scored) raises the
tournament's `version` and, after its commit, `publish` builds the standings frame once and publishes
it on the topic `tournament:<id>`. Each web process listens to that topic once for all its sockets of
that tournament (`Room`), keeps the last frame, and forwards the same text to each socket; a socket that
opens is sent the kept frame (no query when one is kept). With no change, nothing is sent: the viewers'
pings are answered from the kept version, without the database.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from django.db import transaction

from apps.live.bus import bus
from apps.live.compact import dumps
from apps.live.loop import PerLoop
from apps.tournaments.models import Tournament
from apps.tournaments.selectors import standings_frame

#: The version each tournament's frame was last published at by this process (a transaction that
#: bumped twice publishes once).
_published: dict[int, int] = {}


def topic(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def seat_topic(tournament_id: int, user_id: int) -> str:
    """One entrant's own topic in an arena: the arena page's socket of a signed-in entrant listens to it."""
    return f"tournament:{tournament_id}:player:{user_id}"


def tell_seated(tournament_id: int, table_id: int, user_ids: list[int]) -> None:
    """Each player of a table the arena just opened is told at once, on their own topic: the standings
    frame lists only the newest tables, and a pass that opens hundreds publishes it once, at its end."""
    text = dumps({"type": "table", "table": table_id})
    for user_id in user_ids:
        bus().publish(seat_topic(tournament_id, user_id), text)


def frame_text(tournament: Tournament) -> str:
    return dumps(standings_frame(tournament))


def publish(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or _published.get(tournament_id) == tournament.version:
        return
    _published[tournament_id] = tournament.version
    bus().publish(topic(tournament_id), frame_text(tournament))


def publish_on_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: publish(tournament_id))


class Viewer(Protocol):
    async def send_text(self, text: str) -> None: ...


class Room:
    """The sockets of one tournament in one server loop, and the last frame heard."""

    def __init__(self, tournament_id: int, on_empty: Callable[[int], None]) -> None:
        self.tournament_id = tournament_id
        self.viewers: set[Any] = set()
        self.text: str | None = None
        self.version = -1
        self.on_empty = on_empty
        self._tasks: set[asyncio.Task[None]] = set()

    def take(self, text: str) -> None:
        """A frame from the bus (in the server loop): keep it, and send it to every viewer."""
        version = version_of(text)
        if version < self.version:
            return  # an older frame overtaken by a newer one
        self.text, self.version = text, version
        task = asyncio.ensure_future(self._push(text))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _push(self, text: str) -> None:
        for viewer in list(self.viewers):
            await viewer.send_text(text)

    def keep(self, text: str) -> None:
        version = version_of(text)
        if version >= self.version:
            self.text, self.version = text, version


def version_of(text: str) -> int:
    """The standings version a frame's text carries (-1: none), without parsing the whole frame."""
    head = text.find('"version":')
    if head < 0:
        return -1
    digits = ""
    for char in text[head + 10 :]:
        if char.isdigit():
            digits += char
        elif digits:
            break
    return int(digits or -1)


class Rooms:
    """This server loop's tournament rooms: one bus listener per tournament watched here."""

    def __init__(self) -> None:
        self.rooms: dict[int, Room] = {}

    def join(self, tournament_id: int, viewer: Any) -> Room:
        room = self.rooms.get(tournament_id)
        if room is None:
            room = self.rooms[tournament_id] = Room(tournament_id, self._drop)
            bus().listen(topic(tournament_id), room.take)
        room.viewers.add(viewer)
        return room

    def leave(self, tournament_id: int, viewer: Any) -> None:
        room = self.rooms.get(tournament_id)
        if room is None:
            return
        room.viewers.discard(viewer)
        if not room.viewers:
            self._drop(tournament_id)

    def _drop(self, tournament_id: int) -> None:
        room = self.rooms.pop(tournament_id, None)
        if room is not None:
            bus().unlisten(topic(tournament_id), room.take)


#: This server loop's tournament rooms.
rooms = PerLoop(Rooms)
