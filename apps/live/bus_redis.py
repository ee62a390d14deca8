"""The live bus on Redis pub/sub: one channel per topic, on one Redis server or spread over several.

A topic ("table:12", "presence:12", "owner:user:7", "lobby") is the channel `<LIVE_BUS_CHANNEL>:<topic>`,
on the server that a stable hash of the topic picks from LIVE_BUS_URLS (CRC-32 modulo their number: every
process of the site must be given the same list in the same order). A web process subscribes to a
channel while it has a listener for the topic and unsubscribes when the last one goes
(apps/live/bus_shard.py: one subscriber connection per server per process, the changes batched), so Redis
sends a table's changes only to the processes with a socket at that table, and each process's subscriber
reads only those: its cost follows its own sockets, not the whole site's moves. The site-wide topics
(the lobby) are one channel each, read by every process with a lobby socket.

Why a channel per topic and not a few hashed lanes (lila-ws splits its round traffic into 16): with
lanes every process reads the messages of every table of each lane it listens to, which is again the
whole site once a process has sockets at a few hundred tables. Redis keeps a channel's subscribers in a
hash table, so a PUBLISH costs the same with 10 channels or 100,000, and a SUBSCRIBE is one hash insert.
"""

from __future__ import annotations

import asyncio
import threading
import zlib
from collections.abc import Callable

from apps.live import loop
from apps.live.bus_local import Bus, Listener
from apps.live.bus_shard import Shard


class RedisBus(Bus):
    def __init__(self, urls: list[str] | str, prefix: str) -> None:
        super().__init__()
        self.urls = [urls] if isinstance(urls, str) else list(urls)
        if not self.urls:
            raise ValueError("the Redis bus needs at least one Redis URL")
        self.prefix = prefix
        self._head = f"{prefix}:".encode()
        self.shards = [
            Shard(url, self._heard, self._gap_soon, name=f"live-bus-{index}") for index, url in enumerate(self.urls)
        ]
        self.client = self.shards[0].client
        # listen() and unlisten() come from the server loop; a test may call them from another thread.
        self._lock = threading.Lock()

    def channel(self, topic: str) -> bytes:
        return self._head + topic.encode()

    def shard_of(self, topic: str) -> Shard:
        if len(self.shards) == 1:
            return self.shards[0]
        return self.shards[zlib.crc32(topic.encode()) % len(self.shards)]

    @property
    def read(self) -> int:
        """Messages this process's subscribers have read, on every server."""
        return sum(shard.read for shard in self.shards)

    def close(self) -> None:
        for shard in self.shards:
            shard.close()

    def ping(self) -> bool:
        return all(shard.ping() for shard in self.shards)

    # -- any thread ------------------------------------------------------------------------------------

    def _send(self, topic: str, data: str) -> None:
        shard = self.shard_of(topic)
        if asyncio._get_running_loop() is None:  # a service's thread, after its commit: publish now
            shard.publish(self.channel(topic), data)
        else:  # the server loop (a socket opened or closed: presence, owners) never waits on Redis
            shard.publish_after_listen(self.channel(topic), data)

    # -- the server loop -------------------------------------------------------------------------------

    def listen(self, topic: str, listener: Listener) -> None:
        with self._lock:
            first = topic not in self.listeners
            super().listen(topic, listener)
            if first:
                self.shard_of(topic).want(self.channel(topic))

    def unlisten(self, topic: str, listener: Listener) -> None:
        with self._lock:
            had = topic in self.listeners
            super().unlisten(topic, listener)
            if had and topic not in self.listeners:
                self.shard_of(topic).drop(self.channel(topic))

    def after_subscribing(self, topic: str, repair: Callable[[], None]) -> None:
        self.shard_of(topic).when_subscribed(repair)

    def listening(self, topic: str) -> bool:
        return self.shard_of(topic).in_effect()

    # -- the subscriber threads ------------------------------------------------------------------------

    def _heard(self, channel: bytes, data: bytes) -> None:
        if not channel.startswith(self._head):
            return
        topic = channel[len(self._head) :].decode()
        if topic in self.listeners:  # read without the lock: a stale answer costs one message
            loop.call_soon(self.deliver, topic, data.decode())

    def _gap_soon(self) -> None:
        loop.call_soon(self.gap)
