"""What the leaderboards do when something happens elsewhere: the events they subscribe to
(apps/lib/events.py), connected once by `LeaderboardsConfig.ready()`.

- A finished rated match (apps/tables/events.py `MatchFinished`) is rated: the rating task is queued,
  by its name (tasks are a leaf nothing imports). Applying it twice changes nothing (the once-only ledger,
  apps/leaderboards/services.py); a message lost to a broker outage is caught up by the periodic
  `rate_pending_matches`. Tests drive the ratings themselves (TABLE_ENQUEUE_TASKS off: nothing queued on
  a table's commit).
"""

from __future__ import annotations

from django.conf import settings

from apps.lib.events import subscribe
from apps.lib.queueing import queue_task
from apps.tables.events import MatchFinished

#: The rating task's name (apps/leaderboards/tasks.py `rate_match`).
RATE_MATCH = "leaderboards.rate_match"


def match_finished(event: MatchFinished) -> None:
    """Rate the match if it was rated (an aborted or unrated one changes no rating)."""
    if event.rated and getattr(settings, "TABLE_ENQUEUE_TASKS", True):
        queue_task(RATE_MATCH, event.match_id)


def connect() -> None:
    subscribe(MatchFinished, match_finished)
