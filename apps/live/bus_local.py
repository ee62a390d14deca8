"""The listeners of one process, and the bus of the embedded default (no Redis: this process is the whole
site, so a publish goes straight to the server loop). The Redis bus (apps/live/bus_redis.py) keeps its
listeners the same way and only adds how a publish reaches the other processes."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

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

    def close(self) -> None:
        """Stop what the bus runs of its own (a test's bus, or one forgotten by `reset`)."""

    # -- the server loop -------------------------------------------------------------------------------

    def listen(self, topic: str, listener: Listener) -> None:
        self.listeners.setdefault(topic, []).append(listener)

    def unlisten(self, topic: str, listener: Listener) -> None:
        listeners = self.listeners.get(topic)
        if listeners and listener in listeners:
            listeners.remove(listener)
            if not listeners:
                del self.listeners[topic]

    def after_subscribing(self, topic: str, repair: Callable[[], None]) -> None:
        """If the listens of `topic` made so far may have missed publishes (on Redis: until their SUBSCRIBE
        reached it), call `repair` in the server loop once they can no longer miss any. A listen here is in
        effect when it returns: this bus never calls it."""

    def listening(self, topic: str) -> bool:
        """True if the listens of `topic` made so far can miss no publish from now on (here: at once). A
        listener that read its state before this was true asks `after_subscribing` for a second read."""
        return True

    async def until_listening(self, topics: list[str], ceiling: float = 2.0) -> bool:
        """In the server loop: wait until the listens of `topics` made so far can miss nothing (one round
        trip to Redis after a new topic's listen; at once if they already can). False if that took longer
        than `ceiling` (Redis away): then read now, and again from `after_subscribing`."""
        waiting = [topic for topic in topics if not self.listening(topic)]
        if not waiting:
            return True
        done, left = asyncio.Event(), [len(waiting)]

        def one() -> None:
            left[0] -= 1
            if not left[0]:
                done.set()

        for topic in waiting:
            self.after_subscribing(topic, one)
        try:
            await asyncio.wait_for(done.wait(), ceiling)
        except TimeoutError:
            return False
        return True

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
