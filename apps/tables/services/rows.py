"""Locking and reading the rows every table service works on, and the checks they share."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.accounts.bans import barred_message, why_barred
from apps.accounts.models import User
from apps.bots.selectors import accounts_of_one_person, limits_key
from apps.engine.errors import EngineError, InvalidMove
from apps.engine.game import Move, Rules, get_rules
from apps.tables import rated
from apps.tables.models import Seat, Table
from apps.tables.services import sql
from apps.tables.services.errors import NotAllowed, TableNotFound
from apps.tables.snapshot import seating_of

log = logging.getLogger(__name__)

SeatInfo = dict[str, Any]


def lock(table_id: int) -> Table:
    """The table's row, locked until the transaction ends, with its match (and fair deal) and current game
    (one statement, written once per process: apps/tables/services/sql.py). Every writer of a table, its
    seats, its match or its games locks the table first, so the table's lock is the lock of them all."""
    table = sql.lock_table(table_id)
    if table is None:
        raise TableNotFound(no_such_table(table_id))
    table._due_when_locked = (table.due_action, table.due_at)  # type: ignore[attr-defined]  # a note on this instance for apps/tables/effects.py, not a field
    return table


def no_such_table(table_id: int) -> str:
    """The one refusal for a missing table, and for a private one to whoever may not see it (SPEC 11)."""
    return _("There is no table %(id)s.") % {"id": table_id}


def seats(table: Table) -> list[Seat]:
    """The seat rows with their users (and whether each is a bot account) and the bot accounts invited
    into them: the services that change seats need them; moves do not."""
    return list(
        Seat.objects.filter(table=table).select_related("user__bot_account", "invited").order_by("index")
    )


#: The table's columns `save_seating` writes.
SEATING_FIELDS = ("seating", "rated", "unrated_reasons")


def save_seating(table: Table, seat_rows: list[Seat], *, starting: bool = False) -> None:
    """Keep `Table.seating` (what moves and viewers read) in step with the seat rows just written; before
    a match, also whether it would be rated and why not (apps/tables/rated.py), which every viewer and the
    lobby are shown. Once a match has started, `rated` is the match's own (decided at its start, where
    `starting` is given)."""
    table.seating = seating_of(seat_rows)
    if table.status == Table.Status.OPEN:
        judged = rated.judge(
            [(seat.user, seat.bot_level) for seat in seat_rows if not seat.is_empty],
            turn_seconds=table.turn_seconds,
            starting=starting,
            casual=table.casual,
        )
        table.rated, table.unrated_reasons = judged.rated, list(judged.reasons)


def seat_of(table: Table, user: User | None) -> SeatInfo | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in table.seating if seat["user_id"] == user.pk), None)


def seat_row(seat_rows: list[Seat], user: User | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seat_rows if seat.user_id == user.pk), None)


def is_moderator(user: User | None) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_staff)


def check_may_act(user: User) -> None:
    """Refuse a banned or disabled user (SPEC 11): every action of a player asks this, from the user row
    already loaded (no query: a ban closes the user's sockets, so a stale row does not last)."""
    if why_barred(user) is not None:
        raise NotAllowed(barred_message(user))


def check_may_sit(user: User) -> None:
    if not user.is_authenticated:
        raise NotAllowed(_("Sign in, or play as a guest, to take a seat."))
    check_may_act(user)


#: The first key of the transaction-scoped advisory locks that make a user's seat and host counts atomic.
_USER_LIMITS_LOCK = 0x7255  # "rU"


def hold_user_limits(user: User) -> None:
    """Until the transaction ends, nobody else counts or changes `user`'s seats and unstarted tables
    through the checks below: without it two joins at two tables (each under its own table's lock), or
    two tables opened at once, both counted 4 of 5 and both sat (CONVENTIONS 25). An advisory lock, not
    the user's row, so that it never waits on a ban or a rating that holds that row; SQLite runs one
    writer at a time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # A bot account's owner's id: one person's bot accounts open tables one at a time (SPEC 14).
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_USER_LIMITS_LOCK, limits_key(user)])


def check_seat_limit(user: User) -> None:
    """A user sits at most at TABLE_SEATS_PER_USER tables that are open or playing (SPEC 11). Call it in
    the transaction that seats the user, after `hold_user_limits`."""
    limit = int(getattr(settings, "TABLE_SEATS_PER_USER", 5))
    active = (Table.Status.OPEN, Table.Status.PLAYING)
    if Seat.objects.filter(user=user, left_match=False, table__status__in=active).count() >= limit:
        raise NotAllowed(
            ngettext(
                "You already sit at %(n)s table: leave it before you sit at another.",
                "You already sit at %(n)s tables: leave one before you sit at another.",
                limit,
            )
            % {"n": limit}
        )


def check_host_limit(user: User) -> None:
    """A user hosts at most TABLE_UNSTARTED_PER_HOST tables that have not started (SPEC 11); one owner's
    bot accounts, that many together (SPEC 14). Call it in the transaction that opens the table, after
    `hold_user_limits`."""
    limit = int(getattr(settings, "TABLE_UNSTARTED_PER_HOST", 3))
    if Table.objects.filter(host_id__in=accounts_of_one_person(user), status=Table.Status.OPEN).count() >= limit:
        raise NotAllowed(
            ngettext(
                "You already host %(n)s table that has not started: start it or close it first.",
                "You already host %(n)s tables that have not started: start or close one first.",
                limit,
            )
            % {"n": limit}
        )


def bump(table: Table) -> None:
    table.version += 1


def rules_of(table: Table) -> Rules[Any]:
    return get_rules(table.game)


def parse_move(rules: Rules[Any], move: str | Mapping[str, Any]) -> Move:
    """The engine's reading of a move that came from outside. The engine promises InvalidMove for
    anything malformed; should some input slip past that promise (a ValueError from deep inside), it is
    still the player's malformed move, not a server error."""
    try:
        return rules.parse_move(move)
    except EngineError:
        raise
    except (ValueError, TypeError, LookupError, RecursionError) as error:
        log.warning("The engine raised %s instead of InvalidMove for the move %.200r", type(error).__name__, move)
        raise InvalidMove(_("%(move).80r is not a move.") % {"move": move}) from None
