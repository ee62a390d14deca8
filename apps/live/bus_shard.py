"""One Redis server of the live bus, as one process uses it: a publishing client, and one subscriber
connection whose channels follow the listeners the process has.

Why a connection of our own rather than redis-py's PubSub: the subscriber thread must wait on two things
at once, the Redis socket (messages, and the replies to its SUBSCRIBE and UNSUBSCRIBE) and a wake-up from
the server loop (a topic's first listener came or its last went), so that a change is sent at once and
the changes made meanwhile go in one SUBSCRIBE and one UNSUBSCRIBE. PubSub reads only its own socket and
keeps state of its own about what is subscribed; here the thread alone writes and reads the connection,
and `wanted` (the channels the process has listeners for, changed under `lock` by any thread) is the only
thing it shares.

Every change of `wanted` gets a number (`changes`). The thread answers each batch it sends with the
number it covered once Redis has confirmed every channel of it (`applied`): from then on any PUBLISH of
those channels, by anyone, reaches this process. Two things wait on that number:

- a publish from the server loop (`publish_after_listen`) leaves only once the listens made before it are
  in effect, so a room that listens and then asks the others (presence's "who is here?") hears the
  answers;
- `when_subscribed(callback)`: a room that loads its table from the database after listening runs its
  check once the subscription is in effect, so a change committed before it is in the load or the check,
  and one published after it arrives.

After a lost connection the thread connects again, subscribes to everything wanted in one batch, and once
that is confirmed reports a gap (the bus's `on_gap` listeners): what was published meanwhile is lost.
"""

from __future__ import annotations

import logging
import queue
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import redis
from prometheus_client import Counter, Gauge
from redis.crc import key_slot

from apps.live import loop

log = logging.getLogger(__name__)

READ = Counter("rummy_bus_messages_read", "Messages the live bus's subscriber read from Redis (this process)")
SUBSCRIBER_CPU = Counter("rummy_bus_subscriber_cpu_seconds", "CPU time of the live bus's subscriber threads")
CHANNELS = Gauge("rummy_bus_channels", "Redis channels this process's live bus is subscribed to")

#: Channels per SUBSCRIBE or UNSUBSCRIBE command (a reconnect after an outage sends them all at once).
CHUNK = 1000
#: A silent connection is asked for a PING after this long, and given up after twice as long.
IDLE_SECONDS = 15.0
#: The longest a publish from the server loop waits for the listens before it (Redis away: it goes anyway).
BARRIER_SECONDS = 2.0

Message = Callable[[bytes, bytes], None]


