"""The table WebSocket's limits, at their edges (tests/tables/test_consumers.py has the basic cases):
the frame size cap and the rate limit close with 1008 exactly where they should, a foreign or missing
Origin is refused, and nobody acts for a seat that is not theirs, whatever the action."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from apps.tables import services
from apps.tables.consumers import TableSocket
from apps.tables.models import Game, MoveLog, Table
from rummysite.asgi import application
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, codes_until_closed, connect, receive

MAX_FRAME_BYTES = TableSocket.max_frame_bytes
RATE_BURST = settings.LIVE_FRAME_BURST

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async
ACTIONS = ["move", "draft", "back", "leave", "start", "rematch", "new_match"]


async def playing_table(name: str = "alice", turn_seconds: int = 60) -> tuple[Table, object]:
    host = await db(make_user)(name)
    table = await db(services.table_open)(by=host, game="tile-rummy", seat_count=2, bots=["easy"],
                                          turn_seconds=turn_seconds)
    await db(services.table_start)(table_id=table.pk, by=host)
    return await db(Table.objects.get)(pk=table.pk), host


def padded(size: int) -> str:
    """A `ping` frame of exactly `size` bytes."""
    base = json.dumps({"type": "ping", "pad": ""})
    return json.dumps({"type": "ping", "pad": "x" * (size - len(base))})


async def test_a_frame_of_exactly_the_cap_is_served_and_one_byte_more_closes_with_1008():
    table, _ = await playing_table()
    client = await connect(f"/ws/tables/{table.pk}/")
    await receive(client)
    frame = padded(MAX_FRAME_BYTES)
    assert len(frame.encode()) == MAX_FRAME_BYTES
    await client.send_to(text_data=frame)
    assert (await receive(client))["type"] == "pong"
    await client.send_to(text_data=padded(MAX_FRAME_BYTES + 1))
    assert (await receive(client))["code"] == "too_big"
    assert await client.receive_output(timeout=30) == {"type": "websocket.close", "code": 1008}


async def test_a_burst_up_to_the_limit_is_served_and_the_next_frame_closes_with_1008(stopped_clock):
    table, _ = await playing_table()
    client = await connect(f"/ws/tables/{table.pk}/")
    await receive(client)
    for _ in range(RATE_BURST):  # the whole burst: every frame is answered
        await client.send_json_to({"type": "nothing-at-all"})
    for _ in range(RATE_BURST):
        assert (await receive(client))["code"] == "unknown_type"
    await client.send_json_to({"type": "nothing-at-all"})  # one past it
    codes, closed_with = await codes_until_closed(client)
    assert closed_with == 1008
    assert codes == ["rate_limited"]


@pytest.mark.parametrize("origin", [b"https://evil.example", b"http://127.0.0.1.evil.example", b"null", None])
async def test_a_table_socket_from_a_foreign_or_missing_origin_is_refused(origin):
    table, host = await playing_table()
    headers = [HOST] + ([(b"origin", origin)] if origin is not None else [])
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
    connected, _ = await communicator.connect(timeout=30)
    assert not connected


@pytest.mark.parametrize("action", ACTIONS)
async def test_nobody_without_a_seat_acts_whatever_the_action(action):
    table, host = await playing_table()
    other_table, other_host = await playing_table("bob")  # seated elsewhere is not seated here
    before = (table.version, (await db(Game.objects.get)(pk=table.current_game_id)).state)
    spectator = await connect(f"/ws/tables/{table.pk}/")
    stranger = await connect(f"/ws/tables/{table.pk}/", other_host)
    await receive(spectator)
    await receive(stranger)
    frame = {"type": action, "move": "draw" if action != "draft" else None}
    await spectator.send_json_to(frame)
    assert (await receive(spectator))["code"] == "not_signed_in"
    await stranger.send_json_to(frame)
    reply = await receive(stranger)
    assert reply["type"] == "error" and reply["code"] in ("notallowed", "tableerror"), reply
    table = await db(Table.objects.get)(pk=table.pk)
    assert (table.version, (await db(Game.objects.get)(pk=table.current_game_id)).state) == before
    assert not await db(MoveLog.objects.filter(game_id=table.current_game_id).exists)()
    await spectator.disconnect()
    await stranger.disconnect()


async def test_pongs_answered_together_each_carry_their_own_tables_current_version():
    first, alice = await playing_table("alice")
    second, bob = await playing_table("bob")
    await db(services.game_move)(table_id=second.pk, by=bob, move="leave")  # second moves on
    second = await db(Table.objects.get)(pk=second.pk)
    clients = [await connect(f"/ws/tables/{table.pk}/") for table in (first, second, first, second)]
    for client in clients:
        await receive(client)
    await asyncio.gather(*(client.send_json_to({"type": "ping"}) for client in clients))
    pongs = [await receive(client) for client in clients]
    assert [pong["version"] for pong in pongs] == [first.version, second.version] * 2
    assert first.version != second.version
    for client in clients:
        await client.disconnect()
