"""Who a browser's socket belongs to: its session cookie's user, found on the sockets' database threads.

    application = session_user_stack(inner)     # instead of channels' AuthMiddlewareStack(inner)

Channels' AuthMiddleware loads the session and the user through `database_sync_to_async`, which runs
every handshake of the process on one thread, one after the other. When many sockets open at once (a
web process restarted, and every client coming back), that thread is the whole process's door: on the
project's 2-core machine it let about 30 handshakes a second through, a queue formed, daphne gave up on
the handshakes still waiting after its connect timeout (5 s), and the thread went on doing their work
for nobody, so nothing got in any more (bench/README.md, load). Here the lookup runs on the sockets'
database threads (apps/live/threads.py), with Django's own `get_user` (the session's hash checked as for
a page), and a handshake that waited longer than daphne does is dropped before any query is sent.
"""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth import get_user

from apps.live.threads import db

ASGIApp = Any

#: Daphne's own handshake timeout (`--websocket_connect_timeout`, 5 s by default): past it the client has
#: been refused already, so its lookup is work for nobody.
HANDSHAKE_SECONDS = 5.0


def _user_of(session: Any, deadline: float) -> Any:
    """The session's user (an AnonymousUser if none), or None if the handshake has waited too long."""
    if time.monotonic() > deadline:
        return None
    return get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]


class SessionUserMiddleware:
    """Sets `scope["user"]` from `scope["session"]` (channels' SessionMiddleware, outside it)."""

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket" or "user" in scope:
            await self.inner(scope, receive, send)
            return
        user = await db(_user_of)(scope["session"], time.monotonic() + HANDSHAKE_SECONDS)
        if user is None:
            return  # daphne refused the handshake meanwhile; the client retries later
        await self.inner({**scope, "user": user}, receive, send)


def session_user_stack(inner: ASGIApp) -> ASGIApp:
    """The cookie, the session and its user, in that order (as channels' AuthMiddlewareStack)."""
    return CookieMiddleware(SessionMiddleware(SessionUserMiddleware(inner)))
