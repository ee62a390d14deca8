"""An unstarted table stays open while a socket watches it, and closes when nobody has for the setting;
the lobby hears of the close at once (SPEC 11)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from apps.tables import services
from apps.tables.models import Table
from tests.tables.helpers import make_user
from tests.tables.test_consumers import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async


def table_opened_long_ago(name: str) -> Table:
    table = services.table_open(by=make_user(name), game="tile-rummy", seat_count=2)
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(minutes=20))
    return table


async def test_a_watched_table_stays_open_and_an_unwatched_one_closes_in_the_lobby_at_once():
    watched = await db(table_opened_long_ago)("alice")
    unwatched = await db(table_opened_long_ago)("bob")
    socket = await connect(f"/ws/tables/{watched.pk}/")  # somebody looks at it now
    await receive(socket)
    lobby = await connect("/ws/lobby/")
    await receive(lobby)
    assert await db(services.tables_close_unused)() == 1
    statuses = dict(await db(lambda: list(Table.objects.values_list("pk", "status")))())
    assert statuses == {watched.pk: Table.Status.OPEN, unwatched.pk: Table.Status.CLOSED}
    while True:
        frame = await receive(lobby)
        if frame["type"] == "table" and frame["id"] == unwatched.pk:
            assert frame["entry"] is None
            break
    await socket.disconnect()
    await lobby.disconnect()
