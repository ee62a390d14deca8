"""One move sent on two sockets of one seat at the same moment (two tabs, or a client that retries
while its first frame is still on its way), through the ASGI application: the sockets' database threads
run the two at once, PostgreSQL's row lock puts one behind the other, and the second must be answered
from the table as the first left it (tests/tables/test_locking.py has the lock itself)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.db import connection

from apps.engine.game import get_rules
from apps.tables import services
from apps.tables.models import MoveLog, Seat, Table
from tests.tables.helpers import human_move, make_user, state_of
from tests.tables.test_consumers import connect, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HOUSE = "tile-rummy"
#: the refusals a second copy of a move may get: the table moved on, or the move no longer fits it
CLEAN_REFUSALS = {"stale", "illegalmove", "notallowed"}


async def reply(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The socket's answer to the move it sent (state frames pass by); a closed socket fails the test."""
    while True:
        output = await socket.receive_output(timeout=60)
        assert output["type"] == "websocket.send", f"the socket was closed: {output}"
        frame = json.loads(output["text"])
        if frame["type"] in ("ack", "error"):
            return frame


def moves_and_version(table_id: int) -> tuple[int, int]:
    table = Table.objects.get(pk=table_id)
    return MoveLog.objects.filter(game__match__table_id=table_id).count(), table.version


def the_seat_to_move(table_id: int) -> tuple[int, Any, str, int]:
    table, state = state_of(table_id)
    index = get_rules(HOUSE).to_move(state)
    user = Seat.objects.select_related("user").get(table_id=table_id, index=index).user
    return index, user, table.status, table.version


async def test_the_same_move_on_two_sockets_at_once_is_applied_once_fifty_times_with_and_without_id_and_version():
    if connection.vendor == "sqlite":
        pytest.skip("two database threads at once need row locks and concurrent connections (CI runs PostgreSQL)")
    alice, bob = await db(make_user)("alice"), await db(make_user)("bob")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, match_length=5)
    await db(services.table_join)(table_id=table.pk, by=bob)
    await db(services.table_start)(table_id=table.pk, by=alice)
    sockets = {user.pk: [await connect(f"/ws/tables/{table.pk}/", user) for _ in range(2)] for user in (alice, bob)}
    rng = random.Random(40)
    kinds = [(True, True), (True, False), (False, True), (False, False)]  # (with an id, with a version)
    for step in range(50):
        index, user, status, version = await db(the_seat_to_move)(table.pk)
        assert status == Table.Status.PLAYING, "the match ended before fifty moves"
        move = await db(human_move)(table.pk, index, rng)
        with_id, with_version = kinds[step % len(kinds)]
        frame: dict[str, Any] = {"type": "move", "move": move}
        if with_id:
            frame["id"] = f"m{step}"
        if with_version:
            frame["version"] = version
        first, second = sockets[user.pk]
        moves_before, _ = await db(moves_and_version)(table.pk)
        await asyncio.gather(first.send_json_to(frame), second.send_json_to(frame))
        replies = await asyncio.gather(reply(first), reply(second))
        moves_after, version_after = await db(moves_and_version)(table.pk)
        assert (moves_after, version_after) == (moves_before + 1, version + 1), (step, frame, replies)
        acks = [answer for answer in replies if answer["type"] == "ack"]
        refusals = [answer for answer in replies if answer["type"] == "error"]
        if with_id:  # the copy is recognised by its id and acknowledged again
            assert len(acks) == 2, (step, frame, replies)
        else:
            assert len(acks) == 1 and refusals[0]["code"] in CLEAN_REFUSALS, (step, frame, replies)
        while (await db(Table.objects.get)(pk=table.pk)).due_action == Table.Due.NEXT_GAME:
            await db(services.table_due)(table_id=table.pk)
    for pair in sockets.values():
        for socket in pair:
            await socket.send_json_to({"type": "sync"})
            output = await socket.receive_output(timeout=60)
            assert output["type"] == "websocket.send"  # still open: no 1011, no close of any kind
            await socket.disconnect()
