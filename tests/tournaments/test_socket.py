"""The standings reach a visitor's socket as versioned frames, pushed once per change (no polling)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from apps.tournaments import services
from apps.tournaments.models import Tournament
from rummysite.asgi import application
from tests.tables.helpers import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HEADERS = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]
db = sync_to_async


def running_arena() -> Tournament:
    return Tournament.objects.create(
        name="Live arena", game="tile-rummy", seats="2", turn_seconds=60, minutes=60, rated=False,
        starts_at=timezone.now() - timedelta(minutes=1), status=Tournament.Status.RUNNING,
    )


async def receive(client: WebsocketCommunicator) -> dict:
    return json.loads(await client.receive_from(timeout=30))


async def test_a_visitor_gets_the_standings_then_each_change_and_nothing_while_nothing_changes():
    arena = await db(running_arena)()
    client = WebsocketCommunicator(application, f"/ws/tournaments/{arena.pk}/", headers=HEADERS)
    connected, _ = await client.connect(timeout=30)
    assert connected
    first = await receive(client)
    assert first["type"] == "standings" and first["rows"] == [] and first["version"] == 0

    ana = await db(make_user)("ana")
    await db(services.tournament_join)(tournament_id=arena.pk, by=ana)
    pushed = await receive(client)
    assert pushed["version"] == 1 and pushed["rows"][0][:3] == [1, "ana", 0]

    bogdan = await db(make_user)("bogdan")
    await db(services.tournament_join)(tournament_id=arena.pk, by=bogdan)
    assert (await receive(client))["version"] == 2
    await db(services.arenas_tick)()  # a table formed: a new version with the table to watch
    frame = await receive(client)
    assert frame["version"] == 3 and len(frame["tables"]) == 1 and sorted(frame["tables"][0][1]) == ["ana", "bogdan"]
    assert await client.receive_nothing(timeout=0.5)  # nothing changed: nothing sent

    await client.send_to(text_data='{"type":"ping"}')
    assert await receive(client) == {"type": "pong", "version": 3}  # answered from the kept frame
    await client.disconnect()


async def test_each_seated_entrant_is_told_their_table_at_once_on_their_own_topic():
    """The standings list only the newest tables and a pass publishes them once, at its end: each entrant
    whose table opens is told on their own topic the moment it opens (the page goes there); a visitor and
    a free entrant hear no such frame; a page opened later is told the table it has now."""
    from tests.tables.test_consumers import connect

    arena = await db(running_arena)()
    users = [await db(make_user)(name) for name in ("ana", "bogdan", "carmen")]
    for user in users:
        await db(services.tournament_join)(tournament_id=arena.pk, by=user)
    sockets = [await connect(f"/ws/tournaments/{arena.pk}/", user) for user in users]
    visitor = WebsocketCommunicator(application, f"/ws/tournaments/{arena.pk}/", headers=HEADERS)
    assert (await visitor.connect(timeout=30))[0]
    for client in (*sockets, visitor):
        assert (await receive(client))["type"] == "standings"  # nobody is seated yet: no table frame first
    await db(services.arenas_tick)()  # 3 free at 2 seats: one table, one player waits
    told = {}
    for user, client in zip(users, sockets, strict=True):
        frames = [await receive(client)]
        while frames[-1]["type"] != "standings":
            frames.append(await receive(client))
        told[user.username] = [frame["table"] for frame in frames if frame["type"] == "table"]
    seated = {name: tables for name, tables in told.items() if tables}
    assert len(seated) == 2 and len({tables[0] for tables in seated.values()}) == 1, told
    table_id = next(iter(seated.values()))[0]
    (waiting,) = set(told) - set(seated)
    assert told[waiting] == []
    assert (await receive(visitor))["type"] == "standings" and await visitor.receive_nothing(timeout=0.3)
    late = await connect(f"/ws/tournaments/{arena.pk}/", next(u for u in users if u.username in seated))
    assert await receive(late) == {"type": "table", "table": table_id}
    for client in (*sockets, visitor, late):
        await client.disconnect()


async def test_a_tournament_that_does_not_exist_is_refused():
    client = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers=HEADERS)
    connected, code = await client.connect(timeout=30)
    if connected:
        output = await client.receive_output(timeout=30)
        assert output["type"] == "websocket.close" and output["code"] == 4404
    else:
        assert code == 4404
