"""`/ws/tournaments/<id>/`: an arena's standings, live, for anyone (visitors too). It reads nothing but
`sync` and `ping`; it is sent a frame only when the standings change (apps/tournaments/live.py). A
signed-in entrant's socket is also told, on their own topic, each table the arena opens for them
(`{"type": "table", "table": 12}`), the moment it opens: the page goes there."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from apps.live.bus import bus
from apps.live.endpoint import Endpoint
from apps.live.guard import FrameSpec
from apps.live.threads import db
from apps.tournaments.live import Room, frame_text, rooms, seat_topic
from apps.tournaments.models import Tournament
from apps.tournaments.selectors import current_seat

NO_FIELDS = FrameSpec()


def _table_now(tournament_id: int, user_id: int) -> int | None:
    seat = current_seat(tournament_id, user_id)
    return None if seat is None else seat.arena_table.table_id


def _frame(tournament_id: int) -> str | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return None if tournament is None else frame_text(tournament)


class TournamentSocket(Endpoint):
    frames: ClassVar[dict[str, FrameSpec]] = {"sync": NO_FIELDS, "ping": NO_FIELDS}
    max_frame_bytes: ClassVar[int] = 512
    frame_rate: ClassVar[tuple[float, int] | None] = (2.0, 10)
    room: Room | None = None
    seat_listening: str | None = None
    user_id: int | None = None

    @property
    def tournament_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["tournament_id"])

    async def connect(self) -> int | None:
        exists = await db(Tournament.objects.filter(pk=self.tournament_id).exists)()
        if not exists:
            return 4404
        user = self.scope.get("user")
        self.user_id = int(user.pk) if user is not None and user.is_authenticated else None
        self._telling: set[asyncio.Task[None]] = set()
        return None

    async def opened(self) -> None:
        self.room = rooms().join(self.tournament_id, self)
        if self.user_id is not None:
            self.seat_listening = seat_topic(self.tournament_id, self.user_id)
            bus().listen(self.seat_listening, self.seated)
            await bus().until_listening([self.seat_listening])
            # A table opened between the page's render and the listen is told now (the page ignores the
            # table it already shows).
            table_id = await db(_table_now)(self.tournament_id, self.user_id)
            if table_id is not None:
                await self.send_json({"type": "table", "table": table_id})
        await self.send_current()

    async def closed(self) -> None:
        rooms().leave(self.tournament_id, self)
        if self.seat_listening is not None:
            bus().unlisten(self.seat_listening, self.seated)
            self.seat_listening = None

    def seated(self, text: str) -> None:
        """A table the arena opened for this player (in the server's loop): passed on as it came."""
        task = asyncio.ensure_future(self.send_text(text))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def send_current(self) -> None:
        assert self.room is not None
        if self.room.text is None:
            text = await db(_frame)(self.tournament_id)
            if text is None:
                return
            self.room.keep(text)
        assert self.room.text is not None
        await self.send_text(self.room.text)

    async def on_sync(self, content: dict[str, Any]) -> None:
        # A viewer that saw a gap: the newest frame from the database (and kept for the others).
        text = await db(_frame)(self.tournament_id)
        if text is not None and self.room is not None:
            self.room.keep(text)
            await self.send_text(self.room.text or text)

    async def on_ping(self, content: dict[str, Any]) -> None:
        version = self.room.version if self.room is not None else -1
        await self.send_text(f'{{"type":"pong","version":{version}}}')
