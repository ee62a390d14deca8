"""Where a table service's consequences leave the transaction (CONVENTIONS 7 and 16): one room.

A service that changed a table calls `after_commit(...)` once, inside its transaction. When (and only
if) the transaction commits:

- the table's new version is published once to every web process (apps/live/bus.py), each viewer's
  frame already encoded (apps/tables/snapshot.py), and the lobby entry if the lobby shows a change;
- the table's next due action is queued by task name when it is a short one (a bot's move, an
  autopilot turn, the next deal); turn timeouts are run by the periodic sweep, which looks at the
  due index every second, so a move queues nothing at all on a table of people;
- a finished rated match is handed to the leaderboards by task name (they keep their own once-only
  ledger);
- a finished game is handed to the review (apps/review) by task name, to be reviewed once;
- a bot account whose invitation to the table changed (made, withdrawn, the table closed) is told on its
  own topic (its lobby socket passes it on: SPEC 14).

Nothing here imports a task module: tasks are named, so the arrows run one way (tasks call services,
services never import tasks).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

from apps.lib import metrics
from apps.live.bus import bus
from apps.tables.models import Game, Match, Table
from apps.tables.snapshot import dumps, envelope, invitation_of, lobby_entry, table_envelope

log = logging.getLogger(__name__)

LOBBY_TOPIC = "lobby"

#: Due actions queued as a Celery task at their time; the others (turn timeouts) wait for the sweep.
QUEUED_DUE = {
    Table.Due.BOT: "tables.bot_turn",
    Table.Due.AUTOPILOT: "tables.autopilot_turn",
    Table.Due.NEXT_GAME: "tables.next_game",
    Table.Due.DEAL: "tables.first_deal",
}


def table_topic(table_id: int) -> str:
    return f"table:{table_id}"


def invitations_topic(user_id: int) -> str:
    """Where a bot account's lobby sockets hear of its invitations."""
    return f"invitations:{user_id}"


def after_commit(
    table: Table,
    *,
    lobby: bool = True,
    game: Game | None = None,
    match: Match | None = None,
    state: Any = None,
    public: Any = None,
    rows_at_hand: bool = False,
    rated_match_finished: int | None = None,
    invitations: Sequence[int] = (),
    game_finished: int | None = None,
) -> None:
    """Register what the committed change sets off. With `rows_at_hand` the published frames are built
    from the rows given (exactly what was committed: the table, its current game and match, and the
    engine state, with its spectators' view if built); otherwise they are read back after the commit."""
    due_action, due_at = table.due_action, table.due_at
    queue = bool(
        due_action in QUEUED_DUE
        and due_at is not None
        and (due_action, due_at) != getattr(table, "_due_when_locked", None)
    )
    table_id = table.pk

    def run() -> None:
        text = None
        if rows_at_hand:
            try:
                text = envelope(table, game, match, state, public)
            except Exception:  # never break the caller after its commit: read it back instead
                log.exception("Could not build the frames of table %s v%s from memory", table_id, table.version)
        if text is None:
            text = table_envelope(table_id)
        if text is not None:
            bus().publish(table_topic(table_id), text)
            metrics.table_broadcast(table_id, table.version)
        if lobby:
            publish_lobby(table_id)
        if queue:
            enqueue(QUEUED_DUE[due_action], table_id, eta=due_at)
        if rated_match_finished is not None:
            enqueue("leaderboards.rate_match", rated_match_finished)
        for user_id in invitations:
            publish_invitation(table_id, user_id)
        if game_finished is not None:
            enqueue("review.review_game", game_finished)

    transaction.on_commit(run)


def publish_lobby(table_id: int) -> None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.private or table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
        entry = None
    else:
        entry = lobby_entry(table)
    bus().publish(LOBBY_TOPIC, dumps({"type": "table", "id": table_id, "entry": entry}))  # the lobby's frame


def publish_invitation(table_id: int, user_id: int) -> None:
    """Tell the bot account where its invitation to the table stands: the invitation, or null once it is
    gone (accepted, declined, withdrawn, the table closed)."""
    entry = invitation_of(table_id, user_id)
    bus().publish(invitations_topic(user_id), dumps({"type": "invitation", "table": table_id, "invitation": entry}))


def enqueue(task_name: str, *args: Any, eta: Any = None) -> None:
    """Queue a task by name. A failure to queue is logged, not raised: the sweeps run what is due a
    moment late instead."""
    if not getattr(settings, "TABLE_ENQUEUE_TASKS", True):
        return
    try:
        current_app.send_task(task_name, args=args, eta=eta)
    except Exception as error:  # the broker is away: an outage the sweep covers, not a bug
        log.warning("Could not queue %s%r (%s: %s); the sweep will run it", task_name, args, type(error).__name__, error)
