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

After a change, the sockets of one process share one read of the arena (`Shared`: the tournament, every
entrant's place, the tables still playing), made once per standings version: an arena of 1,000 seated
players read it 932 times per change before, one statement and about 2 ms each, which doubled an arena
move's CPU beside a plain table's (bench/README.md, "An arena of 1,000 on the socket protocol").
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
from apps.live.loop import PerLoop
from apps.live.threads import db
from apps.tables.parts import SocketPart
from apps.tournaments.live import topic, version_of
from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, Tournament
from apps.tournaments.selectors import standing_of, standings_queryset

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


@dataclass(frozen=True)
class Shared:
    """One read of an arena after a change, shared by the process's sockets at its tables."""

    version: int
    tournament: Tournament
    places: dict[int, dict[str, Any]]  # user id -> points, streak, rank (the standings' place)
    playing: frozenset[int]  # the arena tables not finished


def shared_read(tournament_id: int) -> Shared | None:
    """Three statements however many entrants (None: the arena is gone)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    rows = standings_queryset(tournament_id).values_list("user_id", "points", "streak")
    places = {user_id: {"points": points, "streak": streak, "rank": rank} for rank, (user_id, points, streak) in enumerate(rows, start=1)}
    playing = ArenaTable.objects.filter(tournament_id=tournament_id, finished_at__isnull=True).values_list("pk", flat=True)
    return Shared(tournament.version, tournament, places, frozenset(playing))


class SharedReads:
    """This server loop's reads of each arena its seated sockets listen to: one read per version, however
    many sockets ask, and forgotten with the last socket of that arena."""

    def __init__(self) -> None:
        self.kept: dict[int, Shared] = {}
        self.reading: dict[int, asyncio.Future[Shared | None]] = {}
        self.listeners: dict[int, int] = {}

    def join(self, tournament_id: int) -> None:
        self.listeners[tournament_id] = self.listeners.get(tournament_id, 0) + 1

    def leave(self, tournament_id: int) -> None:
        left = self.listeners.get(tournament_id, 0) - 1
        if left > 0:
            self.listeners[tournament_id] = left
            return
        self.listeners.pop(tournament_id, None)
        self.kept.pop(tournament_id, None)

    async def at_least(self, tournament_id: int, version: int) -> Shared | None:
        """The arena as of `version` or newer (read now if what is kept is older)."""
        while True:
            kept = self.kept.get(tournament_id)
            if kept is not None and kept.version >= version:
                return kept
            reading = self.reading.get(tournament_id)
            if reading is None:
                reading = self.reading[tournament_id] = asyncio.ensure_future(db(shared_read)(tournament_id))
                try:
                    shared = await asyncio.shield(reading)
                finally:
                    self.reading.pop(tournament_id, None)
                if shared is None:
                    self.kept.pop(tournament_id, None)
                    return None
                if tournament_id in self.listeners:
                    self.kept[tournament_id] = shared
                return shared  # read after the change was heard: as new as it, or newer
            shared = await asyncio.shield(reading)
            if shared is None or shared.version >= version:
                return shared
            # that read began before this change: read again


#: This server loop's shared reads (a future of one loop is never awaited in another).
shared_reads = PerLoop(SharedReads)


def frame_from(shared: Shared, at: ArenaAt, user_id: int | None, language: str) -> dict[str, Any]:
    """A seated socket's new frame from the shared read: no statement, but for a player not in the
    standings (removed by a moderator), whose points are read alone."""
    over = at.arena_table_id not in shared.playing
    if not at.seated or user_id is None:
        return _frame(shared.tournament, over, None, language)
    place = shared.places.get(user_id)
    return _frame(shared.tournament, over, user_id, language, standing=place)


def _frame(
    tournament: Tournament, over: bool, user_id: int | None, language: str, standing: dict[str, Any] | None = None
) -> dict[str, Any]:
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
        if standing is None:
            standing = standing_of(tournament.pk, user_id)  # one statement, however many entrants
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
        self._version = -1  # the newest standings version heard

    async def opened(self) -> None:
        found = await db(arena_at)(self.socket.table_id, self.socket.user_id, self.socket.language)
        if found is None:
            return
        self.at, frame = found
        if self.at.seated:
            self.listening = topic(self.at.tournament_id)
            shared_reads().join(self.at.tournament_id)
            bus().listen(self.listening, self.heard)
        self._last = time.monotonic()
        await self.socket.send_text(dumps(frame))

    async def closed(self) -> None:
        if self.listening is not None:
            bus().unlisten(self.listening, self.heard)
            self.listening = None
            if self.at is not None:
                shared_reads().leave(self.at.tournament_id)
        if self._task is not None:
            self._task.cancel()

    def heard(self, text: str) -> None:
        """A standings change (in the server loop): one frame soon, however many changes come."""
        self._version = max(self._version, version_of(text))
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
            shared = await shared_reads().at_least(self.at.tournament_id, self._version)
            if shared is None:
                return  # the arena is gone
            if self.at.seated and self.socket.user_id is not None and self.socket.user_id not in shared.places:
                frame = await db(frame_from)(shared, self.at, self.socket.user_id, self.socket.language)
            else:
                frame = frame_from(shared, self.at, self.socket.user_id, self.socket.language)
            if self.listening is not None:
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
        "arena_berserk": _("Berserk"),
        "arena_berserk_hint": _("Before the first move: a first place with at least 7 turns of your own earns +1"),
    }
