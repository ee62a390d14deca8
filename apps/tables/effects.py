"""Where a table service's consequences leave the transaction (CONVENTIONS 7, 16 and 26): one room.

A service that changed a table calls `after_commit(table, ...)` once, inside its transaction, with the
events it collected (apps/tables/events.py). When (and only if) the transaction commits:

- the table's new version is published once to every web process (apps/live/bus.py), each viewer's
  frame already encoded (apps/tables/snapshot.py): built from the committed rows the service hands over
  (`Frames`), or read back; and the lobby entry if the lobby shows a change;
- the table's next due action is queued by task name when it is a short one (a bot's move, an
  autopilot turn, the next deal); turn timeouts are run by the periodic sweep, which looks at the
  due index every second, so a move queues nothing at all on a table of people;
- a bot account whose invitation to the table changed (made, withdrawn, the table closed) is told on its
  own topic (its lobby socket passes it on: SPEC 14);
- then the events go to whoever subscribed to them (apps/lib/events.py): the leaderboards rate a
  finished rated match, the review reviews a finished game, each in its own app.

This module queues only the tables' own tasks, by name (tasks are a leaf: services never import them),
and names no other app: what other apps do after a table changed is theirs to subscribe to.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from apps.lib import metrics
from apps.lib.events import Event, deliver
from apps.lib.queueing import queue_task
from apps.live.bus import bus
from apps.live.compact import dumps
from apps.tables.events import InvitationChanged
from apps.tables.models import Game, Match, Table
from apps.tables.snapshot import envelope, invitation_of, lobby_entry, table_envelope

log = logging.getLogger(__name__)

LOBBY_TOPIC = "lobby"

#: Due actions queued as a Celery task at their time; the others (turn timeouts) wait for the sweep.
QUEUED_DUE: dict[str, str] = {
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


@dataclass(frozen=True, slots=True)
class Frames:
    """What the service just committed, from which the published frames are built without reading the
    rows back: the table's current game and match, the engine state, and its spectators' view if the
    service built it (a move does)."""

    game: Game | None
    match: Match | None
    state: Any
    public: Any = None


def after_commit(
    table: Table, *, lobby: bool = True, frames: Frames | None = None, events: Sequence[Event] = ()
) -> None:
    """Register what the committed change sets off: the table's frames (built from `frames` if given,
    else read back after the commit), the lobby's entry if `lobby`, the table's next due task, the
    invited bot accounts' frames, then `events` to their subscribers."""
    due_action, due_at = table.due_action, table.due_at
    queue = bool(
        due_action in QUEUED_DUE
        and due_at is not None
        and (due_action, due_at) != getattr(table, "_due_when_locked", None)
    )
    table_id = table.pk
    events = tuple(events)  # as they are now: a caller's list may change after

    def run() -> None:
        text = None
        if frames is not None:
            try:
                text = envelope(table, frames.game, frames.match, frames.state, frames.public)
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
        for event in events:
            if isinstance(event, InvitationChanged):
                publish_invitation(event.table_id, event.user_id)
        deliver(events)

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
    """Queue one of the tables' own tasks by name (tests drive them themselves: TABLE_ENQUEUE_TASKS off).
    A failure to queue is logged, not raised: the sweep runs what is due a moment late instead."""
    if getattr(settings, "TABLE_ENQUEUE_TASKS", True):
        queue_task(task_name, *args, eta=eta)
