"""Whose each WebSocket is: a ban, a deactivation or a sign-out closes its sockets at once, on every web
process; and no user or address holds more sockets than the limits (SPEC 11).

    websocket = Owners(URLRouter(routes), refuse=refusal, explain=wording)

`Owners` is ASGI middleware around the endpoints, inside the session and the token doors (so the
scope's "user" and "session" are known, and "client" is the address the site's own proxy saw). At the
handshake it refuses, by accepting, one `error` frame and a close (as the endpoints refuse):

- whom `refuse(scope)` refuses (a banned or disabled account: 4403 with the code it names);
- a socket over the limits (apps/live/quota.py): 4429, `too_many_sockets`.

An accepted socket listens on the live bus on its user's topic and its session's. From any thread of any
process, `tell_user(user_id, ...)` and `tell_session(session_key, ...)` publish there: each socket of that
user (that session) is sent an `error` frame with the code (worded by `explain(code, detail)` in the
socket's own language: what is published carries no words) and closed with the close code; the
endpoint behind it sees an ordinary disconnect, and whatever it sends after that is dropped.

`tell_user(user_id, ..., keep_session=key)` closes every socket of the user but those of one session
(a password changed in that session: the others are signed out of their pages, and of their sockets).

Pub/sub keeps nothing, so a process that missed a ban (Redis was restarting) finds it itself: every
CHECK_SECONDS it asks `check_with`'s function about the users of its open sockets, in one query, and
`check_sessions_with`'s about their sessions (a session whose password hash is stale), and closes those
they name the same way.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from apps.live import loop, quota
from apps.live.bus import bus
from apps.live.compact import dumps
from apps.live.language import language_of
from apps.live.threads import db

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Message = dict[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]

#: The close codes of this module (docs/protocol.md): the account may not act (banned, disabled); the
#: session signed out; too many sockets.
BARRED = 4403
SIGNED_OUT = 4401
TOO_MANY = 4429
TOO_MANY_SOCKETS = "too_many_sockets"
#: How often each process checks the users of its open sockets (the backstop of a lost message).
CHECK_SECONDS = 30.0

#: Given user ids, the ones whose sockets must close, each with its message's data ({"close", "code",
#: "detail"}, as `tell_user` publishes it).
Checker = Callable[[list[int]], dict[int, dict[str, Any]]]
#: Given (user id, session key) pairs, the session keys whose sockets must close, each with its data.
SessionChecker = Callable[[list[tuple[int, str]]], dict[str, dict[str, Any]]]
_checker: list[Checker] = []
_session_checker: list[SessionChecker] = []
_open: weakref.WeakSet[Connection] = weakref.WeakSet()


def check_with(checker: Checker) -> None:
    """Name the function that finds barred users among those with open sockets (set once, by the site)."""
    _checker[:] = [checker]


def check_sessions_with(checker: SessionChecker) -> None:
    """Name the function that finds the sessions whose sockets must close (a stale password hash)."""
    _session_checker[:] = [checker]


async def check_open_sockets() -> None:
    """One check of this process's open sockets (what `check_forever` runs)."""
    connections = [connection for connection in list(_open) if connection.user_id is not None]
    if not connections:
        return
    if _checker:
        found = await db(_checker[0])(
            sorted({connection.user_id for connection in connections if connection.user_id is not None})
        )
        for connection in connections:
            data = found.get(connection.user_id) if connection.user_id is not None else None
            if data is not None:
                await connection.tell(data)
    sessions = sorted({(c.user_id, c.session_key) for c in connections
                       if c.user_id is not None and c.session_key and not c.closed})
    if _session_checker and sessions:
        stale = await db(_session_checker[0])(sessions)
        for connection in connections:
            data = stale.get(connection.session_key or "")
            if data is not None:
                await connection.tell(data)


async def check_forever() -> None:
    while True:
        await asyncio.sleep(CHECK_SECONDS)
        try:
            await check_open_sockets()
        except Exception as error:  # the database is away for a moment: the next check retries
            log.warning("Checking the owners of the open sockets failed: %s: %s", type(error).__name__, error)


@dataclass(frozen=True)
class Told:
    """Why a socket is refused or closed: its close code, and the error frame's code and words."""

    close: int
    code: str
    message: str


def user_topic(user_id: int) -> str:
    return f"owner:user:{user_id}"


def session_topic(session_key: str) -> str:
    """A session's topic names a digest of its key, never the key (the bus is not where secrets go)."""
    return "owner:session:" + session_digest(session_key)


def session_digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def tell_user(user_id: int, *, close: int, code: str, detail: dict[str, Any] | None = None,
              keep_session: str | None = None) -> None:
    """Close every socket of the user, on every process (any thread; after the commit that decided it),
    but those of the session `keep_session` if one is named."""
    _tell(user_topic(user_id), close, code, detail, keep=session_digest(keep_session) if keep_session else None)


