"""Who is at the table now (SPEC 13: each seat shows within 5 seconds whether its player is there).

A web process knows its own sockets (apps/tables/rooms.py); the bus tells it of the others'. On the
table's presence topic each room (of each server loop: `Presence.token`) says:

    {"p": token, "u": user id, "here": true|false}   a user's first socket here opened, or the last closed
    {"p": token, "ask": true}                        a room is new: who is where?
    {"p": token, "all": [user ids]}                  the answer (and after a gap of the bus)

so every room holds, per user, the processes where that user has a socket. A seated player with none is
away; the room's sockets are sent `{"type": "presence", "away": [seat, ...]}` when that list changes (and
once when a socket opens). A closed last socket is announced after GRACE seconds, so a reload (the page
closes its socket and opens another at once) shows nothing; the frame's whole delay is that grace plus one
publish, well inside the 5 seconds. Frames carry seat numbers only.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.conf import settings

from apps.live.bus import bus
from apps.live.compact import dumps

#: How long a new room waits for the other processes' answers before it tells anyone who is away.
SETTLE_SECONDS = 0.4


def grace_seconds() -> float:
    return float(getattr(settings, "TABLE_PRESENCE_GRACE_SECONDS", 2.0))


def presence_topic(table_id: int) -> str:
    return f"presence:{table_id}"


class Presence:
    """The presence of one table in one server loop. `seats()` gives the table's seated users (user id ->
    seat) as last published; `changed(text)` is called with a new presence frame to send to every socket."""

    def __init__(self, table_id: int, seats: Callable[[], dict[str, Any]], changed: Callable[[str], None]) -> None:
        self.table_id = table_id
        # One token per room's life, not per process: a room gone and made again is another speaker, so
        # the old one's late "gone" never cancels the new one's "here".
        self.token = uuid.uuid4().hex
        self.seats = seats
        self.changed = changed
        self.local: Counter[int] = Counter()  # user id -> sockets in this loop
        self.remote: dict[str, set[int]] = {}  # other loop's token -> its users
        self.leaving: dict[int, asyncio.TimerHandle] = {}
        self.sent: str | None = None
        self.topic = presence_topic(table_id)
        self.settling = False  # a new room waits a moment for the others' answers before it says "away"

    # -- this loop's sockets ---------------------------------------------------------------------------

    def start(self) -> None:
        bus().listen(self.topic, self.heard)
        self.settling = True
        asyncio.get_running_loop().call_later(SETTLE_SECONDS, self.settled)
        self.publish({"p": self.token, "ask": True})

    def settled(self) -> None:
        if self.settling:
            self.settling = False
            self.sent = None
            self.update()

    def stop(self) -> None:
        """The room has no socket left here: stop listening (a leaving in its grace is still announced)."""
        bus().unlisten(self.topic, self.heard)

    def opened(self, user_id: int | None) -> None:
        if user_id is None:
            return
        self.local[user_id] += 1
        pending = self.leaving.pop(user_id, None)
        if pending is not None:
            pending.cancel()  # back within the grace: nobody was told of the leaving
        elif self.local[user_id] == 1:
            self.publish({"p": self.token, "u": user_id, "here": True})
        self.update()

    def closed(self, user_id: int | None) -> None:
        if user_id is None or self.local[user_id] <= 0:
            return
        self.local[user_id] -= 1
        if self.local[user_id] == 0 and user_id not in self.leaving:
            self.leaving[user_id] = asyncio.get_running_loop().call_later(grace_seconds(), self._left, user_id)

    def _left(self, user_id: int) -> None:
        self.leaving.pop(user_id, None)
        if self.local[user_id] > 0:
            return
        self.local.pop(user_id, None)
        self.publish({"p": self.token, "u": user_id, "here": False})
        self.update()

    def gap(self) -> None:
        """The bus was away: what the others said meanwhile is lost, so ask again."""
        self.publish({"p": self.token, "ask": True})
        self.publish({"p": self.token, "all": self.here_locally()})

    # -- the others -------------------------------------------------------------------------------------

    def heard(self, text: str) -> None:
        said = json.loads(text)
        token = said.get("p")
        if token == self.token:
            return
        if said.get("ask"):
            self.publish({"p": self.token, "all": self.here_locally()})
            return
        if "all" in said:
            self.remote[token] = {int(user) for user in said["all"]}
            if not self.remote[token]:
                del self.remote[token]
        elif "u" in said:
            users = self.remote.setdefault(token, set())
            (users.add if said.get("here") else users.discard)(int(said["u"]))
            if not users:
                del self.remote[token]
        self.update()

    # -- what the sockets are told ---------------------------------------------------------------------

    def here_locally(self) -> list[int]:
        # A user in the grace still counts: they are announced gone when it ends.
        return sorted({user for user, count in self.local.items() if count > 0} | set(self.leaving))

    def is_here(self, user_id: int) -> bool:
        if self.local.get(user_id, 0) > 0 or user_id in self.leaving:
            return True
        return any(user_id in users for users in self.remote.values())

    def frame(self) -> str:
        away = sorted(int(seat) for user, seat in self.seats().items() if not self.is_here(int(user)))
        return dumps({"type": "presence", "away": away})

    def update(self) -> None:
        """Tell the sockets if the list of away seats changed."""
        if self.settling:
            return
        text = self.frame()
        if text != self.sent:
            self.sent = text
            self.changed(text)

    def publish(self, said: dict[str, Any]) -> None:
        bus().publish(self.topic, dumps(said))
