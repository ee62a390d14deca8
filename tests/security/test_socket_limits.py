"""SPEC 11 limits on the sockets, at their edges: sockets per user and per address (the one over is
accepted, told why and closed with 4429), every routed endpoint's own frame cap and rate, and a huge
frame to `/ws/ping/` refused. Counts across processes are kept in Redis when the suite has one."""

from __future__ import annotations

import json
import os

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import override_settings

from apps.live.endpoint import Endpoint
from apps.live.quota import Counts, RedisCounts
from rummysite.asgi import application
from rummysite.routing import websocket_urlpatterns
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, ORIGIN, codes_until_closed, connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async


async def from_address(path: str, address: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers=[HOST, ORIGIN])
    communicator.scope["client"] = (address, 40000)
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


async def test_a_user_holds_twenty_sockets_and_the_twenty_first_is_refused_with_4429():
    user = await db(make_user)("mallory")
    limit = settings.LIVE_SOCKETS_PER_USER
    assert limit == 20  # SPEC 11's value is the default
    held = [await connect("/ws/lobby/", user) for _ in range(limit)]
    for socket in held:
        assert (await receive(socket))["type"] == "tables"
    codes, close = await codes_until_closed(await connect("/ws/lobby/", user))
    assert (codes, close) == (["too_many_sockets"], 4429)
    other = await connect("/ws/lobby/", await db(make_user)("olivia"))  # another user is not limited by it
    assert (await receive(other))["type"] == "tables"
    await held[0].disconnect()
    again = await connect("/ws/lobby/", user)  # one closed: one more
    assert (await receive(again))["type"] == "tables"
    for socket in [*held[1:], again, other]:
        await socket.disconnect()


async def test_the_refusal_over_the_limit_says_why_in_words():
    user = await db(make_user)("mallory")
    with override_settings(LIVE_SOCKETS_PER_USER=1):
        first = await connect("/ws/lobby/", user)
        await receive(first)
        refused = await connect("/ws/lobby/", user)
        frame = json.loads(await refused.receive_from(timeout=30))
        assert frame["code"] == "too_many_sockets" and "1 connections open" in frame["message"]
        await first.disconnect()


@override_settings(LIVE_SOCKETS_PER_ADDRESS=4)
async def test_an_address_holds_its_limit_of_sockets_and_one_more_is_refused():
    held = [await from_address("/ws/ping/", "203.0.113.9") for _ in range(4)]
    for socket in held:
        await socket.send_json_to({"type": "ping", "echo": 1})
        assert (await receive(socket))["type"] == "pong"
    codes, close = await codes_until_closed(await from_address("/ws/ping/", "203.0.113.9"))
    assert (codes, close) == (["too_many_sockets"], 4429)
    elsewhere = await from_address("/ws/ping/", "198.51.100.7")
    await elsewhere.send_json_to({"type": "ping"})
    assert (await receive(elsewhere))["type"] == "pong"
    for socket in [*held, elsewhere]:
        await socket.disconnect()


def routed_endpoints() -> list[type[Endpoint]]:
    return [pattern.callback.endpoint for pattern in websocket_urlpatterns]


async def test_every_routed_endpoint_declares_its_frame_cap_and_rate():
    endpoints = routed_endpoints()
    assert len(endpoints) >= 3
    for endpoint in endpoints:
        assert "max_frame_bytes" in vars(endpoint) and "frame_rate" in vars(endpoint), endpoint


async def test_a_900_kb_frame_to_ping_is_refused_and_closes_with_1008():
    socket = await connect("/ws/ping/")
    await socket.send_to(text_data=json.dumps({"type": "ping", "echo": "x" * 900_000}))
    codes, close = await codes_until_closed(socket)
    assert (codes, close) == (["too_big"], 1008)


async def test_ping_answers_a_frame_at_its_cap():
    socket = await connect("/ws/ping/")
    await socket.send_json_to({"type": "ping", "echo": "x" * 64})
    assert (await receive(socket))["echo"] == "x" * 64
    await socket.disconnect()


async def test_the_counts_of_this_process_alone_hold_the_limit():
    counts = Counts()
    assert await counts.acquire(("u:1",), (2,)) is None
    assert await counts.acquire(("u:1",), (2,)) is None
    assert await counts.acquire(("u:1",), (2,)) == "u:1"
    counts.release(("u:1",))
    assert await counts.acquire(("u:1",), (2,)) is None


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
async def test_two_processes_share_the_limit_through_redis_and_a_dead_ones_counts_expire():
    prefix = f"{settings.LIVE_BUS_CHANNEL}:test-quota"
    first = RedisCounts(os.environ["REDIS_URL"], prefix, process="one")
    second = RedisCounts(os.environ["REDIS_URL"], prefix, process="two")
    first.client.delete(first.processes_key, first.hash_of("one"), first.hash_of("two"))
    assert await first.acquire(("a:x",), (2,)) is None
    assert await second.acquire(("a:x",), (2,)) is None
    assert await second.acquire(("a:x",), (2,)) == "a:x"  # two processes, one limit
    first.client.zadd(first.processes_key, {"one": 0})  # process one stopped beating long ago
    assert await second.acquire(("a:x",), (2,)) is None
    first.client.delete(first.processes_key, first.hash_of("one"), first.hash_of("two"))


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
async def test_a_beat_between_a_socket_counted_and_its_increment_sent_leaves_the_hash_right():
    """The beat rewrites the process's hash from memory while a change may be on its way to Redis: what
    it writes plus what arrives after must be the memory's count, for a socket opened and one closed."""
    prefix = f"{settings.LIVE_BUS_CHANNEL}:test-quota-beat"
    counts = RedisCounts(os.environ["REDIS_URL"], prefix, process="one")
    counts.client.delete(counts.processes_key, counts.hash_of("one"))

    def in_hash() -> int:
        return int(counts.client.hget(counts.hash_of("one"), "a:x") or 0)

    for _ in range(3):
        assert await counts.acquire(("a:x",), (10,)) is None
    assert in_hash() == 3
    with counts._lock:  # a fourth socket counted in memory, its increment not sent yet (as acquire does)
        counts.local["a:x"] += 1
        counts._changed("a:x", 1)
    counts._beat()
    assert await counts.totals(("a:x",)) == [4]  # the increment arrives: 4, not 3 + 1 + 1
    assert in_hash() == 4
    counts.release(("a:x",))  # off the loop: sent at once
    counts._beat()
    assert in_hash() == 3 == counts.local["a:x"]
    counts.client.delete(counts.processes_key, counts.hash_of("one"))
