"""The hints' own threads: where a socket's hint is searched (issue 40: twenty hints at once from one
account ran the exact solver on the four database threads that serve every socket, and another user's
round trip went from 5 ms to 4.6 s).

    frame = await hint_frame(table_id=7, by=user, language="ro")   # or a HintRefused

The database work (reserve, settle, give back) stays on the sockets' database threads
(`apps/live/threads.py`), each step one short call; the search runs on `HINT_SEARCH_THREADS` threads of
its own (1 unless set), with at most `HINT_SEARCH_QUEUE` more waiting (2 per thread unless set): a hint
over that is refused at once, not queued. A search is waited for at most `HINT_SEARCH_SECONDS` (3 s
unless set): then the hint is refused and given back. A Python thread cannot be stopped, so a search that
ran out of time goes on to its end, keeping its thread, its place in the bound and its user's search lock
(the user's next hint is refused until it ends); a search still waiting for a thread is cancelled. One
search at a time per user: the lock (`services.hint_reserve`) is in the cache, shared by every process.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from apps.engine.errors import EngineError
from apps.engine.review.plays import Suggestion
from apps.live.threads import db
from apps.review import services
from apps.review.services import HintTicket, NoHintNow


class HintsBusy(NoHintNow):
    """Every hint thread is searching and the queue is full: ask again in a moment."""


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


THREADS = max(1, int(_setting("HINT_SEARCH_THREADS", 1)))
#: Searches running or waiting, at most: the pool's bound.
BOUND = THREADS * (1 + max(0, int(_setting("HINT_SEARCH_QUEUE", 2))))

_executor = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="hint-search")
_places = threading.BoundedSemaphore(BOUND)


def budget_seconds() -> float:
    return _setting("HINT_SEARCH_SECONDS", 3.0)


def submit(ticket: HintTicket) -> Future[Suggestion]:
    """Start the ticket's search on a hint thread (HintsBusy when the bound is reached). Its place in the
    bound is freed when the search ends, or when it is cancelled unstarted."""
    if not _places.acquire(blocking=False):
        raise HintsBusy(_("Hints are busy right now: ask again in a moment."))
    try:
        future = _executor.submit(services.hint_search, ticket)
    except BaseException:
        _places.release()
        raise

    future.add_done_callback(lambda _future: _places.release())
    return future


def _translated(language: str, function: Any) -> Any:
    def run(*args: Any) -> Any:
        with translation.override(language):
            return function(*args)

    return run


async def hint_frame(*, table_id: int, by: Any, language: str) -> dict[str, Any]:
    """The `hint` frame for `by` at the table, or a HintRefused worded in `language`: reserved on a
    database thread, searched on a hint thread, then kept or given back on a database thread. The user's
    search lock is freed at the end, or, if the search ran out of time, when the search ends."""
    ticket: HintTicket = await db(_translated(language, lambda: services.hint_reserve(table_id=table_id, by=by)))()
    held = True
    try:
        try:
            future = submit(ticket)
        except BaseException:
            await db(services.hint_give_back)(ticket)
            raise
        try:
            found = await asyncio.wait_for(asyncio.wrap_future(future), timeout=budget_seconds())
        except TimeoutError:
            held = False
            future.add_done_callback(lambda _future: services.hint_search_done(ticket.user_id))
            await db(services.hint_give_back)(ticket)
            with translation.override(language):
                raise NoHintNow(_("This position is too long to search for a hint: it was not counted.")) from None
        except EngineError as error:
            raise await db(services.hint_refused_by_engine)(ticket, error) from None
        except BaseException:
            await db(services.hint_give_back)(ticket)
            raise
        return await db(_translated(language, services.hint_settle))(ticket, found)  # type: ignore[no-any-return]
    finally:
        if held:
            await db(services.hint_search_done)(ticket.user_id)
