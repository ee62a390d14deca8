"""Celery tasks of the tables: small and idempotent. Each one takes a table id, calls one service, and
does nothing if what it was queued for is no longer due (CONVENTIONS 10)."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.conf import settings

from apps.tables import liveness, services
from apps.tables.models import Table

log = logging.getLogger(__name__)

Due = Table.Due


@shared_task(name="tables.turn_timeout", ignore_result=True)
def turn_timeout(table_id: int) -> bool:
    return services.table_due(table_id=table_id, action=Due.TIMEOUT)


@shared_task(name="tables.autopilot_turn", ignore_result=True)
def autopilot_turn(table_id: int) -> bool:
    return services.table_due(table_id=table_id, action=Due.AUTOPILOT)


@shared_task(name="tables.bot_turn", ignore_result=True)
def bot_turn(table_id: int) -> bool:
    return services.table_due(table_id=table_id, action=Due.BOT)


@shared_task(name="tables.next_game", ignore_result=True)
def next_game(table_id: int) -> bool:
    return services.table_due(table_id=table_id, action=Due.NEXT_GAME)


@shared_task(name="tables.sweep_due", ignore_result=True)
def sweep_due() -> int:
    """The backstop: runs whatever a lost or late task left overdue, after giving the turn clocks back
    any downtime of the site (apps/tables/liveness.py)."""
    liveness.check_downtime()
    return services.tables_sweep_due()


TASK_FOR_DUE = {
    Due.TIMEOUT: turn_timeout,
    Due.AUTOPILOT: autopilot_turn,
    Due.BOT: bot_turn,
    Due.NEXT_GAME: next_game,
}


def enqueue_due(table_id: int, action: str, due_at: datetime) -> None:
    """Queue the task for the table's next due action at its time. A failure to queue is logged, not
    raised: the sweep runs the action a moment late instead."""
    if not getattr(settings, "TABLE_ENQUEUE_TASKS", True):
        return
    task = TASK_FOR_DUE.get(Due(action))
    if task is None:
        return
    try:
        task.apply_async((table_id,), eta=due_at)
    except Exception as error:  # the broker is away: an outage the sweep covers, not a bug
        log.warning("Could not queue %s for table %s (%s: %s); the sweep will run it", action, table_id,
                    type(error).__name__, error)
