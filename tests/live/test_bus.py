"""The live bus on real Redis, as two web processes would use it: two buses, each with its own
connections (what a second process has), on the run's Redis and on two Redis servers of the test's own.
Each test runs a server loop of its own (tests/live/helpers.py) and waits on conditions with generous
ceilings. The embedded default's bus is at the end. Skipped without REDIS_URL (the suite's real stack)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from apps.live import loop
from apps.live.bus import LocalBus, RedisBus
from apps.live.bus_shard import Unconfirmed
from tests.live.helpers import in_own_loop
from tests.site.processes import manage, shell

REDIS_URL = os.environ.get("REDIS_URL")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="the Redis bus needs REDIS_URL")
CEILING = 30.0


@pytest.fixture(autouse=True)
def the_bus_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's loop starts no app's background work (it would reach the database): only the bus runs."""
    monkeypatch.setattr(loop, "_starters", [])


@pytest.fixture
def prefix() -> str:
    """Channels of this test alone (pub/sub channels are shared by every database of a Redis server)."""
    return f"test-bus:{uuid.uuid4().hex[:12]}"


@pytest.fixture
def made(prefix: str) -> Iterator[Callable[[list[str]], RedisBus]]:
    """`made(urls)`: a bus of its own, as another process has, closed at the test's end."""
    buses: list[RedisBus] = []

    def make(urls: list[str]) -> RedisBus:
        buses.append(RedisBus(urls, prefix))
        return buses[-1]

    yield make
    for bus in buses:
        bus.close()


async def until(condition: Callable[[], object], ceiling: float = CEILING) -> None:
    deadline = asyncio.get_running_loop().time() + ceiling
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the condition did not come true in time"
        await asyncio.sleep(0.02)


async def subscribed(bus: RedisBus, topic: str) -> None:
    """Until the bus's listens of `topic` are in effect at Redis."""
    done = asyncio.Event()
    bus.after_subscribing(topic, done.set)
    await asyncio.wait_for(done.wait(), CEILING)


def numsub(url: str, channel: bytes) -> int:
    return int(redis.Redis.from_url(url).pubsub_numsub(channel)[0][1])


async def publish(bus: RedisBus, topic: str, data: str) -> None:
    """A publish from another thread (as a service's, after its commit)."""
    await asyncio.to_thread(bus.publish, topic, data)


# -- one Redis ---------------------------------------------------------------------------------------------


@needs_redis
def test_a_process_with_no_listener_for_a_table_reads_none_of_its_messages(made):
    here, there = made([REDIS_URL]), made([REDIS_URL])
    heard_here: list[str] = []
    heard_there: list[str] = []

    async def main() -> None:
        loop.remember()
        here.listen("table:1", heard_here.append)
        there.listen("table:2", heard_there.append)
        await subscribed(here, "table:1")
        await subscribed(there, "table:2")
        # The other table's messages first: once the last of this table's has arrived, anything of the
        # other's that Redis sent here would have been read before it.
        for n in range(20):
            await publish(there, "table:2", f"two {n}")
        for n in range(20):
            await publish(there, "table:1", f"one {n}")
        await until(lambda: len(heard_here) == 20 and len(heard_there) == 20)

    in_own_loop(main)
    assert heard_here == [f"one {n}" for n in range(20)] and heard_there == [f"two {n}" for n in range(20)]
    assert here.read == 20 and there.read == 20


@needs_redis
def test_a_topic_is_subscribed_while_it_has_a_listener_and_unsubscribed_when_the_last_goes(made):
    bus = made([REDIS_URL])
    channel = bus.channel("table:7")
    first, second = (lambda text: None), (lambda text: None)
    counts: list[int] = []

    async def main() -> None:
        loop.remember()
        assert numsub(REDIS_URL, channel) == 0
        bus.listen("table:7", first)
        bus.listen("table:7", second)  # one subscription for every listener of the process
        await subscribed(bus, "table:7")
        counts.append(numsub(REDIS_URL, channel))
        bus.unlisten("table:7", first)
        await subscribed(bus, "table:7")
        counts.append(numsub(REDIS_URL, channel))
        bus.unlisten("table:7", second)
        await until(lambda: numsub(REDIS_URL, channel) == 0)
        counts.append(numsub(REDIS_URL, channel))

    in_own_loop(main)
    assert counts == [1, 1, 0]


@needs_redis
def test_changes_made_before_the_subscriber_runs_go_to_redis_as_their_sum(made):
    """A page reload closes a table's socket and opens another at once: the process stays subscribed."""
    bus = made([REDIS_URL])
    first, again = (lambda text: None), (lambda text: None)
    topics = [f"table:{n}" for n in range(50)]

    async def main() -> None:
        loop.remember()
        for topic in topics:
            bus.listen(topic, first)
        bus.unlisten("table:0", first)
        bus.listen("table:0", again)
        await subscribed(bus, "table:0")

    in_own_loop(main)
    found = dict(redis.Redis.from_url(REDIS_URL).pubsub_numsub(*(bus.channel(topic) for topic in topics)))
    assert set(found.values()) == {1}


