"""Sending to channel-layer groups from anywhere: an event loop, a request thread or a worker thread.

With channels-redis, `async_to_sync(layer.group_send)` is safe from any thread. The in-memory layer is
not thread-safe: its queues belong to daphne's event loop, so a send from the embedded worker thread
is handed to that loop (remembered by `remember_server_loop`, called from the ASGI entry point).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None
_server_thread: int | None = None


def remember_server_loop() -> None:
    """Called from inside the server's event loop (the ASGI entry point) on every connection; cheap."""
    global _server_loop, _server_thread
    loop = asyncio.get_running_loop()
    if loop is not _server_loop:
        _server_loop = loop
        _server_thread = threading.get_ident()


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group` from synchronous code, whatever thread it runs in."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if isinstance(layer, InMemoryChannelLayer) and loop is not None and loop.is_running():
        if threading.get_ident() == _server_thread:
            raise RuntimeError("group_send() is for synchronous code; await the layer from the event loop")
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        try:
            future.result(timeout=5)
        except Exception:  # a lost broadcast is recovered by the client's resync; never break the caller
            log.exception("Broadcast to %s failed", group)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.exception("Broadcast to %s failed", group)
