"""A WebSocket connection as a plain ASGI application (no channel layer).

    class EchoSocket(Endpoint):
        frames = {"ping": FrameSpec()}

        async def on_ping(self, content):
            await self.send_json({"type": "pong"})

Frames are read as they come: one over the size or the rate closes the connection with 1008 at once,
even while an earlier frame is still being handled. The others are handled one at a time, in order, by
a task of the connection's own; a bad one gets an `error` frame and changes nothing.

When the client goes, the connection stops at once: the handler task is cancelled (a service already
running on a database thread finishes there, in its own transaction) and `closed()` runs. Nothing waits
on a channel layer, so daphne never has to kill an instance that will not shut down (it did, with
Channels' consumers stuck in channels-redis's receive after their clients left).

Each connection has a language (`language`, chosen as for a page: apps/live/language.py), and runs in
it: what it says itself (a bad frame's error) is in that language. Published frames carry no words.
A database thread has no language of its own: an endpoint runs its services in
`translation.override(self.language)`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from apps.live.compact import dumps
from apps.live.daphne import (
    Disconnected,
    let_autobahn_format_its_debug_line_lazily,
    let_daphne_close_with_protocol_codes,
    let_websockets_send_at_once,
)
from apps.live.guard import POLICY_VIOLATION, FrameError, FrameSpec, RateLimiter, parse
from apps.live.language import language_of

log = logging.getLogger(__name__)

let_daphne_close_with_protocol_codes()
let_autobahn_format_its_debug_line_lazily()
let_websockets_send_at_once()

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Endpoint:
    #: Frame types this endpoint accepts, and their fields; a handler `on_<type>` for each.
    frames: ClassVar[dict[str, FrameSpec]] = {}
    #: Every endpoint declares its limits (SPEC 11): the largest frame it reads, and the frames a second
    #: (on average) and in a burst it takes from one connection (None: LIVE_FRAMES_PER_SECOND and
    #: LIVE_FRAME_BURST). One over either closes the connection with 1008.
    max_frame_bytes: ClassVar[int] = 8 * 1024
    frame_rate: ClassVar[tuple[float, int] | None] = None

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self.language = language_of(scope)
        self._receive = receive
        self._send = send
        self.open = False
        rate, burst = self.frame_rate or (
            float(getattr(settings, "LIVE_FRAMES_PER_SECOND", 8.0)), int(getattr(settings, "LIVE_FRAME_BURST", 30))
        )
        self.limiter = RateLimiter(rate, burst)
        self._inbox: asyncio.Queue[str] = asyncio.Queue()

    @classmethod
    def as_asgi(cls) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            await cls(scope, receive, send).serve()

        app.endpoint = cls  # type: ignore[attr-defined]  # which endpoint a route serves (tests read its limits)
        return app

    # -- what an endpoint defines ------------------------------------------------------------------------

    async def connect(self) -> int | None:
        """Decide on the handshake: None accepts; a close code (4000-4999) refuses, by accepting and
        closing at once with that code."""
        return None

    async def opened(self) -> None:
        """Runs first in the handler task, once accepted (send the first state here)."""

    async def closed(self) -> None:
        """Runs once when the connection has gone (leave rooms here; keep it quick)."""

    # -- sending -------------------------------------------------------------------------------------------

    async def send_text(self, text: str) -> None:
        if not self.open:
            return
        try:
            await self._send({"type": "websocket.send", "text": text})
        except Disconnected:  # the client left while this was on its way
            self.open = False

    async def send_json(self, frame: Any) -> None:
        await self.send_text(dumps(frame))

    async def send_error(self, code: str, message: str, *, ref: Any = None, **extra: Any) -> None:
        frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if isinstance(ref, dict) and isinstance(ref.get("id"), str):
            frame["ref"] = ref["id"]
        frame.update(extra)
        await self.send_json(frame)

    async def close(self, code: int = 1000) -> None:
        if not self.open:
            return
        self.open = False
        try:
            await self._send({"type": "websocket.close", "code": code})
        except Disconnected:
            pass

    # -- the connection's life -----------------------------------------------------------------------------

    async def serve(self) -> None:
        # The handler task started below copies this context, so it runs in the language too.
        with translation.override(self.language):
            await self._serve()

    async def _serve(self) -> None:
        message = await self._receive()
        if message["type"] != "websocket.connect":
            return
        try:
            refused = await self.connect()
        except Exception:
            log.exception("A WebSocket handshake failed")
            refused = 1011
        if refused is not None:
            # Accepted, then closed with the code: a close before the accept would reach a real client
            # as a bare HTTP 403, and it could not tell "no such table" from a bad origin.
            await self._send({"type": "websocket.accept"})
            await self._send({"type": "websocket.close", "code": refused})
            return
        await self._send({"type": "websocket.accept"})
        self.open = True
        worker = asyncio.ensure_future(self._work())
        try:
            while True:
                message = await self._receive()
                kind = message["type"]
                if kind == "websocket.receive":
                    if not await self._admit(message):
                        break
                elif kind == "websocket.disconnect":
                    break
        finally:
            self.open = False
            worker.cancel()
            try:
                await self.closed()
            except Exception:
                log.exception("Cleaning up after a WebSocket failed")

    async def _admit(self, message: dict[str, Any]) -> bool:
        text = message.get("text")
        raw = text if text is not None else (message.get("bytes") or b"").decode("utf-8", "replace")
        try:
            if len(raw) > self.max_frame_bytes or len(raw.encode("utf-8")) > self.max_frame_bytes:
                raise FrameError("too_big", _("A frame may be at most %(size)s bytes.") % {"size": self.max_frame_bytes},
                                 close=True)
            if not self.limiter.allow():
                raise FrameError("rate_limited", _("Too many frames: slow down."), close=True)
        except FrameError as error:
            await self.send_error(error.code, str(error))
            await self.close(POLICY_VIOLATION)
            return False
        self._inbox.put_nowait(raw)
        return True

    async def _work(self) -> None:
        try:
            await self.opened()
            while True:
                raw = await self._inbox.get()
                if not self.open:
                    return
                await self._handle(raw)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("A WebSocket's handler task failed; closing it")
            await self.close(1011)

    async def _handle(self, raw: str) -> None:
        content: dict[str, Any] | None = None
        try:
            content = parse(raw)
            spec = self.frames.get(content["type"])
            if spec is None:
                raise FrameError("unknown_type", _("Unknown frame type %(type)r.") % {"type": content["type"][:40]})
            spec.check(content)
        except FrameError as error:
            await self.send_error(error.code, str(error), ref=content)
            return
        await getattr(self, "on_" + content["type"])(content)
