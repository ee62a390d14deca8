"""How many WebSockets one user and one address hold, across every web process (SPEC 11 limits).

    counts = counter()
    over = await counts.acquire(("u:7", "a:203.0.113.9"), (20, 50))   # None: admitted, else the key over
    ...
    counts.release(("u:7", "a:203.0.113.9"))

Each process counts its own sockets in memory. On the real stack (LIVE_BUS_URL, Redis) it also mirrors
them in a Redis hash of its own, which expires unless the process keeps it alive (`keep_alive`, every
HEARTBEAT_SECONDS, rewrites it whole): a process that crashed stops counting within EXPIRY_SECONDS, and
a Redis that lost its data is refilled at the next beat. A connection is counted first and checked
after (the sum over the live processes' hashes), so two sockets opened at the same moment never both
slip past the limit; the one over it is uncounted at once. Without Redis, the process is the site.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.conf import settings

from apps.live import loop
from apps.live.threads import off_loop

log = logging.getLogger(__name__)

#: How often a process rewrites its hash, and how long the hash outlives a process that stopped.
HEARTBEAT_SECONDS = 20.0
EXPIRY_SECONDS = 60


class Counts:
    """This process's sockets, counted by key (the embedded default: the process is the whole site)."""

    def __init__(self) -> None:
        self.local: Counter[str] = Counter()
        self._lock = threading.Lock()

    def _changed(self, key: str, delta: int) -> None:
        """One key's count moved by `delta` (called under the lock, with the change)."""

    async def acquire(self, keys: Sequence[str], limits: Sequence[int]) -> str | None:
        """Count one socket under every key; None if each is within its limit, else (uncounted again) the
        first key that is over."""
        with self._lock:
            for key in keys:
                self.local[key] += 1
                self._changed(key, 1)
        totals = await self.totals(keys)
        over = next((key for key, total, limit in zip(keys, totals, limits, strict=True) if total > limit), None)
        if over is not None:
            self.release(keys)
        return over

    def release(self, keys: Sequence[str]) -> None:
        """Uncount one socket. Only keys this process counts are uncounted: a count never goes below
        nothing (a socket counted by counts since forgotten, `reset`, must not lower the others')."""
        with self._lock:
            held = [key for key in keys if self.local.get(key, 0) > 0]
            for key in held:
                self.local[key] -= 1
                self._changed(key, -1)
                if self.local[key] <= 0:
                    del self.local[key]
        if held:
            self.released(held)

    async def totals(self, keys: Sequence[str]) -> list[int]:
        return [self.local[key] for key in keys]

    def peek(self, keys: Sequence[str]) -> list[int]:
        """The counts of `keys` now, counting nothing (who is online: the friends list). Blocking: call
        it from a request or a thread."""
        return [self.local.get(key, 0) for key in keys]

    def released(self, keys: Sequence[str]) -> None:
        pass

    async def beat(self) -> None:
        pass


