"""What the review does when something happens elsewhere: the events it subscribes to
(apps/lib/events.py), connected once by `ReviewConfig.ready()`.

- A finished game (apps/tables/events.py `GameFinished`) is queued to be reviewed once
  (apps/review/queue.py: a broker outage is logged, and the periodic `review_pending` queues what was
  lost).
"""

from __future__ import annotations

from apps.lib.events import subscribe
from apps.review.queue import review_queue
from apps.tables.events import GameFinished


def game_finished(event: GameFinished) -> None:
    review_queue(event.game_id)


def connect() -> None:
    subscribe(GameFinished, game_finished)
