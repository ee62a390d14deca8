"""What happens at a table that other apps may care about, as typed events (apps/lib/events.py).

The table services collect these while they change a table and hand them, with the table, to
`apps.tables.effects.after_commit` once; after the commit the table's own frames go out and then each
event reaches the subscribers other apps registered in their `AppConfig.ready()` (the leaderboards rate a
finished rated match, the review reviews a finished game: docs/architecture.md, "Events"). The tables
app names none of its listeners: a new one (a tournament, quick pairing, a friend's notification) is one
subscriber in its own app.

Events carry ids and what the service knew anyway (no query is made to fill one); a listener reads
anything more after the commit, through `apps/tables/selectors.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.lib.events import Event


@dataclass(frozen=True, slots=True)
class Placing:
    """How one seat ended a match: `place` and `points` are None in an aborted match (nobody is
    placed); `user_id` is None for a site bot's seat."""

    seat: int
    user_id: int | None
    place: int | None = None
    points: int | None = None
    left: bool = False


@dataclass(frozen=True, slots=True)
class MatchFinished(Event):
    """A match is over: played out (its places decided), or aborted (SPEC 11: `aborted` is the code of
    apps/tables/rated.py, and an aborted match is never rated). `rated` is whether its ratings are to be
    applied; `places` has every seat of the match, in seat order."""

    match_id: int
    table_id: int
    game: str
    rated: bool
    places: tuple[Placing, ...]
    aborted: str = ""


@dataclass(frozen=True, slots=True)
class GameFinished(Event):
    """A game of a match is over (its result saved); the next one may follow, or the match ends with it."""

    game_id: int
    match_id: int
    table_id: int


@dataclass(frozen=True, slots=True)
class SeatChanged(Event):
    """Someone sat down at the table (`seated`), or stood up from it: before or after a match the seat is
    free again; during one they are out of the match. `user_id` is None for a site bot's seat."""

    table_id: int
    seat: int
    user_id: int | None
    seated: bool


@dataclass(frozen=True, slots=True)
class InvitationChanged(Event):
    """The invitation of the bot account `user_id` to the table changed: made, accepted, declined,
    withdrawn, or gone with the closed table (the effects tell the bot account's own topic: SPEC 14)."""

    table_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table closed (`reason`: Table.closed_reason). A match still in progress there was abandoned,
    unrated; no MatchFinished is sent for it."""

    table_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class TableOpened(Event):
    """`host_id` opened the table (its friends may hear of it: SPEC 17); `private`: only its link lets
    anyone in."""

    table_id: int
    host_id: int
    private: bool


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """At a no-timer table (`turn_seconds` 0) the turn passed to `user_id`, a person not on autopilot, in
    `seat` (SPEC 17: a slow table tells them). Timed tables never send it: their players are at the table."""

    table_id: int
    seat: int
    user_id: int


@dataclass(frozen=True, slots=True)
class SlowSeatAway(Event):
    """At a no-timer table `user_id` left their turn in `seat` waiting TABLE_SLOW_AWAY_SECONDS (a day):
    the autopilot played it and plays the seat until they are back (SPEC 17: the others are told).
    `others`: the other people seated and still in the match (no bot, no bot account), from the seating
    at hand."""

    table_id: int
    seat: int
    user_id: int
    others: tuple[int, ...]
