"""The moment between a socket's listen and Redis's confirmation of its SUBSCRIBE: a change published then
is not delivered to the socket (Redis has no subscriber for it yet), so the lobby and the chat read again
once the subscription is in effect (the table rooms check their versions). Each test holds the bus's
subscriber thread before it sends the SUBSCRIBE, publishes in that window, lets it go, and waits for what
was published to reach the socket anyway. On the Redis bus (a bus of the test's own on REDIS_URL's server,
the suite's real stack); skipped without it."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

import apps.live.bus as live_bus
from apps.chat import services as chat
from apps.chat.wire import chat_topic
from apps.live.bus import RedisBus
from apps.tables import services
from apps.tables.effects import LOBBY_TOPIC
from tests.tables.helpers import make_user
from tests.tables.test_consumers import connect

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.skipif(not REDIS_URL, reason="the Redis bus needs REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]
CEILING = 30.0
db = sync_to_async


class Held:
    """The bus's subscriber thread stopped before it sends its next SUBSCRIBE, until `release()`."""

    def __init__(self, bus: RedisBus) -> None:
        self.shard = bus.shards[0]
        self.gate = threading.Event()
        self.reached = threading.Event()
        groups = self.shard._groups

        def held(channels: list[bytes]) -> list[list[bytes]]:
            self.reached.set()
            self.gate.wait(CEILING)
            return groups(channels)

        self.shard._groups = held  # type: ignore[method-assign]

    def release(self) -> None:
        self.gate.set()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[RedisBus, Held]]:
    bus = RedisBus([REDIS_URL], f"test-bus-window:{uuid.uuid4().hex[:12]}")
    monkeypatch.setattr(live_bus, "_bus", bus)
    hold = Held(bus)
    yield bus, hold
    hold.release()
    bus.close()


def subscribers(bus: RedisBus, topic: str) -> int:
    return int(redis.Redis.from_url(REDIS_URL).pubsub_numsub(bus.channel(topic))[0][1])


async def reached(hold: Held) -> None:
    """Until the subscriber thread is held (the socket's listen is made, its SUBSCRIBE not sent)."""
    for _ in range(int(CEILING / 0.02)):  # counted steps with a generous ceiling; the loop runs meanwhile
        if hold.reached.is_set():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the subscriber never came to send a SUBSCRIBE")


async def frames_until(client: WebsocketCommunicator, wanted: Any) -> list[dict[str, Any]]:
    """The frames the socket receives until one for which `wanted(frame)` is true (each within the ceiling)."""
    frames: list[dict[str, Any]] = []
    while not frames or not wanted(frames[-1]):
        frames.append(json.loads(await client.receive_from(timeout=CEILING)))
    return frames


async def test_a_lobby_frame_published_before_the_subscribe_is_in_effect_reaches_the_socket(held):
    """Redis is slow (held past the socket's wait): the socket reads at once, and again once subscribed."""
    bus, hold = held
    client = await connect("/ws/lobby/")
    assert json.loads(await client.receive_from(timeout=CEILING)) == {"type": "tables", "tables": []}
    await reached(hold)  # the listen is made, its SUBSCRIBE not sent
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game="tile-rummy", seat_count=3, bots=["easy"])
    assert subscribers(bus, LOBBY_TOPIC) == 0  # the lobby's frame of the new table went to nobody
    hold.release()
    frames = await frames_until(client, lambda frame: frame["type"] == "tables" and frame["tables"])
    assert [entry["id"] for entry in frames[-1]["tables"]] == [table.pk]
    assert subscribers(bus, LOBBY_TOPIC) == 1
    await client.disconnect()


async def test_a_lobby_socket_reads_once_its_subscribe_is_in_effect(held):
    """Redis answers in time: the socket's one read comes after the subscription, so it has the change."""
    bus, hold = held
    client = await connect("/ws/lobby/")
    await reached(hold)
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game="tile-rummy", seat_count=3, bots=["easy"])
    assert subscribers(bus, LOBBY_TOPIC) == 0
    hold.release()
    frames = await frames_until(client, lambda frame: frame["type"] == "tables" and frame["tables"])
    assert [entry["id"] for entry in frames[-1]["tables"]] == [table.pk]
    await client.disconnect()


async def test_a_chat_message_said_before_the_subscribe_is_in_effect_reaches_the_socket(held):
    bus, hold = held
    alice, bob = await db(make_user)("alice"), await db(make_user)("bob")
    moderator = await db(make_user)("moderator", staff=True)
    table = await db(services.table_open)(by=alice, game="tile-rummy", seat_count=2, bots=["easy"])
    earlier = await db(chat.chat_say)(table_id=table.pk, by=alice, text="before bob came")
    client = await connect(f"/ws/tables/{table.pk}/?chat=1", bob)
    history = await frames_until(client, lambda frame: frame["type"] == "chat_history")
    assert [message["text"] for message in history[-1]["messages"]] == ["before bob came"]
    await reached(hold)
    said = await db(chat.chat_say)(table_id=table.pk, by=alice, text="said in the window")
    await db(chat.chat_delete)(message_id=earlier["message"]["id"], by=moderator)
    assert subscribers(bus, chat_topic(table.pk)) == 0  # both went to nobody
    hold.release()
    frames = await frames_until(client, lambda frame: frame["type"] == "chat_deleted")
    heard = [frame["message"] for frame in frames if frame["type"] == "chat"]
    assert [(message["id"], message["text"]) for message in heard] == [(said["message"]["id"], "said in the window")]
    assert frames[-1]["id"] == earlier["message"]["id"]
    assert subscribers(bus, chat_topic(table.pk)) == 1
    await client.disconnect()


async def test_a_chat_message_heard_while_the_history_is_read_comes_after_the_history(held, monkeypatch):
    """The client replaces its messages with the history: one heard while the history was being read
    (and not in it) must be sent after the history, not before."""
    bus, hold = held
    hold.release()
    alice, bob = await db(make_user)("alice"), await db(make_user)("bob")
    table = await db(services.table_open)(by=alice, game="tile-rummy", seat_count=2, bots=["easy"])
    shard, delivered = bus.shards[0], threading.Event()
    deliver = shard.deliver

    def counted(channel: bytes, data: bytes) -> None:
        deliver(channel, data)  # the socket's listener is scheduled in the loop when this returns
        if channel == bus.channel(chat_topic(table.pk)):
            delivered.set()

    shard.deliver = counted
    history = chat.chat_history

    def read_then_said(**kwargs: Any) -> list[dict[str, Any]]:
        read = history(**kwargs)
        chat.chat_say(table_id=table.pk, by=alice, text="said during the read")
        assert delivered.wait(CEILING)  # heard by the socket's process before the history is sent
        return read

    monkeypatch.setattr(chat, "chat_history", read_then_said)
    client = await connect(f"/ws/tables/{table.pk}/?chat=1", bob)
    frames = await frames_until(client, lambda frame: frame["type"] == "chat")
    kinds = [frame["type"] for frame in frames if frame["type"].startswith("chat")]
    assert kinds == ["chat_history", "chat"] and frames[-1]["message"]["text"] == "said during the read"
    await client.disconnect()
