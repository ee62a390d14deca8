"""WebSocket consumers: a table (play or watch) and the lobby. Thin: authenticate, parse, call a
service, turn errors into error frames (CONVENTIONS 8). docs/protocol.md describes every frame."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import translation
from django.utils.translation import gettext as _

from apps.accounts.language import language_for_scope
from apps.engine.errors import EngineError
from apps.tables import services
from apps.tables.access import may_watch
from apps.tables.broadcast import LOBBY_GROUP, table_group
from apps.tables.engine_text import engine_text
from apps.tables.models import Table
from apps.tables.snapshot import frame_for, in_viewer_words, lobby_tables, table_payload
from rummysite.realtime import LAYER_ERRORS

log = logging.getLogger(__name__)

#: The consumers' database work runs in a small pool of threads of its own, each with one kept
#: connection. Channels' default (thread-sensitive) would queue every frame of every connection of
#: the process behind one thread, one database round trip at a time.
_db_executor = ThreadPoolExecutor(max_workers=settings.TABLES_DB_THREADS, thread_name_prefix="tables-db")


#: A database thread's connection that did its last work this recently is not health-checked again
#: (Django's CONN_HEALTH_CHECKS would send a `SELECT 1` before every call: a round trip per frame).
#: A connection that failed is still checked (Django does it after any error), and an idle one too.
HEALTH_CHECK_IDLE_SECONDS = 5.0
_last_used = threading.local()


def _in_db_thread(
    function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], language: str
) -> Any:
    close_old_connections()
    if time.monotonic() - getattr(_last_used, "at", float("-inf")) < HEALTH_CHECK_IDLE_SECONDS:
        for alias in connections:
            connection = connections[alias]
            if connection.connection is not None and not connection.errors_occurred:
                connection.health_check_done = True
    try:
        # The thread has no language of its own: what the service says is read in the connection's.
        with translation.override(language):
            return function(*args, **kwargs)
    finally:
        close_old_connections()
        _last_used.at = time.monotonic()


def db(function: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """Run `function` on one of the consumers' database threads, closing or keeping its connection
    before and after (CONN_MAX_AGE), as Channels' `database_sync_to_async` does. It runs in the
    thread's own context, not a copy of the caller's: Django keeps connections in context-local
    storage, and a copied context would give every WebSocket its own connection in every thread."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        language = translation.get_language()
        return await loop.run_in_executor(_db_executor, _in_db_thread, function, args, kwargs, language)

    return call


class VersionReader:
    """The current versions of tables, for pongs: every table pinged within BATCH_SECONDS is read in
    one query. Every connection pings every few seconds, so one query per ping would be most of the
    database's work; the answer still comes from the database, at most BATCH_SECONDS later."""

    BATCH_SECONDS = 0.05

    def __init__(self) -> None:
        self.waiting: dict[int, list[asyncio.Future[int | None]]] = {}

    async def version(self, table_id: int) -> int | None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        if not self.waiting:
            loop.call_later(self.BATCH_SECONDS, lambda: asyncio.ensure_future(self.read()))
        self.waiting.setdefault(table_id, []).append(future)
        return await future

    async def read(self) -> None:
        batch, self.waiting = self.waiting, {}
        try:
            versions = await db(_versions)(list(batch))
        except Exception as error:  # the pings get an error frame each, not silence
            for futures in batch.values():
                for future in futures:
                    if not future.done():
                        future.set_exception(error)
            return
        for table_id, futures in batch.items():
            for future in futures:
                if not future.done():
                    future.set_result(versions.get(table_id))


def _versions(table_ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


_version_readers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, VersionReader] = weakref.WeakKeyDictionary()


async def current_version(table_id: int) -> int | None:
    """The table's current version (None: no such table), read with the other pings of the moment."""
    loop = asyncio.get_running_loop()
    reader = _version_readers.get(loop)
    if reader is None:
        reader = _version_readers[loop] = VersionReader()
    return await reader.version(table_id)


MAX_FRAME_BYTES = 8 * 1024
#: A move's `id` is kept with the move (MoveLog.client_id) to apply it once: at most this long, no NUL
#: (PostgreSQL text cannot hold one).
MAX_ID_LENGTH = 64
#: Token bucket per connection: a burst of RATE_BURST frames, refilled at RATE_PER_SECOND.
RATE_PER_SECOND = 8.0
RATE_BURST = 30
POLICY_VIOLATION = 1008


