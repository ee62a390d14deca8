"""Who a browser's socket belongs to: its session cookie's user, found on the sockets' database threads.

    application = session_user_stack(inner)     # instead of channels' AuthMiddlewareStack(inner)

Channels' AuthMiddleware loads the session and the user through `database_sync_to_async`, which runs
every handshake of the process on one thread, one after the other. When many sockets open at once (a
web process restarted, and every client coming back), that thread is the whole process's door: on the
project's 2-core machine it let about 30 handshakes a second through, a queue formed, daphne gave up on
the handshakes still waiting after its connect timeout (5 s), and the thread went on doing their work
for nobody, so nothing got in any more (bench/README.md, load). Here the lookup runs on the sockets'
database threads (apps/live/threads.py), with Django's own `get_user` (the session's hash checked as for
a page), a few handshakes at a time in the order they came, and a handshake that waited longer than
daphne does is dropped before any query is sent.
"""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth import get_user

from apps.live.threads import db

ASGIApp = Any

#: Daphne's own handshake timeout (`--websocket_connect_timeout`, 5 s by default, counted from a little
#: before the handshake gets here): past it the client has been refused already, so its lookup is work
#: for nobody.
HANDSHAKE_SECONDS = 4.5
#: Handshakes between the gate and their accept (or refusal), per process: enough to keep the database
#: threads busy, few enough that each one is through in a few milliseconds.
HANDSHAKES_AT_ONCE = 32


def _user_of(session: Any, deadline: float) -> Any:
    """The session's user (an AnonymousUser if none), or None if the handshake has waited too long."""
    if time.monotonic() > deadline:
        return None
    return get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]  # get_user reads only the session


class SessionUserMiddleware:
    """Sets `scope["user"]` from `scope["session"]` (channels' SessionMiddleware, outside it), a few
    handshakes at a time.

    The gate keeps a burst first come, first served: each handshake has several steps on the same
    threads (its user here, then its endpoint's own lookup), and with all of a burst's first steps
    queued ahead of every second one, every handshake would end after the whole burst's first steps,
    all of them too late once the burst is more than the process does in daphne's timeout. Through
    the gate the first ones in are the first ones open, and the ones still waiting when their time is
    up are dropped before any work."""

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner
        self._gate: asyncio.Semaphore | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket" or "user" in scope:
            await self.inner(scope, receive, send)
            return
        deadline = time.monotonic() + HANDSHAKE_SECONDS
        if self._gate is None:
            self._gate = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
        gate = self._gate
        await gate.acquire()
        through = False

        def let_next_in() -> None:
            nonlocal through
            if not through:
                through = True
                gate.release()

        async def send_through(message: dict[str, Any]) -> None:
            if not through and message["type"] in ("websocket.accept", "websocket.close"):
                let_next_in()  # this handshake is over: the next one's turn
            await send(message)

        try:
            user = await db(_user_of)(scope["session"], deadline)
            if user is None:
                return  # daphne refused the handshake meanwhile; the client retries later
            await self.inner({**scope, "user": user}, receive, send_through)
        finally:
            let_next_in()


def session_user_stack(inner: ASGIApp) -> ASGIApp:
    """The cookie, the session and its user, in that order (as channels' AuthMiddlewareStack)."""
    return CookieMiddleware(SessionMiddleware(SessionUserMiddleware(inner)))
