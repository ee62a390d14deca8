"""The pairing socket, end to end through the ASGI application: while it is open the player stays in the
pool (and hears the waiting screen's facts); when a wave seats them the socket is told where the table
is; closing it (leaving the page) takes the player out after PAIRING_GONE_SECONDS. A table's socket
tells pairing the paired player came."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError, connection
from django.test import override_settings
from django.utils import timezone

from apps.pairing import services
from apps.pairing.models import PoolEntry
from apps.pairing.pools import Pool
from rummysite.asgi import application
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, ORIGIN, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async
POOL = Pool("tile-rummy", 2, 60, False)


async def connect(path: str, user, cookie: bytes | None = None) -> WebsocketCommunicator:
    """A socket of `user` at `path`. Pass the session `cookie` made beforehand when another socket of the
    test may be writing meanwhile: on SQLite's shared in-memory test database a session saved while
    another connection writes fails at once ("database table is locked")."""
    cookie = cookie if cookie is not None else await db(session_cookie)(user)
    headers = [HOST, ORIGIN, (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=30)
    assert connected, path
    return communicator


def pool_has(**lookups: Any) -> bool | None:
    """Whether pool rows match, read while a socket of the test may be writing them: on SQLite's shared
    in-memory test database a read that meets another connection's write transaction fails at once
    ("database table is locked": no busy wait for shared-cache locks), which is "not known yet" (None)
    to a test that polls; PostgreSQL never refuses it."""
    try:
        return PoolEntry.objects.filter(**lookups).exists()
    except OperationalError as error:
        if connection.vendor == "sqlite" and "locked" in str(error):
            return None
        raise


async def until(communicator: WebsocketCommunicator, kind: str, ceiling: float = 60.0) -> dict[str, Any]:
    """Frames until one of `kind` (failing after `ceiling` seconds of silence)."""
    for _ in range(200):
        frame = json.loads(await communicator.receive_from(timeout=ceiling))
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


@override_settings(PAIRING_TOUCH_SECONDS=0.2)
async def test_an_open_page_keeps_the_player_in_and_a_closed_one_takes_them_out():
    ana = await db(make_user)("ana")
    await db(services.pool_join)(by=ana, pool=POOL)
    await db(PoolEntry.objects.update)(seen_at=timezone.now() - timedelta(seconds=60))
    socket = await connect("/ws/pairing/", ana)
    frame = await until(socket, "waiting")
    assert frame["pool"] == POOL.key and frame["count"] == 1
    await until(socket, "waiting")  # a beat later: the page was seen again
    seen = (await db(PoolEntry.objects.get)(user=ana)).seen_at
    assert seen > timezone.now() - timedelta(seconds=5)
    await db(services.entries_sweep)()
    assert await db(PoolEntry.objects.filter(user=ana).exists)()  # still there while the page is open
    await socket.disconnect()
    await db(services.entries_sweep)(now=timezone.now() + timedelta(seconds=6))
    assert not await db(PoolEntry.objects.filter(user=ana).exists)()


async def test_the_paired_players_sockets_are_told_where_their_table_is_and_coming_there_settles_it():
    ana, bogdan = await db(make_user)("ana"), await db(make_user)("bogdan")
    sockets = []
    for user in (ana, bogdan):
        await db(services.pool_join)(by=user, pool=POOL)
        sockets.append(await connect("/ws/pairing/", user))
        await until(sockets[-1], "waiting")
    report = await db(services.pairing_wave)()
    table_id = report.tables[0]
    for socket in sockets:
        frame = await until(socket, "paired")
        assert frame["url"] == f"/t/{table_id}/"
        await socket.disconnect()
    tables = []
    cookies = [await db(session_cookie)(user) for user in (ana, bogdan)]
    for user, cookie in zip((ana, bogdan), cookies, strict=True):  # each page moves to the table: it came
        tables.append(await connect(f"/ws/tables/{table_id}/", user, cookie))
        await until(tables[-1], "state")
    for _ in range(600):  # the part runs once the table's socket is open: counted steps, a generous ceiling
        if await db(pool_has)() is False:
            break
        await asyncio.sleep(0.1)
    assert await db(pool_has)() is False
    for socket in tables:
        await socket.disconnect()


async def test_a_player_who_came_hears_at_the_table_that_the_other_did_not_and_where_to_wait_again():
    ana, bogdan = await db(make_user)("ana"), await db(make_user)("bogdan")
    for user in (ana, bogdan):
        await db(services.pool_join)(by=user, pool=POOL)
    table_id = (await db(services.pairing_wave)()).tables[0]
    at_table = await connect(f"/ws/tables/{table_id}/", ana)
    await until(at_table, "state")
    for _ in range(600):  # counted steps, a generous ceiling: the part marks ana as come
        if await db(pool_has)(user=ana, arrived=True):
            break
        await asyncio.sleep(0.1)
    await db(services.arrivals_settle)(now=timezone.now() + timedelta(seconds=16))  # bogdan never came
    frame = await until(at_table, "pairing")
    assert frame["url"] == "/play/quick/wait/"
    entry = await db(PoolEntry.objects.get)(user=ana)
    assert entry.table_id is None  # back in the pool, at its front
    await at_table.disconnect()
