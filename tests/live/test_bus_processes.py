"""The live bus by table, with two real web processes (daphne) on one database and the run's Redis: what a
process's subscriber reads is what its own sockets listen to. The test watches every channel of the
site with a pattern subscription of its own, and reads each process's count of messages read from its
/metrics (the internal network may). Skipped without REDIS_URL (the suite's real stack)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
import redis

from tests.faults.test_two_servers import Visitor, table_of, two_guests_at_a_table, until_state
from tests.live_site import daphne, migrate
from tests.live_site import run as run_in_thread

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = pytest.mark.skipif(not REDIS_URL, reason="the Redis bus needs REDIS_URL")
PREFIX = f"rummy-live:test-bus-processes:{uuid.uuid4().hex[:8]}"
CEILING = 60.0


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    directory = tmp_path_factory.mktemp("bus")
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "REDIS_BUS_URLS"}}
    env.update(DATABASE_URL=f"sqlite:///{directory / 'site.sqlite3'}", CELERY_EMBEDDED="0", LOG_LEVEL="WARNING",
               PYTHONUNBUFFERED="1", TABLE_WEB_HEARTBEAT="0", TABLE_FAIR_SEED_SECONDS="0", LIVE_BUS_CHANNEL=PREFIX,
               TABLE_ROOM_CHECK_SECONDS="60", GUESTS_PER_ADDRESS_PER_HOUR="100000",
               GUESTS_PER_ADDRESS_BURST="100000")
    migrate(env)
    with ExitStack() as stack:
        yield [stack.enter_context(daphne(env, directory / f"daphne-{name}.log")) for name in ("a", "b")]


class Watcher:
    """Every message on every channel of the site, counted by channel (a subscription of the test's own)."""

    def __init__(self) -> None:
        self.pubsub = redis.Redis.from_url(REDIS_URL).pubsub(ignore_subscribe_messages=True)
        self.pubsub.psubscribe(f"{PREFIX}:*")
        self.pubsub.get_message(timeout=5)  # the psubscribe's confirmation: watching from here on
        self.seen: Counter[str] = Counter()

    def drain(self) -> Counter[str]:
        while (message := self.pubsub.get_message(timeout=0.2)) is not None:
            self.seen[message["channel"].decode()[len(PREFIX) + 1 :]] += 1
        return self.seen

    def close(self) -> None:
        self.pubsub.close()


def of_table(seen: Counter[str], table_id: int) -> int:
    """The messages of one table's topics (its changes, presence and chat)."""
    return sum(count for topic, count in seen.items()
               if topic.split(":")[0] in {"table", "presence", "chat"} and topic.split(":")[-1] == str(table_id))


def messages_read(server: str) -> float:
    with urllib.request.urlopen(f"http://{server}/metrics", timeout=30) as response:
        text = response.read().decode()
    found = re.search(r"^rummy_bus_messages_read_total (\S+)$", text, re.MULTILINE)
    assert found, "the process counts what its bus subscriber reads"
    return float(found.group(1))


def numsub(topic: str) -> int:
    return int(redis.Redis.from_url(REDIS_URL).pubsub_numsub(f"{PREFIX}:{topic}")[0][1])


def until(condition, ceiling: float = CEILING) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(ceiling / 0.05)):  # counted steps with a generous ceiling, not the clock
        if condition():
            return
        time.sleep(0.05)
    assert condition(), "the condition did not come true in time"


def test_a_process_with_no_socket_at_a_table_reads_none_of_its_messages(servers):
    a, b = servers
    host, guest, played = two_guests_at_a_table(a)  # played on the first process only
    watched_host = Visitor(a)
    watched_host.post("/accounts/guest/")
    watched = table_of(watched_host.post("/play/new/", game="tile-rummy", seats="2", match_length="1",
                                         turn_seconds="60", seat_1=""))
    watcher = Watcher()
    before = messages_read(b)

    async def run() -> None:
        # The second process's only socket: a spectator of the other table.
        spectator = await connect(f"ws://{b}/ws/tables/{watched}/", origin=f"http://{b}", proxy=None)
        seen = await until_state(spectator, 0)
        players = [await connect(f"ws://{a}/ws/tables/{played}/", origin=f"http://{a}",
                                 additional_headers=[("Cookie", visitor.cookie)], proxy=None)
                   for visitor in (host, guest)]
        opened = await until_state(players[0], 0)
        await players[0].send(json.dumps({"type": "start"}))
        for ws in players:
            await until_state(ws, opened["version"] + 1)
        # Last, a change of the watched table: once the spectator has it, its process has read everything
        # Redis sent it before (one connection, in order).
        joining = Visitor(a)
        joining.post("/accounts/guest/")
        joining.post(f"/t/{watched}/join/")
        await until_state(spectator, seen["version"] + 1)
        for ws in (*players, spectator):
            await ws.close()

    try:
        run_in_thread(run())
        seen = watcher.drain()
    finally:
        watcher.close()
    read = messages_read(b) - before
    of_the_played = of_table(seen, played)
    of_the_watched = of_table(seen, watched)
    assert of_the_played > 0 and of_the_watched > 0
    assert read == of_the_watched, (read, dict(seen))


def test_a_sockets_table_topic_is_subscribed_while_it_is_open_and_unsubscribed_after(servers):
    a, b = servers
    visitor = Visitor(a)
    visitor.post("/accounts/guest/")
    table_id = table_of(visitor.post("/play/new/", game="tile-rummy", seats="2", match_length="1",
                                     turn_seconds="60", seat_1=""))
    counts: list[int] = []

    async def run() -> None:
        sockets = [await connect(f"ws://{url}/ws/tables/{table_id}/", origin=f"http://{url}", proxy=None)
                   for url in (a, b)]
        for ws in sockets:
            await until_state(ws, 0)
        counts.append(numsub(f"table:{table_id}"))  # one subscription per process
        await sockets[0].close()
        await asyncio.to_thread(until, lambda: numsub(f"table:{table_id}") == 1)
        await sockets[1].close()
        await asyncio.to_thread(until, lambda: numsub(f"table:{table_id}") == 0)

    assert numsub(f"table:{table_id}") == 0
    run_in_thread(run())
    assert counts == [2] and numsub(f"table:{table_id}") == 0