class Shard:
    """`deliver(channel, data)` is called in the subscriber thread for every message read; `gap()` there
    after a reconnect's subscriptions are confirmed."""

    def __init__(
        self,
        url: str,
        deliver: Message,
        gap: Callable[[], None],
        *,
        name: str = "live-bus",
        sharded: bool = False,
        lost: Callable[[Shard], None] | None = None,
    ) -> None:
        self.url = url
        # A node of a Redis Cluster: sharded pub/sub (SSUBSCRIBE, SPUBLISH), whose channels live on the
        # node that owns their slot (apps/live/bus_cluster.py); `lost(shard)` is told when its connection fails.
        self.sharded = sharded
        self.lost = lost
        prefix = "S" if sharded else ""
        self.subscribe, self.unsubscribe, self.publish_command = (
            f"{prefix}SUBSCRIBE",
            f"{prefix}UNSUBSCRIBE",
            f"{prefix}PUBLISH",
        )
        self.name = name
        self.deliver = deliver
        self.report_gap = gap
        # Publishes from services' threads: a pool of connections, each a normal (not subscribed) client.
        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.lock = threading.Lock()
        self.applied_changed = threading.Condition(self.lock)
        self.wanted: set[bytes] = set()
        self.changes = 0
        self.applied = 0
        self.waiting: list[tuple[int, Callable[[], None]]] = []
        self.connected = threading.Event()
        self.read = 0  # messages the subscriber read (a count for tests and the bench)
        self._wake_in, self._wake_out = socket.socketpair()
        self._wake_in.setblocking(False)
        self._wake_out.setblocking(False)
        self._subscriber: threading.Thread | None = None
        self._outbox: queue.SimpleQueue[tuple[bytes, str, int] | None] = queue.SimpleQueue()
        self._publisher: threading.Thread | None = None
        self.closed = False

    # -- any thread ------------------------------------------------------------------------------------

    def want(self, channel: bytes) -> None:
        self._change(channel, True)

    def drop(self, channel: bytes) -> None:
        self._change(channel, False)

    def _change(self, channel: bytes, wanted: bool) -> None:
        with self.lock:
            (self.wanted.add if wanted else self.wanted.discard)(channel)
            self.changes += 1
        self._start(subscriber=True)
        self._wake()

    def _wake(self) -> None:
        try:
            self._wake_in.send(b"\0")
        except OSError:  # full (BlockingIOError): the thread has a wake-up pending already
            pass

    def when_subscribed(self, callback: Callable[[], None]) -> None:
        """Call `callback` in the server loop once every change of `wanted` made so far is in effect."""
        with self.lock:
            if self.applied < self.changes:
                self.waiting.append((self.changes, callback))
                return
        loop.call_soon(callback)

    def in_effect(self) -> bool:
        """True if every change of `wanted` made so far is confirmed by Redis."""
        with self.lock:
            return self.applied >= self.changes

    def publish(self, channel: bytes, data: str) -> None:
        """From a thread that may wait (a service after its commit): one PUBLISH, now."""
        try:
            self.client.execute_command(self.publish_command, channel, data)
        except redis.RedisError:
            if self.lost is not None:
                self.lost(self)
            raise

    def publish_after_listen(self, channel: bytes, data: str) -> None:
        """From the server loop, which never waits on Redis: the publisher thread sends it (in order, with
        those queued meanwhile in one round trip) once the listens made before it are in effect."""
        with self.lock:
            barrier = self.changes
        self._outbox.put((channel, data, barrier))
        self._start(subscriber=False)

    def close(self) -> None:
        """Stop the threads (a test's bus, or one forgotten by `reset`); the bus is not used again."""
        self.closed = True
        self._outbox.put(None)
        self._wake()

    def ping(self) -> bool:
        return bool(self.client.ping())

    def _start(self, *, subscriber: bool) -> None:
        attribute = "_subscriber" if subscriber else "_publisher"
        thread = getattr(self, attribute)
        if thread is not None and thread.is_alive():
            return
        with self.lock:
            thread = getattr(self, attribute)
            if thread is None or not thread.is_alive():
                target = self._subscribe_forever if subscriber else self._publish_forever
                name = self.name if subscriber else f"{self.name}-publish"
                thread = threading.Thread(target=target, name=name, daemon=True)
                setattr(self, attribute, thread)
                thread.start()

    # -- the publisher thread --------------------------------------------------------------------------

    def _publish_forever(self) -> None:
        while not self.closed:
            first = self._outbox.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < 100:
                try:
                    queued = self._outbox.get_nowait()
                except queue.Empty:
                    break
                if queued is None:
                    return
                batch.append(queued)
            self._wait_for_listens(max(needed for _, _, needed in batch))
            try:
                pipeline = self.client.pipeline(transaction=False)
                for channel, data, _ in batch:
                    pipeline.execute_command(self.publish_command, channel, data)
                pipeline.execute()
            except Exception as error:  # an outage of Redis: these are lost, as a publish would be
                if self.lost is not None:
                    self.lost(self)
                log.warning("Publishing %d messages failed: %s: %s", len(batch), type(error).__name__, error)

    def _wait_for_listens(self, barrier: int) -> None:
        with self.lock:
            self.applied_changed.wait_for(lambda: self.applied >= barrier, BARRIER_SECONDS)

    # -- the subscriber thread -------------------------------------------------------------------------

    def _subscribe_forever(self) -> None:
        backoff, connected_before = 0.1, False
        while not self.closed:
            connection: Any = None
            try:
                # RESP2: redis-py 8 speaks RESP3 by default, where each message is a push that its parser
                # first formats for a debug log line, escaping every byte (four times the cost of reading it).
                pool = redis.ConnectionPool.from_url(self.url, socket_connect_timeout=5, socket_timeout=10, protocol=2)
                connection = pool.get_connection()
                connection.connect()
                self.connected.set()
                backoff, gap = 0.1, connected_before
                connected_before = True
                self._serve(connection, gap_after_first_batch=gap)
            except Exception as error:
                if self.closed:
                    return
                self.connected.clear()
                if self.lost is not None:
                    self.lost(self)
                log.warning(
                    "The live bus lost Redis at %s (%s: %s); reconnecting in %.1f s",
                    _where(self.url),
                    type(error).__name__,
                    error,
                    backoff,
                )
                time.sleep(backoff)
                backoff = min(5.0, backoff * 2)
            finally:
                if connection is not None:
                    connection.disconnect()

    def _serve(self, connection: Any, *, gap_after_first_batch: bool) -> None:
        subscribed: set[bytes] = set()
        sent = -1  # the number of the last change sent (none yet: the first pass sends what is wanted)
        unconfirmed = Unconfirmed()
        gap_at: int | None = None  # the change whose confirmation ends a reconnect's gap
        heard_at, pinged = time.monotonic(), False
        cpu_at = time.thread_time()
        while not self.closed:
            # 1. Send what changed since the last pass, in one SUBSCRIBE and one UNSUBSCRIBE.
            with self.lock:
                number = self.changes
                wanted = set(self.wanted) if number != sent else subscribed
            if number != sent:
                adding, removing = sorted(wanted - subscribed), sorted(subscribed - wanted)
                commands = [
                    (command, *group)
                    for command, channels in ((self.subscribe, adding), (self.unsubscribe, removing))
                    for group in self._groups(channels)
                ]
                if commands:
                    connection.send_packed_command(connection.pack_commands(commands))  # one write
                subscribed, sent = wanted, number
                unconfirmed.sent(len(adding) + len(removing), number)
                if gap_after_first_batch and gap_at is None:
                    gap_at = number
                CHANNELS.set(len(subscribed))
            # 2. Read every reply that is there (buffered or on the socket) without waiting.
            while connection.can_read(timeout=0):
                reply = connection.read_response()
                heard_at, pinged = time.monotonic(), False
                kind = reply[0] if isinstance(reply, list) else reply
                if kind in (b"message", b"smessage"):
                    self.read += 1
                    READ.inc()
                    self.deliver(reply[1], reply[2])
                elif kind in (b"subscribe", b"unsubscribe", b"ssubscribe", b"sunsubscribe"):
                    unconfirmed.replied()
                if kind == b"sunsubscribe" and reply[1] in self.wanted:
                    # A cluster node drops the sharded subscriptions of a slot it no longer owns (a
                    # failover, a resharding): find the slot's new owner (bus_cluster), as after a loss.
                    raise ConnectionError(f"the node gave up {reply[1]!r}: its slot moved")
            done = unconfirmed.take_done()
            if done is not None:
                self._applied(done)
                if gap_at is not None and done >= gap_at:
                    gap_at, gap_after_first_batch = None, False
                    log.warning("The live bus is back on %s", _where(self.url))
                    self.report_gap()
            now = time.thread_time()
            SUBSCRIBER_CPU.inc(now - cpu_at)
            cpu_at = now
            # 3. Wait for Redis or for a change of `wanted`.
            ready, _, _ = select.select([connection._sock, self._wake_out], [], [], IDLE_SECONDS / 3)
            if self._wake_out in ready:
                try:
                    while self._wake_out.recv(4096):
                        pass
                except (BlockingIOError, InterruptedError):
                    pass
            silent = time.monotonic() - heard_at
            if silent > 2 * IDLE_SECONDS:
                raise ConnectionError(f"no answer to a PING in {silent:.0f} s")
            if silent > IDLE_SECONDS and not pinged:
                connection.send_command("PING")  # answered in and out of the subscribed state
                pinged = True

    def _groups(self, channels: list[bytes]) -> list[list[bytes]]:
        """The channels of one SUBSCRIBE each: CHUNK at a time, or on a cluster node those of one slot
        (SSUBSCRIBE takes channels of a single slot; in practice a table's topics are one channel each)."""
        if not self.sharded:
            return [channels[at : at + CHUNK] for at in range(0, len(channels), CHUNK)]
        by_slot: dict[int, list[bytes]] = {}
        for channel in channels:
            by_slot.setdefault(key_slot(channel), []).append(channel)
        return list(by_slot.values())

    def _applied(self, number: int) -> None:
        with self.lock:
            self.applied = max(self.applied, number)
            due = [callback for needed, callback in self.waiting if needed <= self.applied]
            self.waiting = [(needed, callback) for needed, callback in self.waiting if needed > self.applied]
            self.applied_changed.notify_all()
        for callback in due:
            loop.call_soon(callback)


