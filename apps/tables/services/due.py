"""What the table does by itself: a turn timeout, an autopilot turn, a bot's move, the next deal.

Whichever is next is stored on the table (`due_action` at `due_at`). Short ones (bots, autopilot, the
next deal) are queued as Celery tasks at their time; turn timeouts, and anything a lost task left
behind, are run by the periodic sweep (`tables_sweep_due`). `table_due` runs only what is due, so a
late or repeated call is harmless.

A bot thinks outside the table's lock (CONVENTIONS 19): its move is computed from the view of the
version it saw, then applied under the lock only if the table is still at that version.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.engine.bots import get_bot
from apps.engine.errors import EngineError
from apps.engine.game import Move, Rules
from apps.engine.match import Match as EngineMatch
from apps.tables import effects, liveness
from apps.tables.events import SlowSeatAway
from apps.tables.models import FairDeal, Game, MoveLog, Table
from apps.tables.services.errors import NotAllowed
from apps.tables.services.flow import Due, deal_first_game, deal_next_game, dealer, turn_passed
from apps.tables.services.play import apply_and_save
from apps.tables.services.rows import bump, lock, rules_of, seat_of

log = logging.getLogger(__name__)

Actor = MoveLog.Actor

#: How early a due action may run (a task's ETA fires a little before its time).
EARLY = timedelta(milliseconds=50)
#: A bot that was overtaken while thinking (the table changed meanwhile) thinks again, this many times.
BOT_ATTEMPTS = 3


def _is_due(table: Table, action: str | None, now: datetime) -> bool:
    if not table.due_action or table.due_at is None:
        return False
    if action is not None and table.due_action != action:
        return False
    return table.due_at <= now + EARLY


@dataclass(frozen=True)
class BotPlan:
    version: int
    seat: int
    move: Move


def _bot_plan(table_id: int, now: datetime) -> BotPlan | None:
    """The bot's move, thought out from the view of the table's current version, without a lock."""
    table = Table.objects.select_related("current_game").filter(pk=table_id).first()
    if table is None or not _is_due(table, Due.BOT, now) or table.current_game is None:
        return None
    rules = rules_of(table)
    state = rules.from_dict(table.current_game.state)
    seat = rules.to_move(state)
    if seat is None:
        return None
    level = table.seating[seat]["bot"]
    if not level:
        return None
    rng = random.Random(secrets.randbits(64))
    try:
        move = get_bot(table.game, level).next_move(rules.view_for(state, seat), rng)
        rules.apply(state, seat, move)  # a bot plays only through the same checks as people
    except EngineError:
        # A bot must never stall a table: fall back to the autopilot's move, and say so in the log.
        log.exception("Bot %s at table %s made an illegal move; playing the autopilot move", level, table_id)
        move = rules.autopilot(state, seat)
    return BotPlan(table.version, seat, move)


def table_due(*, table_id: int, action: str | None = None, now: datetime | None = None) -> bool:
    """Run the table's due action if it is due (and is `action`, when given). Returns whether it ran.
    Safe to call any number of times: what is not due, or already done, is left alone.

    A turn is the player's to its last millisecond: a timeout never runs before its deadline. A task
    that came up to EARLY before it waits out the rest (outside the lock); with a clock given (`now`:
    the sweep's, a test's) a timeout not yet due is left for a later call."""
    clock_given = now is not None
    now = now or timezone.now()
    wait = 0.0
    for _attempt in range(BOT_ATTEMPTS):
        if wait > 0:
            time.sleep(wait)
            now, wait = timezone.now(), 0.0
        plan = _bot_plan(table_id, now) if action in (None, Due.BOT) else None
        with transaction.atomic():
            table = lock(table_id)
            if not _is_due(table, action, now):
                return False
            if table.due_action == Due.TIMEOUT and liveness.timeouts_on_hold():
                return False  # the site is (or was just) down: the sweep gives the clocks back first
            if table.due_action == Due.TIMEOUT and table.due_at is not None and table.due_at > now:
                if clock_given:
                    return False
                wait = (table.due_at - now).total_seconds()  # at most EARLY: the task's ETA came a little early
                continue
            if table.due_action in (Due.NEXT_GAME, Due.DEAL):
                deal_due(table, now)
                return True
            game = table.current_game
            assert game is not None
            rules = rules_of(table)
            state = rules.from_dict(game.state)
            seat = rules.to_move(state)
            if seat is None:
                table.due_action, table.due_at = Due.NOTHING, None
                table.save(update_fields=["due_action", "due_at"])
                return False
            if table.due_action == Due.BOT:
                if plan is None or plan.version != table.version or plan.seat != seat:
                    continue  # the table changed while the bot thought: think again
                apply_and_save(table, rules, state, seat, plan.move, actor=Actor.BOT, now=now)
            elif table.due_action == Due.TIMEOUT:
                move = rules.timeout(state, seat, _pending_play(rules, game, seat))
                apply_and_save(table, rules, state, seat, move, actor=Actor.TIMEOUT, now=now,
                               events=slow_seat_away(table, seat))
            elif table.due_action == Due.AUTOPILOT:
                apply_and_save(table, rules, state, seat, rules.autopilot(state, seat), actor=Actor.AUTOPILOT, now=now)
            return True
    log.warning("The bot at table %s was overtaken %s times in a row; the sweep tries again", table_id, BOT_ATTEMPTS)
    return False


def slow_seat_away(table: Table, seat: int) -> tuple[SlowSeatAway, ...]:
    """A timeout at a table without a timer is its player's day away: the seat goes on autopilot (as
    every timeout puts it) and the other people still in the match are told (SPEC 17). From the seating
    at hand: no query."""
    entry = table.seating[seat]
    if table.turn_seconds or entry["bot"] or entry["user_id"] is None:
        return ()
    others = tuple(
        other["user_id"] for other in table.seating
        if other["index"] != seat and other["user_id"] is not None and not other["bot"]
        and not other.get("bot_account") and not other.get("left")
    )
    return (SlowSeatAway(table.pk, seat, entry["user_id"], others),)


def deal_due(table: Table, now: datetime) -> None:
    """Deal what the locked table is waiting to deal: the match's first game (the window for the players'
    seeds is over) or its next one (the scores were shown long enough, or everyone is ready)."""
    match = table.match
    assert match is not None
    if table.due_action == Due.DEAL:
        game, state = deal_first_game(table, match, FairDeal.objects.get(match=match), now)
    else:
        game, state = deal_next_game(table, match, EngineMatch.from_dict(match.state), dealer(match), now)
    turn = turn_passed(table, rules_of(table), state)
    effects.after_commit(table, frames=effects.Frames(game, match, state), events=turn)


def game_ready(*, table_id: int, by: User) -> None:
    """Between the games of a match: this player has read the scores. The next game is dealt as soon as
    every person still in the match is ready (bots and bot accounts do not wait), or when its time comes
    (TABLE_NEXT_GAME_DELAY). Asked again, it changes nothing; asked at any other moment, it is refused
    (the next game was dealt a moment ago, or the match is over) and changes nothing."""
    with transaction.atomic():
        table = lock(table_id)
        seat = seat_of(table, by)
        game = table.current_game
        if seat is None or seat["left"]:
            raise NotAllowed(_("You have no seat in this match."))
        if table.due_action != Due.NEXT_GAME or game is None:
            raise NotAllowed(_("There is no next game to get ready for."))
        ready = sorted({*(game.ready or ()), seat["index"]})
        if ready == list(game.ready or ()):
            return
        persons = [info["index"] for info in table.seating if info["user_id"] and not info["bot"]
                   and not info["bot_account"] and not info["left"]]
        game.ready = ready
        game.save(update_fields=["ready"])
        if all(index in ready for index in persons):
            deal_due(table, timezone.now())
            return
        bump(table)
        table.save(update_fields=["version", "updated_at"])
        effects.after_commit(table, lobby=False)


def _pending_play(rules: Rules[Any], game: Game, seat: int) -> Move | None:
    draft = game.draft
    if not isinstance(draft, dict) or draft.get("seat") != seat or draft.get("turn") != game.turn:
        return None
    try:
        return rules.parse_move(draft["move"])
    except EngineError:
        return None


#: The sweep runs timeouts as soon as they are due (it is their timer); anything else only once it is
#: this late, as the backstop for a lost task.
BACKSTOP_GRACE = timedelta(seconds=1)


def tables_sweep_due(*, now: datetime | None = None, grace_seconds: float = BACKSTOP_GRACE.total_seconds()) -> int:
    """Run every turn timeout that is due, and every other due action overdue by more than
    `grace_seconds` (a lost task). One indexed query, then one call per table."""
    now = now or timezone.now()
    overdue = list(
        Table.objects.filter(due_at__lte=now + EARLY)
        .exclude(due_action="")
        .order_by("due_at")
        .values_list("pk", "due_action", "due_at")[:500]
    )
    ran = 0
    for table_id, action, due_at in overdue:
        assert due_at is not None  # the filter took only rows with a due time
        if action != Due.TIMEOUT and due_at > now - timedelta(seconds=grace_seconds):
            continue
        try:
            ran += table_due(table_id=table_id, now=now)
        except Exception:  # one broken table must not stop the sweep of the others
            log.exception("Sweeping table %s failed", table_id)
    return ran


def games_extend_deadlines(*, by: timedelta, now: datetime | None = None) -> int:
    """After downtime: give every running turn clock the time it lost plus a grace, so nobody times out
    because the server was away (SPEC 5: disconnecting is not leaving). A turn keeps what it had left
    when the site went down: its deadline moves by `by` (the downtime plus the grace), and never to
    before now."""
    now = now or timezone.now()
    count = 0
    with transaction.atomic():
        for table in Table.objects.select_for_update().filter(due_action=Due.TIMEOUT, due_at__isnull=False):
            assert table.due_at is not None  # the filter took only rows with a due time
            table.due_at = max(table.due_at + by, now)
            if table.current_game_id is not None:
                Game.objects.filter(pk=table.current_game_id).update(deadline=table.due_at)
            bump(table)
            table.save(update_fields=["due_at", "version", "updated_at"])
            effects.after_commit(table, lobby=False)
            count += 1
    return count
