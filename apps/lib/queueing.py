"""Queueing a Celery task by name, the one way every app does it after a commit.

By name, because tasks are a leaf of their app that nothing imports (CONVENTIONS 10 and 16); an app
queues only its own tasks (the tables their due actions, the leaderboards a rating, the review a game's
review). A broker outage is logged in one line and not raised: the caller's transaction has committed
already, and each app's periodic sweep runs what was not queued a moment late.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app

log = logging.getLogger(__name__)


def queue_task(task_name: str, *args: Any, eta: Any = None) -> bool:
    """Send `task_name(*args)` to the broker (at `eta`, if given). Returns whether it was sent."""
    try:
        current_app.send_task(task_name, args=args, eta=eta)
    except Exception as error:  # the broker is away: an outage the sweeps cover, not a bug
        log.warning("Could not queue %s%r (%s: %s); the sweep will run it", task_name, args, type(error).__name__, error)
        return False
    return True
