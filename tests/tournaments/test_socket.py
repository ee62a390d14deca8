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


async def test_a_tournament_that_does_not_exist_is_refused():
    client = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers=HEADERS)
    connected, code = await client.connect(timeout=30)
    if connected:
        output = await client.receive_output(timeout=30)
        assert output["type"] == "websocket.close" and output["code"] == 4404
    else:
        assert code == 4404
