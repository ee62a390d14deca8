"""The live bus on a Redis Cluster, with Redis 7's sharded pub/sub (LIVE_BUS_CLUSTER_URL).

A topic's channel lives on the master that owns its hash slot, as a key would: the process publishes
there with SPUBLISH and subscribes there with SSUBSCRIBE, one subscriber connection per master
(apps/live/bus_shard.py, sharded). Unlike the classic pub/sub of a cluster, which copies every message to
every node, a sharded message stays on its own node and its replicas, so the cluster's pub/sub grows with
its masters.

The slot map is read with CLUSTER SLOTS from any node that answers, at the start and again whenever a
node's subscriber connection fails or a node drops a subscription (its slot moved: a failover, a
resharding). Channels whose slot has a new owner are subscribed there, and once they are the bus
reports a gap (`on_gap`): what was published meanwhile is lost, as after any reconnect.
"""

from __future__ import annotations

import logging
import threading
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.crc import key_slot
from redis.exceptions import MovedError

from apps.live.bus_local import Bus
from apps.live.bus_redis import RedisBus
from apps.live.bus_shard import Shard

log = logging.getLogger(__name__)

SLOTS = 16384


class ClusterBus(RedisBus):
    def __init__(self, url: str, prefix: str) -> None:
        self.seed = url
        self.known: list[str] = [url]  # node URLs to ask for the slot map (every master seen, and the seed)
        self._refresh_lock = threading.Lock()
        owners = self._read_slots()
        Bus.__init__(self)
        self.urls = [url]
        self.prefix = prefix
        self._head = f"{prefix}:".encode()
        self._lock = threading.Lock()
        self.shards: list[Shard] = []
        self.by_url: dict[str, Shard] = {}
        self.owner: list[Shard] = []
        self._place(owners)

    def _shard(self, url: str) -> Shard:
        shard = self.by_url.get(url)
        if shard is None:
            shard = Shard(
                url, self._heard, self._gap_soon, name=f"live-bus-{_where(url)}", sharded=True, lost=self._lost
            )
            self.by_url[url] = shard
            self.shards.append(shard)
        return shard

    def _place(self, owners: list[str]) -> None:
        self.owner = [self._shard(url) for url in owners]
        self.client = self.owner[0].client
        self.known = sorted({*owners, self.seed})

    def _send(self, topic: str, data: str) -> None:
        try:
            super()._send(topic, data)
        except MovedError:
            super()._send(topic, data)  # once more, to the owner the slot map now names (Shard.lost read it)

    def shard_of(self, topic: str) -> Shard:
        return self.owner[key_slot(self.channel(topic))]

    def _read_slots(self) -> list[str]:
        """The URL of each slot's master, from the first node that answers."""
        for url in list(self.known):
            try:
                rows = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2).execute_command(
                    "CLUSTER SLOTS"
                )
            except redis.RedisError:
                continue
            owners = [""] * SLOTS
            for start, end, master, *_ in rows:
                host = master[0].decode() if isinstance(master[0], bytes) else str(master[0])
                for slot in range(int(start), int(end) + 1):
                    owners[slot] = _node_url(url, host or _host(url), int(master[1]))
            if all(owners):
                return owners
        raise redis.ConnectionError(f"no node of the cluster answered with every slot covered: {self.known}")

    def _lost(self, shard: Shard) -> None:
        """In a node's subscriber thread, after its connection failed: read the map again and move the
        channels whose slot moved (their listeners get a gap once they are subscribed at the new owner)."""
        with self._refresh_lock:
            try:
                owners = self._read_slots()
            except redis.RedisError as error:
                log.warning("The live bus could not read the cluster's slots: %s", error)
                return
            with self._lock:
                before = {topic: self.shard_of(topic) for topic in self.listeners}
                self._place(owners)
                moved = [topic for topic, old in before.items() if self.shard_of(topic) is not old]
                for topic in moved:
                    before[topic].drop(self.channel(topic))
                    self.shard_of(topic).want(self.channel(topic))
            if moved:
                log.warning("The live bus moved %d channels to their slots' new owners", len(moved))
                for new in {self.shard_of(topic) for topic in moved}:
                    new.when_subscribed(self.gap)
            for url, old in list(self.by_url.items()):
                if old not in self.owner and not old.wanted:  # a master no more: its threads stop
                    del self.by_url[url]
                    self.shards.remove(old)
                    old.close()


def _host(url: str) -> str:
    return urlsplit(url).hostname or "127.0.0.1"


def _node_url(seed: str, host: str, port: int) -> str:
    """A node's URL: the seed's scheme and credentials, the node's address."""
    parts = urlsplit(seed)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@{host}:{port}" if credentials else f"{host}:{port}"
    return urlunsplit((parts.scheme, netloc, "/0", "", ""))


def _where(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port}"