class RedisCounts(Counts):
    """The same counts, summed over every live process through Redis.

    The hash follows the memory counts one change at a time (a socket counted, then its increment sent),
    and the beat rewrites it whole: so the beat writes what the hash must hold once the changes still on
    their way arrive (`unsent`), and no change is sent while the beat writes. (A beat that wrote the
    memory counts as they were let the next socket's check see the hash without the sockets counted
    meanwhile: one over the limit slipped in.)"""

    def __init__(self, url: str, prefix: str, process: str | None = None) -> None:
        super().__init__()
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self.process = process or uuid.uuid4().hex
        self.processes_key = f"{prefix}:sockets"
        self.prefix = prefix
        #: Changes counted in memory whose increments the hash has not had yet (under the lock).
        self.unsent: Counter[str] = Counter()
        #: Held while the hash is written: by each change's increments, and by the beat.
        self._writing = threading.Lock()

    def _changed(self, key: str, delta: int) -> None:
        self.unsent[key] += delta

    def _sent(self, keys: Sequence[str], delta: int) -> None:
        """The increments of one change reached Redis, or failed to (the next beat writes them)."""
        with self._lock:
            for key in keys:
                self.unsent[key] -= delta
                if self.unsent[key] == 0:
                    del self.unsent[key]

    def hash_of(self, process: str) -> str:
        return f"{self.processes_key}:{process}"

    def _totals(self, keys: Sequence[str]) -> list[int]:
        now = time.time()
        mine = self.hash_of(self.process)
        pipe = self.client.pipeline()
        for key in keys:
            pipe.hincrby(mine, key, 1)
        pipe.expire(mine, EXPIRY_SECONDS)
        pipe.zadd(self.processes_key, {self.process: now + EXPIRY_SECONDS})
        pipe.zremrangebyscore(self.processes_key, "-inf", now)
        pipe.zrange(self.processes_key, 0, -1)
        with self._writing:
            try:
                done = pipe.execute()
            finally:
                self._sent(keys, 1)
        return self._summed(done[-1], keys)

    def _summed(self, processes: Sequence[Any], keys: Sequence[str]) -> list[int]:
        """The counts of `keys` summed over these processes' hashes (one round trip)."""
        pipe = self.client.pipeline()
        for process in processes:
            pipe.hmget(self.hash_of(process.decode() if isinstance(process, bytes) else str(process)), list(keys))
        totals = [0] * len(keys)
        for row in pipe.execute():
            for index, value in enumerate(row):
                totals[index] += int(value or 0)
        return totals

    def peek(self, keys: Sequence[str]) -> list[int]:
        """Summed over the live processes, counting nothing; this process's own if Redis is away."""
        if not keys:
            return []
        try:
            return self._summed(self.client.zrangebyscore(self.processes_key, time.time(), "+inf"), keys)
        except Exception as error:
            log.warning("Reading socket counts in Redis failed (%s: %s); reading this process only",
                        type(error).__name__, error)
            return super().peek(keys)

    async def totals(self, keys: Sequence[str]) -> list[int]:
        try:
            return await off_loop(self._totals)(keys)
        except Exception as error:  # Redis is away: this process's own count is the best there is
            log.warning("Counting sockets in Redis failed (%s: %s); counting this process only",
                        type(error).__name__, error)
            return await super().totals(keys)

    def released(self, keys: Sequence[str]) -> None:
        def run() -> None:
            try:
                pipe = self.client.pipeline()
                for key in keys:
                    pipe.hincrby(self.hash_of(self.process), key, -1)
                with self._writing:
                    try:
                        pipe.execute()
                    finally:
                        self._sent(keys, -1)
            except Exception as error:
                log.warning("Uncounting sockets in Redis failed (%s: %s)", type(error).__name__, error)

        running = loop.current()
        if running is not None and loop.in_loop_thread():
            running.run_in_executor(None, run)
        else:
            run()

    def _beat(self) -> None:
        mine = self.hash_of(self.process)
        with self._writing:
            with self._lock:
                sent = self.local.copy()
                sent.subtract(self.unsent)  # the changes on their way add themselves when they arrive
            pipe = self.client.pipeline()
            pipe.delete(mine)
            written: dict[Any, Any] = {key: count for key, count in sent.items() if count != 0}
            if written:
                pipe.hset(mine, mapping=written)
            pipe.expire(mine, EXPIRY_SECONDS)
            pipe.zadd(self.processes_key, {self.process: time.time() + EXPIRY_SECONDS})
            pipe.execute()

    async def beat(self) -> None:
        try:
            await off_loop(self._beat)()
        except Exception as error:
            log.warning("Keeping the socket counts alive failed (%s: %s)", type(error).__name__, error)


_counts: Counts | None = None
_counts_lock = threading.Lock()


def counter() -> Counts:
    """This process's counts (made on first use from LIVE_BUS_URL: Redis, or in memory)."""
    global _counts
    if _counts is None:
        with _counts_lock:
            if _counts is None:
                url = getattr(settings, "LIVE_BUS_URL", None)
                _counts = RedisCounts(url, settings.LIVE_BUS_CHANNEL) if url else Counts()
    return _counts


def reset() -> None:
    """Forget the counts (tests that change LIVE_BUS_URL, and each test's fresh start); on Redis their
    hash goes too, so the forgotten sockets count nowhere."""
    global _counts
    old, _counts = _counts, None
    if isinstance(old, RedisCounts):
        try:
            old.client.delete(old.hash_of(old.process))
            old.client.zrem(old.processes_key, old.process)
        except Exception as error:  # Redis away: the hash expires by itself
            log.warning("Forgetting the socket counts in Redis failed (%s: %s)", type(error).__name__, error)


async def keep_alive() -> None:
    """The per-process heartbeat of the counts (started with the server loop by apps.live.loop)."""
    while True:
        await counter().beat()
        await asyncio.sleep(HEARTBEAT_SECONDS)


def limits() -> tuple[int, int]:
    """(sockets per user, sockets per address): settings LIVE_SOCKETS_PER_USER and LIVE_SOCKETS_PER_ADDRESS."""
    return (int(getattr(settings, "LIVE_SOCKETS_PER_USER", 20)), int(getattr(settings, "LIVE_SOCKETS_PER_ADDRESS", 50)))


def user_key(user_id: int) -> str:
    """The key a signed-in user's sockets are counted under."""
    return f"u:{user_id}"


def keys_of(user_id: int | None, address: str | None) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The keys a socket is counted under, and their limits.

    >>> keys_of(7, "203.0.113.9")[0]
    ('u:7', 'a:203.0.113.9')
    >>> keys_of(None, None)
    ((), ())
    """
    per_user, per_address = limits()
    keys: list[str] = []
    caps: list[int] = []
    if user_id is not None:
        keys.append(user_key(user_id))
        caps.append(per_user)
    if address:
        keys.append(f"a:{address}")
        caps.append(per_address)
    return tuple(keys), tuple(caps)


loop.on_start(keep_alive)
