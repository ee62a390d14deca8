"""What the arenas do when something happens elsewhere (connected once by `TournamentsConfig.ready()`):

- a finished match (apps/tables/events.py `MatchFinished`) at an arena's table is scored, once (the
  ledger `ScoredMatch`); a lost event is caught up by the periodic tick (`services._catch_up`);
- a voided match (apps/leaderboards/voiding.py `MatchVoided`) loses its tournament points.
"""

from __future__ import annotations

from apps.leaderboards.voiding import MatchVoided
from apps.lib.events import subscribe
from apps.tables.events import MatchFinished
from apps.tournaments import services


def match_finished(event: MatchFinished) -> None:
    finishes = [
        services.Finish(placing.user_id, None if event.aborted else placing.place, placing.left)
        for placing in event.places
        if placing.user_id is not None
    ]
    services.arena_match_finished(table_id=event.table_id, match_id=event.match_id, finishes=finishes)


def match_voided(event: MatchVoided) -> None:
    services.arena_match_voided(match_id=event.match_id)


def connect() -> None:
    subscribe(MatchFinished, match_finished)
    subscribe(MatchVoided, match_voided)
