"""Downtime and the turn clocks (apps/tables/liveness.py): while the web tier is down, turn timeouts
wait; when it is back, every turn clock gets the downtime plus a grace, once. The heartbeats are
written here by hand, at chosen times; bench/drills.py restarts a real daphne."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from apps.tables import liveness, services
from apps.tables.models import MoveLog, Table
from apps.tables.tasks import sweep_due
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_heartbeats():
    keys = [liveness.WEB_KEY, liveness.SWEEP_KEY, liveness.DOWN_KEY]
    cache.delete_many(keys)
    yield
    cache.delete_many(keys)


@pytest.fixture
def waiting_turn():
    """A turn with 30 s on the clock (the human's turn at a table with a bot)."""
    alice = make_user("alice")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2, bots=["easy"], turn_seconds=30)
    services.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    while table.due_action != Table.Due.TIMEOUT:  # let the bot play until it is alice's turn
        services.table_due(table_id=table.pk, now=max(table.due_at, timezone.now()))
        table.refresh_from_db()
    return table


def made_up(now: float | None = None) -> float:
    """What the sweep task does first: the downtime it makes up for (in seconds, 0 if none), after giving
    every running turn clock that plus the grace. `now`: the sweep's clock, chosen by the test, so the
    figure is exact whatever the machine's speed."""
    extend = liveness.check_downtime(now)
    if extend is None:
        return 0.0
    services.games_extend_deadlines(by=extend)
    return extend.total_seconds() - liveness.grace()


def test_without_any_heartbeat_nothing_is_held_and_nothing_extended(waiting_turn):
    assert not liveness.timeouts_on_hold()
    assert made_up() == 0
    deadline = waiting_turn.due_at
    waiting_turn.refresh_from_db()
    assert waiting_turn.due_at == deadline
    assert services.table_due(table_id=waiting_turn.pk, now=deadline)


def test_while_the_web_is_down_timeouts_wait_and_when_it_is_back_clocks_get_the_downtime_and_a_grace(waiting_turn):
    deadline = waiting_turn.due_at
    now = time.time()
    went_down = now - 40  # the last heartbeat, 40 s ago: the web tier is down
    cache.set(liveness.WEB_KEY, went_down)
    assert liveness.timeouts_on_hold()
    assert not services.table_due(table_id=waiting_turn.pk, now=deadline + timedelta(seconds=1))
    assert made_up(now) == 0  # still down: noted, not yet made up for
    assert not services.table_due(table_id=waiting_turn.pk, now=deadline + timedelta(seconds=1))

    liveness.web_alive()  # back
    downtime = made_up(now)
    assert downtime == pytest.approx(40)
    waiting_turn.refresh_from_db()
    given = (waiting_turn.due_at - deadline).total_seconds()
    assert downtime + liveness.grace() - 1 <= given <= downtime + liveness.grace() + 1
    assert made_up(now) == 0  # once
    assert not liveness.timeouts_on_hold()
    assert not services.table_due(table_id=waiting_turn.pk, now=deadline + timedelta(seconds=1))
    assert services.table_due(table_id=waiting_turn.pk, now=waiting_turn.due_at)
    assert MoveLog.objects.filter(actor="timeout").count() == 1


def test_a_long_gap_between_sweeps_is_downtime_too(waiting_turn):
    deadline = waiting_turn.due_at
    liveness.web_alive()
    now = time.time()
    cache.set(liveness.SWEEP_KEY, now - 60)  # the whole stack was away for a minute
    downtime = made_up(now)
    assert downtime == pytest.approx(60)
    waiting_turn.refresh_from_db()
    assert waiting_turn.due_at >= deadline + timedelta(seconds=60 + liveness.grace() - 1)
    assert made_up(now + 2) == 0  # a sweep 2 s later finds nothing to make up


def test_the_sweep_task_checks_for_downtime_before_it_sweeps(waiting_turn):
    liveness.web_alive()
    before = time.time()
    cache.set(liveness.SWEEP_KEY, before - 30)
    sweep_due()
    waiting_turn.refresh_from_db()
    assert cache.get(liveness.SWEEP_KEY) >= before  # the task stamped its own sweep, after the gap
    assert waiting_turn.version > 0 and waiting_turn.due_at > timezone.now() + timedelta(seconds=30)
