"""Celery tasks of the tables: small and idempotent, a leaf that only calls services (CONVENTIONS 10, 16).
Each takes a table id, calls one service, and does nothing if what it was queued for is no longer due.
The services queue them by name (apps/tables/effects.py)."""

from __future__ import annotations

from celery import shared_task

from apps.tables import liveness, services
from apps.tables.models import Table

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


@shared_task(name="tables.first_deal", ignore_result=True)
def first_deal(table_id: int) -> bool:
    return services.table_due(table_id=table_id, action=Due.DEAL)


@shared_task(name="tables.sweep_due", ignore_result=True)
def sweep_due() -> int:
    """Every second: the turn timeouts that are due, and whatever a lost or late task left overdue, after
    giving the turn clocks back any downtime of the site (apps/tables/liveness.py)."""
    downtime = liveness.check_downtime()
    if downtime is not None:
        services.games_extend_deadlines(by=downtime)
    return services.tables_sweep_due()


@shared_task(name="tables.close_unused", ignore_result=True)
def close_unused() -> int:
    """Every minute: close the unstarted tables nobody watches, and playing tables no person is left at."""
    return services.tables_close_unused()
