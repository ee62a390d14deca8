"""Sending to channel-layer groups from anywhere: an event loop, a request thread or a worker thread.

In the web process every send is handed to daphne's event loop (remembered by `remember_server_loop`,
called from the ASGI entry point): the in-memory layer is not thread-safe (its queues belong to that
loop), and channels-redis keeps one connection pool per event loop, which the consumers already use.

Elsewhere (a Celery worker, a management command) channels-redis sends go through one long-lived event
loop in a background thread of this process. `async_to_sync` would make a new event loop, thread and
Redis connection for every send: 3.6 ms of CPU each, against 0.26 ms through the kept loop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

log = logging.getLogger(__name__)

try:
    from redis.exceptions import RedisError

    #: What the channel layer raises when Redis is away (an outage, not a bug).
    LAYER_ERRORS: tuple[type[Exception], ...] = (RedisError,)
except ImportError:
    LAYER_ERRORS = ()


@contextmanager
def _reported(what: str, group: str) -> Iterator[None]:
    """A failed send is logged, never raised: a lost broadcast is recovered by the client's resync, and
    the caller (a service after its commit) must not break. An outage is one line; anything else a bug."""
    try:
        yield
    except (OSError, TimeoutError, *LAYER_ERRORS) as error:
        log.warning("%s to %s failed: %s: %s", what, group, type(error).__name__, error)
    except Exception:
        log.exception("%s to %s failed", what, group)

_server_loop: asyncio.AbstractEventLoop | None = None
_server_thread: int | None = None


def remember_server_loop() -> None:
    """Called from inside the server's event loop (the ASGI entry point) on every connection; cheap.
    The first call in a loop also starts the web process's heartbeat (apps/tables/liveness.py)."""
    global _server_loop, _server_thread
    loop = asyncio.get_running_loop()
    if loop is not _server_loop:
        _server_loop = loop
        _server_thread = threading.get_ident()
        if getattr(settings, "TABLE_WEB_HEARTBEAT", False):
            from apps.tables import liveness

            _heartbeats.add(loop.create_task(liveness.heartbeat()))


_heartbeats: set[asyncio.Task[None]] = set()  # kept referenced while they run


_sender_loop: asyncio.AbstractEventLoop | None = None
_sender_pid: int | None = None
_sender_lock = threading.Lock()


def _background_loop() -> asyncio.AbstractEventLoop:
    """This process's long-lived sending loop, started on first use (and again in a forked child)."""
    global _sender_loop, _sender_pid
    with _sender_lock:
        if _sender_loop is None or _sender_pid != os.getpid() or not _sender_loop.is_running():
            loop = asyncio.new_event_loop()
            started = threading.Event()
            loop.call_soon(started.set)
            threading.Thread(target=loop.run_forever, name="channel-layer-sender", daemon=True).start()
            started.wait(5)
            _sender_loop, _sender_pid = loop, os.getpid()
        return _sender_loop


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group` from synchronous code, whatever thread it runs in."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if loop is not None and loop.is_running():
        if threading.get_ident() == _server_thread:
            raise RuntimeError("group_send() is for synchronous code; await the layer from the event loop")
    elif not isinstance(layer, InMemoryChannelLayer):
        loop = _background_loop()
    else:
        loop = None  # in-memory, and no server in this process: nobody could be listening but tests
    with _reported("Broadcast", group):
        if loop is None:
            async_to_sync(layer.group_send)(group, message)
        else:
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(timeout=5)


_later: set[asyncio.Task[None]] = set()  # kept referenced while they wait


def group_send_later(delay: float, group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group` `delay` seconds from now, without waiting for it: a best-effort
    follow-up (its failure is logged like a broadcast's). Nothing is sent where no server or Redis
    could be listening (tests on the in-memory layer without a server).

    With Redis the wait runs on this process's own long-lived sending loop, never on the server's:
    a follow-up still waiting when a server's loop closes (a test's, at its end) would be cancelled in
    the middle of a Redis command."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        loop = _server_loop
        if loop is None or not loop.is_running():
            return
    else:
        loop = _background_loop()

    async def send() -> None:
        await asyncio.sleep(delay)
        with _reported("Follow-up", group):
            await layer.group_send(group, message)

    def start() -> None:
        task = loop.create_task(send())
        _later.add(task)
        task.add_done_callback(_later.discard)

    loop.call_soon_threadsafe(start)