@needs_redis
def test_a_publish_from_the_loop_after_a_listen_hears_the_answers_to_it(made):
    """Presence's new room listens, then asks the others who is here: the others' answers must reach it,
    so the ask leaves only once the listen is in effect at Redis."""
    asking, answering = made([REDIS_URL]), made([REDIS_URL])
    answers: list[str] = []

    def answer(text: str) -> None:
        if text.startswith("ask"):
            answering.publish("presence:3", f"here {text}")  # from the loop, as presence answers

    async def main() -> None:
        loop.remember()
        answering.listen("presence:3", answer)
        await subscribed(answering, "presence:3")
        channel = asking.channel("presence:3")
        for n in range(10):
            asking.listen("presence:3", answers.append)
            asking.publish("presence:3", f"ask {n}")  # at once, from the loop
            await until(lambda n=n: f"here ask {n}" in answers)
            asking.unlisten("presence:3", answers.append)
            await until(lambda: numsub(REDIS_URL, channel) == 1)  # only the answering bus's subscription

    in_own_loop(main)
    assert [text for text in answers if text.startswith("here")] == [f"here ask {n}" for n in range(10)]


# -- two Redis servers, by hash -----------------------------------------------------------------------------


def free_port() -> int:
    """A port nothing listens on now (Redis's cluster bus, at port + 10000, must fit too)."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port < 55000:
            return port


class Server:
    """A Redis server of the test's own, on a free port: never one that someone else's run started."""

    def __init__(self, port: int, directory: Path) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.directory = directory

    def start(self) -> None:
        with pytest.raises(redis.ConnectionError):
            redis.Redis.from_url(self.url).ping()  # nobody else's server answers here
        subprocess.run(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--daemonize", "yes", "--dir", str(self.directory),
                        "--pidfile", str(self.directory / f"{self.port}.pid")], check=True, capture_output=True)
        for _ in range(int(CEILING / 0.05)):  # counted steps with a generous ceiling, not the clock
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError(f"redis-server on {self.port} did not start")

    def stop(self) -> None:
        try:
            redis.Redis.from_url(self.url).shutdown(nosave=True)
        except redis.ConnectionError:  # the shutdown closes the connection that asked for it
            pass
        for _ in range(int(CEILING / 0.05)):  # counted steps with a generous ceiling, not the clock
            try:
                redis.Redis.from_url(self.url).ping()
            except redis.ConnectionError:
                return
            time.sleep(0.05)
        raise AssertionError(f"redis-server on {self.port} did not stop")


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server to start")
    started = [Server(free_port(), tmp_path) for _ in range(2)]
    for server in started:
        server.start()
    try:
        yield started
    finally:
        for server in started:
            server.stop()


def on_each_server(bus: RedisBus) -> tuple[str, str]:
    """A table topic that the hash puts on the first server, and one on the second."""
    topics = [f"table:{n}" for n in range(100)]
    first = next(topic for topic in topics if bus.shard_of(topic) is bus.shards[0])
    second = next(topic for topic in topics if bus.shard_of(topic) is bus.shards[1])
    return first, second


def test_the_hash_puts_a_topic_on_the_same_server_in_every_process(made):
    urls = ["redis://127.0.0.1:6501/0", "redis://127.0.0.1:6502/0"]  # never connected to
    one, other = made(urls), made(urls)
    topics = [f"table:{n}" for n in range(200)]
    placed = [one.shards.index(one.shard_of(topic)) for topic in topics]
    assert placed == [other.shards.index(other.shard_of(topic)) for topic in topics]
    assert 60 < placed.count(0) < 140  # spread, not all on one


def test_on_two_servers_a_topic_is_subscribed_on_its_own_server_and_its_messages_cross(servers, made):
    urls = [server.url for server in servers]
    here, there = made(urls), made(urls)
    first, second = on_each_server(here)
    heard: list[str] = []
    elsewhere: list[str] = []
    found: dict[str, tuple[int, int]] = {}

    async def main() -> None:
        loop.remember()
        for topic in (first, second):
            here.listen(topic, heard.append)
            await subscribed(here, topic)
        there.listen("table:other", elsewhere.append)
        await subscribed(there, "table:other")
        for topic in (first, second):
            found[topic] = (numsub(urls[0], here.channel(topic)), numsub(urls[1], here.channel(topic)))
        await publish(there, "table:other", "not for here")
        await publish(there, first, "to the first")
        await publish(there, second, "to the second")
        await until(lambda: len(heard) == 2 and elsewhere)
        here.unlisten(first, heard.append)
        here.unlisten(second, heard.append)
        await until(lambda: numsub(urls[0], here.channel(first)) == 0 and numsub(urls[1], here.channel(second)) == 0)

    in_own_loop(main)
    assert found == {first: (1, 0), second: (0, 1)}
    assert sorted(heard) == ["to the first", "to the second"] and here.read == 2


def test_a_restart_of_one_bus_server_reports_a_gap_and_later_messages_arrive(servers, made):
    urls = [server.url for server in servers]
    here, there = made(urls), made(urls)
    first, second = on_each_server(here)
    heard: list[str] = []
    gaps: list[int] = []

    async def main() -> None:
        loop.remember()
        here.on_gap(lambda: gaps.append(1))
        for topic in (first, second):
            here.listen(topic, heard.append)
            await subscribed(here, topic)
        await asyncio.to_thread(servers[1].stop)
        await publish(there, second, "lost")  # the server is down: a warning, not an error
        await publish(there, first, "while the second is down")
        await until(lambda: "while the second is down" in heard)
        await asyncio.to_thread(servers[1].start)
        await until(lambda: gaps)  # resubscribed, and told that messages may have been lost
        assert numsub(urls[1], here.channel(second)) == 1
        await publish(there, second, "after the restart")
        await until(lambda: "after the restart" in heard)

    in_own_loop(main)
    assert heard == ["while the second is down", "after the restart"]
    assert here.shards[0].connected.is_set() and here.shards[1].connected.is_set()


# -- the embedded default -----------------------------------------------------------------------------------


def test_the_embedded_bus_delivers_in_the_loop_and_never_needs_a_repair_after_a_listen():
    bus = LocalBus()
    heard: list[str] = []
    repairs: list[int] = []

    async def main() -> None:
        loop.remember()
        bus.listen("table:1", heard.append)
        bus.after_subscribing("table:1", lambda: repairs.append(1))
        bus.publish("table:1", "now")
        bus.publish("table:2", "nobody's")
        await until(lambda: heard)
        await asyncio.sleep(0)  # a repair asked for before the publish would have run before its delivery

    in_own_loop(main)
    assert heard == ["now"] and repairs == []


# -- the settings -------------------------------------------------------------------------------------------


def test_the_bus_is_on_the_redis_servers_the_settings_name_and_a_wrong_one_stops_the_process():
    urls = "redis://127.0.0.1:6501/0,redis://127.0.0.1:6502/0"
    made = shell(
        "import json; from apps.live.bus import bus; print(json.dumps([type(bus()).__name__, bus().urls]))",
        REDIS_URL="redis://127.0.0.1:6503/0",
        REDIS_BUS_URLS=urls,
    )
    assert made == ["RedisBus", urls.split(",")]
    refused = manage(["check"], REDIS_URL="redis://127.0.0.1:6503/0", REDIS_BUS_URLS="http://127.0.0.1:6501")
    assert refused.returncode != 0 and "REDIS_BUS_URLS" in refused.stderr


# -- the subscriber's count of confirmations ----------------------------------------------------------------


def test_a_reply_counts_for_the_oldest_batch_still_waiting_not_for_one_already_confirmed():
    """Two batches sent before the thread reads, and one that changed nothing: each is confirmed once its
    own replies have come (CI once waited 30 s for a batch whose reply had gone to the one before)."""
    pending = Unconfirmed()
    pending.sent(1, 1)  # the first listen
    pending.sent(0, 2)  # unlisten and listen again of one topic: nothing to send
    pending.sent(2, 4)  # two more listens, sent before the first batch's reply was read
    assert pending.take_done() is None
    pending.replied()
    assert pending.take_done() == 2  # the first batch and the empty one after it
    pending.replied()
    assert pending.take_done() is None and len(pending) == 1
    pending.replied()
    assert pending.take_done() == 4 and len(pending) == 0
    pending.replied()  # a reply nobody waits for (a stray) confirms nothing later
    pending.sent(1, 5)
    assert pending.take_done() is None
    pending.replied()
    assert pending.take_done() == 5


@needs_redis
def test_listens_in_quick_bursts_are_all_confirmed(made):
    """Bursts of listens and unlistens with the subscriber thread reading between them, in every
    interleaving the loop gives: every after_subscribing callback comes, and Redis has what is wanted."""
    bus = made([REDIS_URL])
    repaired: list[int] = []
    keep = lambda text: None  # noqa: E731

    async def main() -> None:
        loop.remember()
        for burst in range(60):
            for n in range(burst % 4 + 1):
                topic = f"table:{burst}:{n}"
                bus.listen(topic, keep)
                if n % 2:
                    bus.unlisten(topic, keep)
                    bus.listen(topic, keep)
                bus.after_subscribing(topic, lambda burst=burst: repaired.append(burst))
                if burst % 3 == 0:
                    await asyncio.sleep(0)
            await asyncio.sleep(0.001 * (burst % 3))
        await until(lambda: len(repaired) == sum(burst % 4 + 1 for burst in range(60)))

    in_own_loop(main)
    topics = [topic for topic in bus.listeners]
    found = dict(redis.Redis.from_url(REDIS_URL).pubsub_numsub(*(bus.channel(topic) for topic in topics)))
    assert len(topics) == 150 and set(found.values()) == {1}
