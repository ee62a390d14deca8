"""`/ws/tournaments/<id>/`: an arena's standings, live, for anyone (visitors too). It reads nothing but
`sync` and `ping`; it is sent a frame only when the standings change (apps/tournaments/live.py)."""

from __future__ import annotations

from typing import Any, ClassVar

from apps.live.endpoint import Endpoint
from apps.live.guard import FrameSpec
from apps.live.threads import db
from apps.tournaments.live import Room, frame_text, rooms
from apps.tournaments.models import Tournament

NO_FIELDS = FrameSpec()


def _frame(tournament_id: int) -> str | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return None if tournament is None else frame_text(tournament)


class TournamentSocket(Endpoint):
    frames: ClassVar[dict[str, FrameSpec]] = {"sync": NO_FIELDS, "ping": NO_FIELDS}
    max_frame_bytes: ClassVar[int] = 512
    frame_rate: ClassVar[tuple[float, int] | None] = (2.0, 10)
    room: Room | None = None

    @property
    def tournament_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["tournament_id"])

    async def connect(self) -> int | None:
        exists = await db(Tournament.objects.filter(pk=self.tournament_id).exists)()
        return None if exists else 4404

    async def opened(self) -> None:
        self.room = rooms().join(self.tournament_id, self)
        await self.send_current()

    async def closed(self) -> None:
        rooms().leave(self.tournament_id, self)

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
