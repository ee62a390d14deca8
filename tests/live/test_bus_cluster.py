"""The live bus on a Redis Cluster of the test's own (three masters on free ports, no replicas, in a
temporary directory): sharded pub/sub, each channel subscribed on the master that owns its slot, and
moved to the new owner when its slot moves. Skipped where redis-server cannot start a cluster."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from redis.crc import key_slot

from apps.live import loop
from apps.live.bus import ClusterBus
from tests.live.helpers import in_own_loop
from tests.live.test_bus import free_port

PORTS = tuple(free_port() for _ in range(3))
CEILING = 30.0


@pytest.fixture(autouse=True)
def the_bus_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's loop starts no app's background work (it would reach the database): only the bus runs."""
    monkeypatch.setattr(loop, "_starters", [])


def wait_for(condition: Callable[[], bool], what: str) -> None:
    for _ in range(int(CEILING / 0.05)):  # counted steps with a generous ceiling, not the clock
        if condition():
            return
        time.sleep(0.05)
    assert condition(), what


def cluster_ok() -> bool:
    try:
        return bool(redis.Redis(port=PORTS[0]).execute_command("CLUSTER INFO").get("cluster_state") == "ok")
    except redis.RedisError:
        return False


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.skip("no redis-server to start a cluster with")
    for port in PORTS:
        assert not _answers(port), f"someone else's server answers on {port}"
        directory = tmp_path / str(port)
        directory.mkdir()
        subprocess.run(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                        "--cluster-config-file", str(directory / "nodes.conf"), "--save", "", "--appendonly", "no",
                        "--daemonize", "yes", "--dir", str(directory)], check=True, capture_output=True)
    try:
        for port in PORTS:
            wait_for(lambda port=port: _answers(port), f"redis-server on {port} did not start")
        subprocess.run(["redis-cli", "--cluster", "create", *(f"127.0.0.1:{port}" for port in PORTS),
                        "--cluster-replicas", "0", "--cluster-yes"], check=True, capture_output=True, timeout=60)
        wait_for(cluster_ok, "the cluster did not come up")
        yield f"redis://127.0.0.1:{PORTS[0]}/0"
    finally:
        for port in PORTS:
            try:
                redis.Redis(port=port).shutdown(nosave=True)
            except redis.RedisError:
                pass


def _answers(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port).ping())
    except redis.RedisError:
        return False


def owner_port(channel: bytes) -> int:
    for start, end, master, *_ in redis.Redis(port=PORTS[0]).execute_command("CLUSTER SLOTS"):
        if int(start) <= key_slot(channel) <= int(end):
            return int(master[1])
    raise AssertionError("no owner")


def shardnumsub(port: int, channel: bytes) -> int:
    return int(redis.Redis(port=port).execute_command("PUBSUB SHARDNUMSUB", channel)[0][1])


async def until(condition: Callable[[], object]) -> None:
    deadline = asyncio.get_running_loop().time() + CEILING
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the condition did not come true in time"
        await asyncio.sleep(0.02)


def test_each_channel_is_subscribed_on_the_master_of_its_slot_and_its_messages_cross(cluster):
    prefix = f"test-cluster:{uuid.uuid4().hex[:8]}"
    here, there = ClusterBus(cluster, prefix), ClusterBus(cluster, prefix)
    topics = [f"table:{n}" for n in range(30)]
    heard: list[str] = []
    where: dict[str, list[int]] = {}

    async def main() -> None:
        loop.remember()
        for topic in topics:
            here.listen(topic, heard.append)
        done = asyncio.Event()
        for shard in here.shards:
            shard.when_subscribed(done.set)
            await asyncio.wait_for(done.wait(), CEILING)
            done.clear()
        for topic in topics:
            channel = here.channel(topic)
            where[topic] = [port for port in PORTS if shardnumsub(port, channel)]
        for topic in topics:
            await asyncio.to_thread(there.publish, topic, topic)
        await until(lambda: len(heard) == len(topics))

    try:
        in_own_loop(main)
    finally:
        here.close()
        there.close()
    assert where == {topic: [owner_port(here.channel(topic))] for topic in topics}
    assert len({ports[0] for ports in where.values()}) == 3  # on every master
    assert sorted(heard) == sorted(topics) and here.read == len(topics)


def test_a_channel_whose_slot_moves_is_subscribed_at_its_new_owner_and_its_listeners_told_of_a_gap(cluster):
    prefix = f"test-cluster:{uuid.uuid4().hex[:8]}"
    here, there = ClusterBus(cluster, prefix), ClusterBus(cluster, prefix)
    topic = "table:1"
    channel = here.channel(topic)
    slot = key_slot(channel)
    old = owner_port(channel)
    new = next(port for port in PORTS if port != old)
    heard: list[str] = []
    gaps: list[int] = []

    async def main() -> None:
        loop.remember()
        here.on_gap(lambda: gaps.append(1))
        here.listen(topic, heard.append)
        done = asyncio.Event()
        here.after_subscribing(topic, done.set)
        await asyncio.wait_for(done.wait(), CEILING)
        # The slot (empty: nothing to migrate) is given to another master, as a resharding does.
        new_id = redis.Redis(port=new).execute_command("CLUSTER MYID")
        for port in (new, old):
            redis.Redis(port=port).execute_command("CLUSTER SETSLOT", slot, "NODE", new_id)
        await until(lambda: gaps)
        await until(lambda: shardnumsub(new, channel) == 1)
        await asyncio.to_thread(there.publish, topic, "after the move")
        await until(lambda: heard)

    try:
        in_own_loop(main)
    finally:
        here.close()
        there.close()
    assert heard == ["after the move"] and shardnumsub(old, channel) == 0
