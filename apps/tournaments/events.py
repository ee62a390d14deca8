"""What happens in an arena that other apps may care about, as typed events (apps/lib/events.py)."""

from __future__ import annotations

from dataclasses import dataclass

from apps.lib.events import Event


@dataclass(frozen=True, slots=True)
class TournamentStartsSoon(Event):
    """An arena starts in about five minutes (sent once per arena): `user_ids` are its entrants, `starts_at`
    the start as an ISO 8601 time, `name` the arena's name as stored (the notifications tell them)."""

    tournament_id: int
    user_ids: tuple[int, ...]
    starts_at: str
    name: str = ""
