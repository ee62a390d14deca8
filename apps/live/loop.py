"""The web server's event loop, as seen from any thread of the process.

The ASGI entry point calls `remember()` on every connection (cheap). The first call in a new loop runs
the callbacks registered with `on_start` in it: apps start their per-process background work there
(heartbeats, version checks) without this package knowing what they are.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

_loop: asyncio.AbstractEventLoop | None = None
_thread: int | None = None
_starters: list[Callable[[], Coroutine[Any, Any, None]]] = []
#: The background tasks started in each loop (a loop whose tasks were cancelled, as a test's event loop
#: fixture does at its end, gets them again at its next connection).
_tasks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[asyncio.Task[None]]] = weakref.WeakKeyDictionary()


def on_start(starter: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run `starter()` as a task in every server loop this process serves from (once per loop)."""
    if starter not in _starters:
        _starters.append(starter)


def remember() -> None:
    """Called from inside the server's event loop on every connection (cheap)."""
    global _loop, _thread
    loop = asyncio.get_running_loop()
    _loop, _thread = loop, threading.get_ident()
    tasks = _tasks.get(loop)
    if tasks is not None and len(tasks) == len(_starters) and all(not task.done() for task in tasks):
        return
    tasks = list(tasks or ())
    for index, starter in enumerate(_starters):
        # Only a task that is not running starts again (one that stopped, or a starter registered since):
        # a second copy of one still running would do its work twice.
        if index < len(tasks) and not tasks[index].done():
            continue
        task = loop.create_task(starter())
        task.add_done_callback(_finished)
        if index < len(tasks):
            tasks[index] = task
        else:
            tasks.append(task)
    _tasks[loop] = tasks


def _finished(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("A background task of the web process stopped", exc_info=task.exception())


def current() -> asyncio.AbstractEventLoop | None:
    """The server loop, if this process serves and it is still running."""
    loop = _loop
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


def in_loop_thread() -> bool:
    return _loop is not None and threading.get_ident() == _thread


def call_soon(callback: Callable[..., None], *args: Any) -> bool:
    """Run `callback(*args)` in the server loop, from any thread. False if there is no server loop."""
    loop = current()
    if loop is None:
        return False
    if in_loop_thread():
        loop.call_soon(callback, *args)
    else:
        loop.call_soon_threadsafe(callback, *args)
    return True


class PerLoop(Generic[T]):
    """One `make()` per running event loop, made on first use there: the state a server loop keeps for
    its sockets (rooms, shared reads). A process serves from one loop, but a test's loop ends with the
    test: its successor starts with nothing of it (no future bound to a closed loop, no frame of an
    arena that had the same id in the test before)."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = weakref.WeakKeyDictionary()

    def __call__(self) -> T:
        running = asyncio.get_running_loop()
        found = self._by_loop.get(running)
        if found is None:
            found = self._by_loop[running] = self._make()
        return found

    def every(self) -> list[T]:
        """What every loop alive has made."""
        return list(self._by_loop.values())
