"""One publish per change, delivered to the listeners of its topic in every web process.

    bus().publish("table:12", text)          # any thread of any process (web, worker), after commit
    bus().listen("table:12", callback)       # in the web server's loop: callback(text) runs there

On the real stack this is Redis pub/sub: one channel for the whole site, one PUBLISH per change, and in
each web process one subscriber thread that hands every message to the server loop, where the topic's
listeners get it (the process drops topics it has no listener for before decoding anything). lila-ws
routes one Redis channel to its sockets the same way. On the embedded default (no Redis) the process
is the whole site: a publish goes straight to the loop.

Pub/sub keeps nothing: a message published while a subscriber is reconnecting is lost. Listeners learn
of such a gap (`on_gap`) and must not depend on every message arriving anyway: the table sockets check
their versions against the database every second (apps/tables/rooms.py).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from apps.live import loop

log = logging.getLogger(__name__)

Listener = Callable[[str], None]
_chaos = random.SystemRandom()  # which publishes the chaos drill loses


class Bus:
    def __init__(self) -> None:
        self.listeners: dict[str, list[Listener]] = {}
        self.gap_listeners: list[Callable[[], None]] = []
        self.drop_rate = float(getattr(settings, "LIVE_BUS_DROP_RATE", 0.0))  # the chaos drill's lost messages
        self.published = 0

    # -- any thread ------------------------------------------------------------------------------------

    def publish(self, topic: str, data: str) -> None:
        """Send `data` to the listeners of `topic` everywhere. Never raises: a lost message is repaired by
        the listeners' own checks, and the caller (a service after its commit) must not break."""
        if "\n" in topic:
            raise ValueError(f"a topic has no newline: {topic!r}")
        if self.drop_rate and _chaos.random() < self.drop_rate:
            return
        self.published += 1
        try:
            self._send(topic, data)
        except Exception as error:  # an outage of Redis: one line, not a traceback
            log.warning("Publishing to %s failed: %s: %s", topic, type(error).__name__, error)

    def _send(self, topic: str, data: str) -> None:
        raise NotImplementedError

    # -- the server loop -------------------------------------------------------------------------------

    def listen(self, topic: str, listener: Listener) -> None:
        self.listeners.setdefault(topic, []).append(listener)

    def unlisten(self, topic: str, listener: Listener) -> None:
        listeners = self.listeners.get(topic)
        if listeners and listener in listeners:
            listeners.remove(listener)
            if not listeners:
                del self.listeners[topic]

    def on_gap(self, listener: Callable[[], None]) -> None:
        if listener not in self.gap_listeners:
            self.gap_listeners.append(listener)

    def deliver(self, topic: str, data: str) -> None:
        for listener in list(self.listeners.get(topic, ())):
            try:
                listener(data)
            except Exception:
                log.exception("A listener of %s failed", topic)

    def gap(self) -> None:
        for listener in list(self.gap_listeners):
            try:
                listener()
            except Exception:
                log.exception("A gap listener failed")


class LocalBus(Bus):
    """The embedded default: this process is the whole site."""

    def _send(self, topic: str, data: str) -> None:
        loop.call_soon(self.deliver, topic, data)  # no server loop: nobody is listening


class RedisBus(Bus):
    def __init__(self, url: str, channel: str) -> None:
        super().__init__()
        import redis

        self.url = url
        self.channel = channel
        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._subscriber: threading.Thread | None = None
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self._outbox: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._publisher: threading.Thread | None = None

    def _send(self, topic: str, data: str) -> None:
        message = f"{topic}\n{data}"
        if asyncio._get_running_loop() is None:  # a service's thread, after its commit: publish now
            self.client.publish(self.channel, message)
            return
        # The server loop (a socket opened or closed: presence, owners) never waits on Redis: the
        # publisher thread sends its messages in order, those queued meanwhile in one round trip.
        self._outbox.put(message)
        if self._publisher is None or not self._publisher.is_alive():
            with self._lock:
                if self._publisher is None or not self._publisher.is_alive():
                    self._publisher = threading.Thread(target=self._publish_forever, name="live-publish", daemon=True)
                    self._publisher.start()

    def _publish_forever(self) -> None:
        while True:
            batch = [self._outbox.get()]
            while len(batch) < 100:
                try:
                    batch.append(self._outbox.get_nowait())
                except queue.Empty:
                    break
            try:
                pipeline = self.client.pipeline(transaction=False)
                for message in batch:
                    pipeline.publish(self.channel, message)
                pipeline.execute()
            except Exception as error:  # an outage of Redis: these are lost, as a publish would be
                log.warning("Publishing %d messages failed: %s: %s", len(batch), type(error).__name__, error)

    def listen(self, topic: str, listener: Listener) -> None:
        super().listen(topic, listener)
        self.start()

    def start(self) -> None:
        with self._lock:
            if self._subscriber is None or not self._subscriber.is_alive():
                self._subscriber = threading.Thread(target=self._subscribe_forever, name="live-bus", daemon=True)
                self._subscriber.start()

    def _subscribe_forever(self) -> None:
        import redis

        backoff, subscribed_before = 0.1, False
        while True:
            pubsub: Any = None
            try:
                # RESP2: redis-py 8 speaks RESP3 by default, where each message is a push that its parser
                # first formats for a debug log line, escaping every byte (four times the cost of reading it).
                client = redis.Redis.from_url(self.url, socket_connect_timeout=5, health_check_interval=10, protocol=2)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel)
                self.connected.set()
                if subscribed_before:  # messages published while we were away are lost
                    log.warning("The live bus is back on %s", self.channel)
                    loop.call_soon(self.gap)
                subscribed_before, backoff = True, 0.1
                while True:
                    message = pubsub.get_message(timeout=5.0)
                    if message is None or message.get("type") != "message":
                        continue
                    raw = message["data"]
                    text = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
                    topic, _, data = text.partition("\n")
                    if topic in self.listeners:  # read without a lock: a stale answer costs one message
                        loop.call_soon(self.deliver, topic, data)
            except Exception as error:
                self.connected.clear()
                log.warning("The live bus lost Redis (%s: %s); reconnecting in %.1f s", type(error).__name__, error,
                            backoff)
                time.sleep(backoff)
                backoff = min(5.0, backoff * 2)
            finally:
                if pubsub is not None:
                    try:
                        pubsub.close()
                    except Exception:
                        pass


_bus: Bus | None = None
_bus_lock = threading.Lock()


def bus() -> Bus:
    """This process's bus (made on first use from LIVE_BUS_URL: Redis, or none for the local bus)."""
    global _bus
    if _bus is None:
        with _bus_lock:
            if _bus is None:
                url = getattr(settings, "LIVE_BUS_URL", None)
                _bus = RedisBus(url, settings.LIVE_BUS_CHANNEL) if url else LocalBus()
    return _bus


def reset() -> None:
    """Forget the bus (tests that change LIVE_BUS_URL)."""
    global _bus
    _bus = None
