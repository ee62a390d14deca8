"""What a web process holds of PostgreSQL, bounded whatever the traffic (issue 40, section 6).

Under daphne every HTTP request runs its synchronous code on a thread of its own (Django's ASGI handler
gives each request its own thread-sensitive context). With CONN_MAX_AGE those threads' connections were
kept after the request, each idle until the garbage collector met it (up to LIVE_GC_FULL_SECONDS, as
the web process freezes what survives): 80 guest sign-ups left 78 connections open, and a burst of
page requests took all of PostgreSQL's. So:

- a request's connections are closed when it ends (`close_request_connections`, on request_finished):
  persistent connections are for the threads that live long, the sockets' database threads
  (apps/live/threads.py, TABLES_DB_THREADS) which serve every WebSocket frame;
- at most HTTP_CONCURRENCY requests are inside Django at once (`Bounded`, rummysite/asgi.py); the others
  wait their turn in the event loop, holding nothing. Daphne hands a request over once its body is in and
  takes the response into its own buffer, so a slow client holds no place.

A web process then holds at most TABLES_DB_THREADS + HTTP_CONCURRENCY + 1 connections (the one: asgiref's
single thread, used by code outside requests), docs/operations.md "Scale"; bench/page_connections.py
measures it and tests/site/test_page_connections.py holds it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from django.db import connections


def close_request_connections(**kwargs: Any) -> None:
    """At the end of a request, on its thread: close its connections, however long CONN_MAX_AGE would keep
    them. With CONN_MAX_AGE 0 (the tests), or the pool, Django closes them itself; one in a transaction
    is left alone."""
    for connection in connections.all(initialized_only=True):
        persistent = connection.settings_dict.get("CONN_MAX_AGE") != 0
        if persistent and connection.connection is not None and not connection.in_atomic_block:
            connection.close()


class Bounded:
    """An ASGI app that lets at most `limit` HTTP requests into `app` at once. `/livez` always goes in: it
    touches nothing, and says the process answers."""

    def __init__(self, app: Any, limit: int, always: frozenset[str] = frozenset({"/livez"})) -> None:
        self.app = app
        self.limit = limit
        self.always = always
        self._places = asyncio.Semaphore(limit)
        self._loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("path") in self.always:
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # one loop under daphne; a test may run several, one after another
            self._places, self._loop = asyncio.Semaphore(self.limit), loop
        async with self._places:
            await self.app(scope, receive, send)
