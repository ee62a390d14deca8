"""The sockets' database work, on threads of their own.

Channels' default (`database_sync_to_async`, thread-sensitive) queues every frame of every connection
of the process behind one thread, one database round trip at a time. Here a small pool of threads
(TABLES_DB_THREADS) each keeps its connection (CONN_MAX_AGE), closing stale ones around every call as
Django's request cycle does.

A StopIteration raised on a thread reaches its caller as a RuntimeError (`db`, `awaitable`). Python
3.11 and 3.12 cannot put a StopIteration into an asyncio future (CPython gh-112182, fixed in 3.13): the
loop logs a TypeError and the awaiting coroutine waits for good. A stray `next()` in a service froze a
socket's frames that way (its handler task never resumed), and a test helper's froze the hint frames'
tests one run in five.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import close_old_connections, connections

P = ParamSpec("P")
R = TypeVar("R")

_executor = ThreadPoolExecutor(max_workers=getattr(settings, "TABLES_DB_THREADS", 4), thread_name_prefix="live-db")

#: A thread's connection that did its last work this recently is not health-checked again (Django's
#: CONN_HEALTH_CHECKS would send a `SELECT 1` before every call: a round trip per frame). A connection
#: that failed is still checked (Django does it after any error), and an idle one too.
HEALTH_CHECK_IDLE_SECONDS = 5.0
_last_used = threading.local()


def _in_thread(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    close_old_connections()
    if time.monotonic() - getattr(_last_used, "at", float("-inf")) < HEALTH_CHECK_IDLE_SECONDS:
        for alias in connections:
            connection = connections[alias]
            if connection.connection is not None and not connection.errors_occurred:
                connection.health_check_done = True  # type: ignore[attr-defined]  # Django's own flag; the stubs omit it
    try:
        return function(*args, **kwargs)
    except StopIteration as error:
        raise _not_stop_iteration(error) from error
    finally:
        close_old_connections()
        _last_used.at = time.monotonic()


def _not_stop_iteration(error: StopIteration) -> RuntimeError:
    """What a StopIteration becomes on its way to the event loop (as PEP 479 does in a generator)."""
    return RuntimeError(f"StopIteration raised on a thread: {error!r}")


def db(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`await db(f)(...)` runs `f(...)` on a database thread. It runs in the thread's own context, not a
    copy of the caller's: Django keeps connections in context-local storage, and a copied context would
    give every WebSocket its own connection in every thread."""

    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_executor, _in_thread, function, args, kwargs)

    return call


def off_loop(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`await off_loop(f)(...)` runs `f(...)` on the loop's default executor (a cache or Redis round trip
    that must not stall the loop; database work goes through `db`), a StopIteration arriving as a
    RuntimeError."""

    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except StopIteration as error:
            raise _not_stop_iteration(error) from error

    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.get_running_loop().run_in_executor(None, lambda: guarded(*args, **kwargs))

    return call


def awaitable(future: concurrent.futures.Future[R]) -> asyncio.Future[R]:
    """`asyncio.wrap_future(future)` (cancelling the awaitable cancels `future` if it has not started), but
    a StopIteration that `future` ended with arrives as a RuntimeError instead of never arriving."""
    loop = asyncio.get_running_loop()
    result: asyncio.Future[R] = loop.create_future()

    def copy(finished: concurrent.futures.Future[R]) -> None:
        if result.done():
            return
        if finished.cancelled():
            result.cancel()
            return
        error = finished.exception()
        if isinstance(error, StopIteration):
            converted = _not_stop_iteration(error)
            converted.__cause__ = error
            result.set_exception(converted)
        elif error is not None:
            result.set_exception(error)
        else:
            result.set_result(finished.result())

    def ended(finished: concurrent.futures.Future[R]) -> None:
        try:
            loop.call_soon_threadsafe(copy, finished)
        except RuntimeError:  # the loop was closed meanwhile: nobody is waiting any more
            pass

    def given_up(awaited: asyncio.Future[R]) -> None:
        if awaited.cancelled():
            future.cancel()

    result.add_done_callback(given_up)
    future.add_done_callback(ended)
    return result