class Unconfirmed:
    """The batches sent on one subscriber connection whose replies have not all come, oldest first: Redis
    answers each channel of a SUBSCRIBE or UNSUBSCRIBE with one reply, in the order they were sent.

    A reply belongs to the oldest batch that still has replies due, not to the head of the queue: two
    batches can be sent before the thread reads (the second change comes while the first batch's replies
    are on their way), and a batch that changed nothing (a socket closed and another opened for the same
    table: listen, unlisten, listen) has none due. Counting every reply against the head drove it below
    zero and left the next batch one reply short for ever, so its `when_subscribed` callbacks never ran.
    """

    def __init__(self) -> None:
        self._batches: deque[list[int]] = deque()  # [replies still due, change number]
        self._done: int | None = None

    def sent(self, replies: int, number: int) -> None:
        self._batches.append([replies, number])
        self._settle()

    def replied(self) -> None:
        """One reply read; a reply with no batch waiting for it (a PING's, or a stray) changes nothing."""
        self._settle()
        if self._batches:
            self._batches[0][0] -= 1
            self._settle()

    def take_done(self) -> int | None:
        """The number of the newest change whose batch, and every batch before it, is confirmed since the
        last call (None if none is)."""
        done, self._done = self._done, None
        return done

    def _settle(self) -> None:
        while self._batches and self._batches[0][0] <= 0:
            self._done = self._batches.popleft()[1]

    def __len__(self) -> int:
        return len(self._batches)


def _where(url: str) -> str:
    """host:port of a Redis URL (never its password)."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or 6379}" if parts.hostname else parts.path
