"""What a ban (or a deactivation) does at the tables, at once (SPEC 11): the user's unstarted tables
close, and every seat of theirs stands up through the ordinary way out (`table_leave`: during a match
they are out of it, placed last, as anyone who leaves). Sent by apps/accounts/signals.py after the
commit of the bar; each table in a transaction of its own."""

from __future__ import annotations

import logging
from typing import Any

from apps.accounts.models import User
from apps.tables.models import Seat, Table
from apps.tables.services.errors import TableError
from apps.tables.services.seating import table_close, table_leave

log = logging.getLogger(__name__)

#: Table.closed_reason of a table closed because its host was barred.
HOST_BARRED = "host_barred"


def user_barred_leave_tables(*, user: User) -> int:
    """Close the tables the barred user hosts that have not started; stand up from every other seat.
    Returns how many tables were changed. Safe to run again: what is done is not done twice."""
    changed = 0
    hosted = list(Table.objects.filter(host=user, status=Table.Status.OPEN).values_list("pk", flat=True))
    for table_id in hosted:
        try:
            table_close(table_id=table_id, by=user, reason=HOST_BARRED)
            changed += 1
        except TableError:  # it started or closed meanwhile: its seat is stood up below
            pass
    live = (Table.Status.OPEN, Table.Status.PLAYING, Table.Status.FINISHED)
    seated = (
        Seat.objects.filter(user=user, left_match=False, table__status__in=live)
        .values_list("table_id", flat=True)
        .distinct()
    )
    for table_id in list(seated):
        try:
            table_leave(table_id=table_id, by=user)
            changed += 1
        except TableError:
            pass
    return changed


def on_user_barred(sender: Any, user: User, **kwargs: Any) -> None:
    user_barred_leave_tables(user=user)
