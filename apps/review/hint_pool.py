"""The hints' own workers: where a socket's hint is searched (issue 40: twenty hints at once from one
account ran the exact solver on the four database threads that serve every socket, and another user's
round trip went from 5 ms to 4.6 s).

    frame = await hint_frame(table_id=7, by=user, language="ro")   # or a HintRefused

The database work (reserve, settle, give back) stays on the sockets' database threads
(`apps/live/threads.py`), each step one short call. The search runs in a pool of its own:
`HINT_SEARCH_WORKERS` worker processes (1 unless set; `HINT_SEARCH_POOL = "thread"` makes them threads
of the web process, as the tests do to watch the engine). A process, because a search in a thread holds
the web process's interpreter lock against its event loop (measured with bench/hint_burst.py: every
other socket's round trip 5 times slower at the median during the bursts). The workers import the
engine only, keep the solver's caches warm, and run at a lower CPU priority (`HINT_SEARCH_NICE`, 10
unless set): on a busy machine the sockets go first and a hint waits.

The pool is bounded: at most `HINT_SEARCH_QUEUE` searches waiting per worker (2 unless set), and a
hint over that is refused at once, not queued. A search is waited for at most `HINT_SEARCH_SECONDS`
(3 s unless set): then the hint is refused and given back, and its worker process is killed (the pool
is replaced; searches waiting in it are refused as busy). In a thread (the tests) a search cannot be
stopped: it goes on to its end, keeping its thread, its place in the bound and its user's search lock
(the user's next hint is refused until it ends). A search still waiting for a worker is cancelled.

One search at a time per user: the lock (`services.hint_reserve`) is in the cache, shared by every
process; in front of it, each process refuses a user's second hint while the first is handled, without
any database work.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from apps.engine.errors import EngineError
from apps.engine.review import hint as engine_hint
from apps.engine.review.plays import Suggestion
from apps.live.threads import awaitable, db
from apps.review import services
from apps.review.services import HintInProgress, HintTicket, NoHintNow

P = ParamSpec("P")
R = TypeVar("R")


class HintsBusy(NoHintNow):
    """Every hint worker is searching and the queue is full: ask again in a moment."""


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


WORKERS = max(1, int(_setting("HINT_SEARCH_WORKERS", 1)))
#: Searches running or waiting, at most: the pool's bound.
BOUND = WORKERS * (1 + max(0, int(_setting("HINT_SEARCH_QUEUE", 2))))

#: How much lower the worker processes' CPU priority is than the web process's (os.nice).
NICE = max(0, min(19, int(_setting("HINT_SEARCH_NICE", 10))))

_places = threading.BoundedSemaphore(BOUND)
#: The pools of this process by kind ("process", "thread"), made at their first search.
_pools: dict[str, Executor] = {}
_pools_lock = threading.Lock()
#: Users with a hint being handled in this process, kept by the event loop alone: a burst from one
#: account's sockets is refused here, before it queues any work on the database threads (measured: 200
#: hint frames at once queued 2-3 s of refusals in front of every other socket's database work).
_asking: set[int] = set()


def budget_seconds() -> float:
    return _setting("HINT_SEARCH_SECONDS", 3.0)


def _kind() -> str:
    return str(getattr(settings, "HINT_SEARCH_POOL", "thread" if getattr(settings, "TESTING", False) else "process"))


def _pool(kind: str) -> Executor:
    with _pools_lock:
        pool = _pools.get(kind)
        if pool is None:
            if kind == "process":
                # Spawned, not forked: the web process has threads (a fork copies their held locks).
                # Niced: under a full CPU the sockets' process goes first, a hint waits.
                pool = ProcessPoolExecutor(
                    max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn"), initializer=os.nice, initargs=(NICE,)
                )
            else:
                pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="hint-search")
            _pools[kind] = pool
        return pool


def _drop_broken(kind: str, pool: Executor) -> None:
    """A worker process died (killed, out of memory): the next search starts a new pool."""
    with _pools_lock:
        if _pools.get(kind) is pool:
            del _pools[kind]
    pool.shutdown(wait=False, cancel_futures=True)


def _stop_overrun(pool: Executor) -> None:
    """A search in `pool` ran out of its time: if the pool is of worker processes, they are killed and
    the pool dropped (the searches waiting in it end as broken: refused as busy, and given back). A
    thread cannot be stopped: its search goes on to its end."""
    if not isinstance(pool, ProcessPoolExecutor):
        return
    with _pools_lock:
        for kind, current in list(_pools.items()):
            if current is pool:
                del _pools[kind]
    processes = getattr(pool, "_processes", None) or {}  # CPython's own map of its workers
    for process in list(processes.values()):
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def submit(ticket: HintTicket) -> tuple[Future[Suggestion], Executor]:
    """Start the ticket's search in the pool (HintsBusy when the bound is reached); returns its future
    and the pool. Its place in the bound is freed when the search ends, or when it is cancelled unstarted."""
    if not _places.acquire(blocking=False):
        raise HintsBusy(_("Hints are busy right now: ask again in a moment."))
    kind = _kind()
    pool = _pool(kind)
    try:
        if kind == "process":
            future = pool.submit(engine_hint, ticket.view)  # the engine alone, by name, in the worker
        else:
            future = pool.submit(services.hint_search, ticket)
    except BrokenProcessPool:
        _places.release()
        _drop_broken(kind, pool)
        raise HintsBusy(_("Hints are busy right now: ask again in a moment.")) from None
    except BaseException:
        _places.release()
        raise

    def done(finished: Future[Suggestion]) -> None:
        _places.release()
        if not finished.cancelled() and isinstance(finished.exception(), BrokenProcessPool):
            _drop_broken(kind, pool)

    future.add_done_callback(done)
    return future, pool


def _translated(language: str, function: Callable[P, R]) -> Callable[P, R]:
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with translation.override(language):
            return function(*args, **kwargs)

    return run


async def hint_frame(*, table_id: int, by: Any, language: str) -> dict[str, Any]:
    """The `hint` frame for `by` at the table, or a HintRefused worded in `language`: reserved on a
    database thread, searched in the hint pool, then kept or given back on a database thread. The user's
    search lock is freed at the end, or, if the search ran out of time, when the search ends."""
    if by is not None and by.pk in _asking:
        with translation.override(language):
            raise HintInProgress(_("Your last hint is still being looked for: wait for it."))
    if by is not None:
        _asking.add(by.pk)
    try:
        return await _hint_frame(table_id, by, language)
    finally:
        if by is not None:
            _asking.discard(by.pk)


async def _hint_frame(table_id: int, by: Any, language: str) -> dict[str, Any]:
    ticket: HintTicket = await db(_translated(language, lambda: services.hint_reserve(table_id=table_id, by=by)))()
    held = True
    try:
        try:
            with translation.override(language):
                future, pool = submit(ticket)
        except BaseException:
            await db(services.hint_give_back)(ticket)
            raise
        try:
            found = await asyncio.wait_for(awaitable(future), timeout=budget_seconds())
        except TimeoutError:
            held = False
            future.add_done_callback(lambda _future: services.hint_search_done(ticket.user_id))
            if not future.cancelled():  # it was running (a search still waiting was cancelled unstarted)
                _stop_overrun(pool)
            await db(services.hint_give_back)(ticket)
            with translation.override(language):
                raise NoHintNow(_("This position is too long to search for a hint: it was not counted.")) from None
        except EngineError as error:
            raise await db(services.hint_refused_by_engine)(ticket, error) from None
        except BrokenProcessPool:
            await db(services.hint_give_back)(ticket)
            with translation.override(language):
                raise HintsBusy(_("Hints are busy right now: ask again in a moment.")) from None
        except BaseException:
            await db(services.hint_give_back)(ticket)
            raise
        return await db(_translated(language, services.hint_settle))(ticket, found)
    finally:
        if held:
            await db(services.hint_search_done)(ticket.user_id)
