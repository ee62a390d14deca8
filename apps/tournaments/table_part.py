"""The arena at a table (SPEC 16, issue 44): "a player at a table sees the arena's standing and time left".

A part of every table's socket (apps/tables/parts.py). When the socket opens it makes one indexed read
(`ArenaTable.table_id` is unique); a table no arena formed costs that read and nothing more: no listener,
no frame, nothing on the move path. At an arena's table it sends an `arena` frame:

    {"type": "arena", "name": "Hourly Tile Rummy", "url": "/tournaments/7/", "status": "running",
     "ends_at": "2026-12-07T17:00:00+00:00", "left": 1234, "over": false,
     "rank": 3, "points": 8, "streak": 2}

`left` is the seconds to the end when the frame was made (a client counts down from it, whatever its own
clock says); `over` says this table's arena match is over (the page then offers the way back to the
arena, where the player's next table is). `rank`, `points` and `streak` are there only for a player
seated at this table in the arena. A seated player's socket then listens to the tournament's topic
(apps/tournaments/live.py): each standings change makes a new frame, at most one a second per socket.
A spectator gets the tournament-wide part once.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.lib.script_words import plural_forms
from apps.live.bus import bus
from apps.live.compact import dumps
from apps.live.guard import FrameSpec
from apps.live.threads import db
from apps.tables.parts import SocketPart
from apps.tournaments.live import topic
from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, Tournament
from apps.tournaments.selectors import standing_of

#: A socket's arena frames are at least this far apart (standings may change many times a second).
ARENA_FRAME_SECONDS = 1.0


@dataclass(frozen=True)
class ArenaAt:
    """The arena of a table, as the part keeps it between frames."""

    arena_table_id: int
    tournament_id: int
    seated: bool


def arena_at(table_id: int, user_id: int | None, language: str) -> tuple[ArenaAt, dict[str, Any]] | None:
    """The arena of this table and its first frame (None: a plain table, after one indexed read)."""
    arena_table = ArenaTable.objects.filter(table_id=table_id).select_related("tournament").first()
    if arena_table is None:
        return None
    seated = user_id is not None and ArenaSeat.objects.filter(arena_table=arena_table, user_id=user_id).exists()
    at = ArenaAt(arena_table.pk, arena_table.tournament_id, seated)
    over = arena_table.finished_at is not None
    return at, _frame(arena_table.tournament, over, user_id if seated else None, language)


def arena_frame(at: ArenaAt, user_id: int | None, language: str) -> dict[str, Any] | None:
    """A new frame after a standings change (None: the arena is gone)."""
    tournament = Tournament.objects.filter(pk=at.tournament_id).first()
    if tournament is None:
        return None
    over = ArenaTable.objects.filter(pk=at.arena_table_id, finished_at__isnull=False).exists()
    return _frame(tournament, over, user_id if at.seated else None, language)


def _frame(tournament: Tournament, over: bool, user_id: int | None, language: str) -> dict[str, Any]:
    ends_at = tournament.ends_at
    with translation.override(language):
        name = translation.gettext(
            tournament.name
        )  # the calendar's names are translated (calendar.NAMES), as on the pages
    frame: dict[str, Any] = {
        "type": "arena",
        "name": name,
        "url": reverse("tournaments:detail", args=[tournament.pk]),
        "status": tournament.status,
        "ends_at": ends_at.isoformat(),
        "left": max(0, int((ends_at - timezone.now()).total_seconds())),
        "over": over or tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED),
    }
    if user_id is not None:
        standing = standing_of(tournament.pk, user_id)  # two indexed statements, however many entrants
        if standing is not None:
            frame.update(standing)
        else:
            entry = Entry.objects.filter(tournament=tournament, user_id=user_id).values("points", "streak").first()
            if entry is not None:  # removed by a moderator: no place in the standings
                frame.update(entry, rank=None)
    return frame


class ArenaPart(SocketPart):
    frames: ClassVar[dict[str, FrameSpec]] = {}
    at: ArenaAt | None = None
    listening: str | None = None

    def __init__(self, socket: Any) -> None:
        super().__init__(socket)
        self._due = False  # a change was heard and its frame is not sent yet
        self._task: asyncio.Task[None] | None = None
        self._last = 0.0

    async def opened(self) -> None:
        found = await db(arena_at)(self.socket.table_id, self.socket.user_id, self.socket.language)
        if found is None:
            return
        self.at, frame = found
        if self.at.seated:
            self.listening = topic(self.at.tournament_id)
            bus().listen(self.listening, self.heard)
        self._last = time.monotonic()
        await self.socket.send_text(dumps(frame))

    async def closed(self) -> None:
        if self.listening is not None:
            bus().unlisten(self.listening, self.heard)
            self.listening = None
        if self._task is not None:
            self._task.cancel()

    def heard(self, text: str) -> None:
        """A standings change (in the server loop): one frame soon, however many changes come."""
        self._due = True
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._send_due())

    async def _send_due(self) -> None:
        while self._due and self.listening is not None and self.at is not None:
            wait = self._last + ARENA_FRAME_SECONDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._due = False
            self._last = time.monotonic()
            frame = await db(arena_frame)(self.at, self.socket.user_id, self.socket.language)
            if frame is not None and self.listening is not None:
                await self.socket.send_text(dumps(frame))


def arena_strings() -> dict[str, object]:
    """The words of the arena strip on a table's page (static/js/table-arena.js)."""
    return {
        "arena_label": _("Arena"),
        "arena_rank": _("rank %(rank)s"),
        "arena_points_forms": plural_forms("%(count)s point", "%(count)s points"),
        "arena_ends_in": _("ends in %(time)s"),
        "arena_ended": _("the arena is over"),
        "arena_back": _("Back to the arena"),
        "arena_streak": _("on a streak: first places count double"),
    }