def tell_session(session_key: str, *, close: int, code: str, detail: dict[str, Any] | None = None) -> None:
    """Close every socket of one session (a sign-out), on every process."""
    _tell(session_topic(session_key), close, code, detail)


def _tell(topic: str, close: int, code: str, detail: dict[str, Any] | None, keep: str | None = None) -> None:
    data: dict[str, Any] = {"close": close, "code": code, "detail": detail or {}}
    if keep:
        data["keep"] = keep  # the digest of the session whose sockets stay (the bus carries no keys)
    bus().publish(topic, json.dumps(data))


def _error_text(code: str, message: str) -> str:
    return dumps({"type": "error", "code": code, "message": message})


def owner_of(scope: Scope) -> tuple[int | None, str | None, str | None]:
    """(user id, session key, address) of a socket's scope."""
    user = scope.get("user")
    user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    session = scope.get("session")
    session_key = getattr(session, "session_key", None) if session is not None else None
    client = scope.get("client")
    address = str(client[0]) if client else None
    return user_id, session_key, address


@dataclass(eq=False)
class Connection:
    """One accepted socket, between the server and its endpoint: what the server sends in is passed on
    through `inbox` (by one task of the connection's own), so that being told can end it at any moment."""

    receive_outer: Callable[[], Awaitable[Message]]
    send_outer: Callable[[Message], Awaitable[None]]
    language: str
    explain: Callable[[str, dict[str, Any]], str]
    user_id: int | None = None
    session_key: str | None = None
    connect: Message | None = None
    closed: bool = False
    inbox: asyncio.Queue[Message] = field(default_factory=asyncio.Queue)
    pump: asyncio.Task[None] | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def receive(self) -> Message:
        if self.connect is not None:
            message, self.connect = self.connect, None
            self.pump = asyncio.ensure_future(self._pump())
            return message
        return await self.inbox.get()

    async def _pump(self) -> None:
        while True:
            message = await self.receive_outer()
            self.inbox.put_nowait(message)
            if message.get("type") == "websocket.disconnect":
                return

    async def send(self, message: Message) -> None:
        if self.closed:
            return  # told and closed: the endpoint has not heard yet
        if message.get("type") == "websocket.close":
            self.closed = True
        await self.send_outer(message)

    def hear(self, text: str) -> None:
        """A message on one of this socket's topics (in the server loop)."""
        data = json.loads(text)
        keep = data.get("keep")
        if keep and self.session_key and keep == session_digest(self.session_key):
            return  # the session that made the change keeps its sockets
        task = asyncio.ensure_future(self.tell(data))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def tell(self, data: dict[str, Any]) -> None:
        if self.closed:
            return
        with translation.override(self.language):
            message = self.explain(str(data.get("code", "")), dict(data.get("detail") or {}))
        self.closed = True
        close = int(data.get("close", BARRED))
        try:
            await self.send_outer({"type": "websocket.send", "text": _error_text(str(data.get("code", "")), message)})
            await self.send_outer({"type": "websocket.close", "code": close})
        except Exception:  # the client went meanwhile
            pass
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": close})

    def end(self) -> None:
        if self.pump is not None:
            self.pump.cancel()


class Owners:
    def __init__(
        self,
        app: ASGIApp,
        *,
        refuse: Callable[[Scope], Told | None],
        explain: Callable[[str, dict[str, Any]], str],
    ) -> None:
        self.app = app
        self.refuse = refuse
        self.explain = explain

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        first = await receive()
        if first.get("type") != "websocket.connect":
            return
        language = language_of(scope)
        user_id, session_key, address = owner_of(scope)
        with translation.override(language):
            told = self.refuse(scope)
        keys, caps = quota.keys_of(user_id, address)
        if told is None and keys:
            over = await quota.counter().acquire(keys, caps)
            if over is not None:
                with translation.override(language):
                    told = Told(TOO_MANY, TOO_MANY_SOCKETS, _too_many(over, caps[keys.index(over)]))
                keys = ()
        else:
            keys = ()
        if told is not None:
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": _error_text(told.code, told.message)})
            await send({"type": "websocket.close", "code": told.close})
            return
        connection = Connection(receive, send, language, self.explain, user_id=user_id, session_key=session_key,
                                connect=first)
        _open.add(connection)
        topics = ([user_topic(user_id)] if user_id is not None else []) + (
            [session_topic(session_key)] if session_key else []
        )
        for topic in topics:
            bus().listen(topic, connection.hear)
        try:
            await self.app(scope, connection.receive, connection.send)
        finally:
            for topic in topics:
                bus().unlisten(topic, connection.hear)
            connection.end()
            _open.discard(connection)
            if keys:
                quota.counter().release(keys)


def _too_many(key: str, cap: int) -> str:
    if key.startswith("u:"):
        return _("You have %(n)s connections open already: close a tab and try again.") % {"n": cap}
    return _("Your network address has %(n)s connections open already: close a tab and try again.") % {"n": cap}


loop.on_start(check_forever)