def _let_daphne_close_with_protocol_codes() -> None:
    """Daphne closes through autobahn's sendClose(), which only lets an application use 1000 or
    3000-4999 and raises on 1008 (the 'policy violation' of RFC 6455 that this protocol promises):
    the connection then ends with 1011 and a traceback. Codes an endpoint may send by the RFC go out
    through autobahn's own close frame instead; anything else is left to sendClose() as before."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # not served by daphne
        return
    if getattr(WebSocketProtocol, "_rfc_close_codes", False):
        return
    original = WebSocketProtocol.serverClose

    def server_close(self: Any, code: int | None = None) -> None:
        if code in RFC_CLOSE_CODES:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            original(self, code=code)

    WebSocketProtocol.serverClose = server_close
    WebSocketProtocol._rfc_close_codes = True


CHANNEL_LAYER_DOWN: tuple[type[BaseException], ...] = (*LAYER_ERRORS, ConnectionError)

try:
    from autobahn.exception import Disconnected
except ImportError:  # served by something other than daphne

    class Disconnected(Exception):  # type: ignore[no-redef]
        pass


#: Close codes of RFC 6455 section 7.4.1 that an endpoint may send (1008: policy violation).
RFC_CLOSE_CODES = frozenset({1001, 1003, 1007, 1008, 1009, 1011})
_let_daphne_close_with_protocol_codes()


class RateLimiter:
    """A token bucket. `clock` is looked up on the class, so a test can stop time for every limiter
    (the verdict of a rate test must not depend on how fast the machine serves the frames)."""

    clock = staticmethod(time.monotonic)

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = self.clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class GuardedConsumer(AsyncWebsocketConsumer):
    """Frames are JSON objects with a `type`, at most MAX_FRAME_BYTES, at most RATE_PER_SECOND on
    average. A frame over the size or the rate closes the connection with 1008 (policy violation);
    any other bad frame gets an error frame and changes nothing.

    Once the connection is closing (closed by us, or gone on the client's side), frames still queued
    are ignored and nothing more is sent: the server (autobahn, under daphne) raises on a send to a
    connection that is not open, which would end the consumer with a traceback."""

    closing = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # The channel layer (Redis) going away ends every consumer of the process; that is an outage
        # to report in one line, not a bug with a traceback. The client reconnects with backoff and
        # resyncs; the connection is closed with 1011 (or refused, while connecting).
        # Every frame of the connection is written in its language (SPEC 12), chosen as for a page.
        try:
            with translation.override(language_for_scope(scope)):
                await super().__call__(scope, receive, send)
        except CHANNEL_LAYER_DOWN as error:
            log.warning("The channel layer is unreachable (%s: %s); closing a WebSocket", type(error).__name__, error)
            try:
                await send({"type": "websocket.close", "code": 1011})
            except Exception:  # already closed on the other side
                pass

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' own dispatch first closes stale database connections of its one thread-sensitive
        # thread, a hop to that thread for every frame and every broadcast of every connection of the
        # process: one queue they all wait in (the largest cost of daphne under load). These consumers
        # never use that thread's connection: their database work runs on their own threads (`db`),
        # which close stale connections around every call, as the middleware's lookups do.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:  # the client left while this was on its way
            self.closing = True

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.closing = True
        await super().close(code=code, reason=reason)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self.closing = True
        await super().websocket_disconnect(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode("utf-8")) > MAX_FRAME_BYTES:
            await self.send_error("too_big", _("A frame may be at most %(size)s bytes.") % {"size": MAX_FRAME_BYTES})
            await self.close(code=POLICY_VIOLATION)
            return
        if not self.limiter.allow():
            await self.send_error("rate_limited", _("Too many frames: slow down."))
            await self.close(code=POLICY_VIOLATION)
            return
        try:
            content = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
            await self.send_error("bad_json", _("A frame must be a JSON object."))
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error("bad_frame", _("A frame must be a JSON object with a \"type\"."))
            return
        handler = self.handlers().get(content["type"])
        if handler is None:
            await self.send_error(
                "unknown_type", _("Unknown frame type %(type)r.") % {"type": content["type"][:40]}, ref=content
            )
            return
        await handler(content)

    def handlers(self) -> dict[str, Any]:
        return {}

    async def send_json(self, content: Any) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    async def send_error(self, code: str, message: str, *, ref: Any = None, **extra: Any) -> None:
        frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if isinstance(ref, dict) and isinstance(ref.get("id"), str):
            frame["ref"] = ref["id"]
        frame.update(extra)
        await self.send_json(frame)


class TableConsumer(GuardedConsumer):
    """`/ws/tables/<id>/`: players act for their own seat; everyone else watches."""

    async def connect(self) -> None:
        self.limiter = RateLimiter()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.version = -1
        if not await db(self.may_watch)():
            await self.close(code=4404)  # as for a table that does not exist: a private id stays secret
            return
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_snapshot()

    def may_watch(self) -> bool:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return False
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        return may_watch(table, self.user, (query.get("invite") or [""])[0])

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    def handlers(self) -> dict[str, Any]:
        return {
            "move": self.on_move,
            "draft": self.on_draft,
            "back": self.on_back,
            "leave": self.on_leave,
            "start": self.on_start,
            "rematch": self.on_rematch,
            "new_match": self.on_new_match,
            "sync": self.on_sync,
            "ping": self.on_ping,
        }

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    async def send_snapshot(self) -> None:
        payload = await db(table_payload)(self.table_id)
        await self.forward(payload, force=True)

    async def forward(self, payload: dict[str, Any], *, force: bool = False) -> None:
        if payload["version"] < self.version or (payload["version"] == self.version and not force):
            return  # an older broadcast arriving late: the client already has newer
        self.version = payload["version"]
        await self.send_json(frame_for(payload, self.user_id))

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.forward(event["payload"])

    async def table_version(self, event: dict[str, Any]) -> None:
        """The follow-up of a broadcast (apps/tables/broadcast.py): it comes after the broadcast on this
        connection's channel, so a version still newer than the one sent means the broadcast was lost."""
        if event["version"] > self.version:
            await self.send_snapshot()

    async def call(self, content: dict[str, Any], service: Any, **kwargs: Any) -> bool:
        """Run a service for this connection's user; errors become error frames. True if it ran."""
        if self.user is None:
            await self.send_error("not_signed_in", _("Spectators cannot act: sign in or play as a guest."), ref=content)
            return False
        try:
            await db(service)(table_id=self.table_id, user=self.user, **kwargs)
        except services.StaleVersion as error:
            await self.send_error("stale", str(error), ref=content, version=error.current)
            await self.send_snapshot()
            return False
        except (services.TableError, EngineError) as error:
            await self.send_error(type(error).__name__.lower(), engine_text(error), ref=content, version=self.version)
            return False
        return True

    async def on_move(self, content: dict[str, Any]) -> None:
        move = content.get("move")
        version = content.get("version")
        client_id = content.get("id", "")
        if not isinstance(move, (str, dict)):
            await self.send_error("bad_frame", _("A move frame needs a \"move\": its notation or its dict form."), ref=content)
            return
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            await self.send_error("bad_frame", _("\"version\" must be a whole number."), ref=content)
            return
        if not isinstance(client_id, str) or len(client_id) > MAX_ID_LENGTH or "\x00" in client_id:
            await self.send_error(
                "bad_frame", _("\"id\" must be a string of at most %(n)s characters.") % {"n": MAX_ID_LENGTH}, ref=content
            )
            return
        if await self.call(content, services.game_move, move=move, expected_version=version, client_id=client_id):
            await self.send_json({"type": "ack", "ref": client_id})

    async def on_draft(self, content: dict[str, Any]) -> None:
        move = content.get("move")
        if move is not None and not isinstance(move, (str, dict)):
            await self.send_error("bad_frame", _("A draft frame needs a \"move\" (or null)."), ref=content)
            return
        await self.call(content, services.game_draft, move=move)

    async def on_back(self, content: dict[str, Any]) -> None:
        await self.call(content, services.game_back)

    async def on_leave(self, content: dict[str, Any]) -> None:
        await self.call(content, services.table_leave)

    async def on_start(self, content: dict[str, Any]) -> None:
        await self.call(content, _as_by(services.table_start))

    async def on_rematch(self, content: dict[str, Any]) -> None:
        await self.call(content, services.table_rematch)

    async def on_new_match(self, content: dict[str, Any]) -> None:
        await self.call(content, _as_by(services.table_new_match))

    async def on_sync(self, content: dict[str, Any]) -> None:
        # A client asks for a sync when it missed a broadcast. Join the group again (a no-op if still
        # in it): after a Redis restart the groups are gone and nothing would reach this connection.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_snapshot()

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "version": await current_version(self.table_id)})


def _as_by(service: Any) -> Any:
    """Services that name the acting user `by` (host actions), called like the others."""

    def call(*, table_id: int, user: Any) -> Any:
        return service(table_id=table_id, by=user)

    return call


class LobbyConsumer(GuardedConsumer):
    """`/ws/lobby/`: the open tables, live."""

    async def connect(self) -> None:
        self.limiter = RateLimiter()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send_tables()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    def handlers(self) -> dict[str, Any]:
        return {"sync": self.on_sync, "ping": self.on_ping}

    async def send_tables(self) -> None:
        tables = await db(lobby_tables)()
        await self.send_json({"type": "tables", "tables": tables})

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self.send_tables()

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})

    async def lobby_update(self, event: dict[str, Any]) -> None:
        entry = event["entry"] and in_viewer_words(event["entry"])  # built in its sender's language
        await self.send_json({"type": "table", "id": event["id"], "entry": entry})


__all__ = ["AsyncJsonWebsocketConsumer", "LobbyConsumer", "TableConsumer"]
