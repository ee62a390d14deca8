"""The sockets' door for programs (SPEC 14): `Authorization: Bearer TOKEN` instead of a session cookie.

    websocket = BearerTokenMiddleware(
        browsers=AllowedHostsOriginValidator(session_user_stack(URLRouter(routes))),
        tokens=URLRouter(routes),
    )

A WebSocket handshake without an Authorization header goes to `browsers` untouched: the Origin rule and
the session cookie, as before. One with a Bearer token never reaches the session: the token is resolved
to its bot account (apps/bots/auth.py) and the connection goes to `tokens`, the same endpoints, with
`scope["user"]` the bot account and `scope["bot_token"]` the token's id. An Origin header is not needed
there: the Origin rule stops other sites' pages from riding a visitor's cookie, and a token is never sent
by a browser on its own. A refused token is answered by accepting, one `error` frame and a close with
4401 (unknown or revoked token) or 4403 (a disabled or banned account), so a program can tell why.

While a token socket is open it listens on its token's topic of the live bus: revoking the token
(apps/bots/services.py) publishes there, and the socket gets an `error` frame (`token_revoked`) and is
closed with 4401 at once; the endpoint behind it sees an ordinary disconnect. Every CHECK_SECONDS each
process also checks its open tokens against the database in one query (a message lost while Redis
restarted, a ban or a deactivation) and closes those that no longer open anything the same way.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from typing import Any

from django.utils import translation

from apps.bots import presence, tokens
from apps.bots.auth import TokenRefused, account_refusal, authenticate, revoked
from apps.bots.models import AccessToken
from apps.bots.services import REVOKED, token_topic
from apps.live.bus import bus
from apps.live.compact import dumps
from apps.live.language import language_of
from apps.live.threads import db

log = logging.getLogger(__name__)

ASGIApp = Any
#: How often each process checks its open token sockets against the database.
CHECK_SECONDS = 30.0

_open: weakref.WeakSet[TokenConnection] = weakref.WeakSet()


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _error_frame(refusal: TokenRefused) -> str:
    return dumps({"type": "error", "code": refusal.code, "message": str(refusal)})


class BearerTokenMiddleware:
    def __init__(self, browsers: ASGIApp, tokens: ASGIApp) -> None:
        self.browsers = browsers
        self.tokens = tokens

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        secret = tokens.bearer(_header(scope, b"authorization")) if scope["type"] == "websocket" else None
        if secret is None:
            await self.browsers(scope, receive, send)
            return
        language = language_of(scope)

        def resolve() -> AccessToken:
            with translation.override(language):
                return authenticate(secret)

        try:
            token = await db(resolve)()
        except TokenRefused as refusal:
            await _refuse(receive, send, refusal)
            return
        user = token.bot.user
        connection = TokenConnection(token.pk, user.pk, receive, send, language)
        await connection.serve(self.tokens, {**scope, "user": user, "bot_token": token.pk})


async def _refuse(receive: Any, send: Any, refusal: TokenRefused) -> None:
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": _error_frame(refusal)})
    await send({"type": "websocket.close", "code": refusal.close_code})


class TokenConnection:
    """One token socket between the server and the endpoint: it passes everything through until the token
    stops opening anything (`shut`), then tells the client why, closes, and ends the endpoint's receive
    with a disconnect; whatever the endpoint sends after that is dropped."""

    def __init__(self, token_id: int, user_id: int, receive: Any, send: Any, language: str) -> None:
        self.token_id = token_id
        self.user_id = user_id
        self._receive = receive
        self._send = send
        self.language = language
        self.accepted = False
        self.closed = False
        self.refusal: TokenRefused | None = None
        self._kicked = asyncio.Event()
        self._pending: asyncio.Future[dict[str, Any]] | None = None
        self._online = False

    async def serve(self, app: ASGIApp, scope: dict[str, Any]) -> None:
        topic = token_topic(self.token_id)
        bus().listen(topic, self._published)
        bus().on_gap(check_after_gap)  # once per bus: it keeps one of each
        _open.add(self)
        try:
            await app(scope, self.receive, self.send)
        finally:
            _open.discard(self)
            bus().unlisten(topic, self._published)
            if self._pending is not None:
                self._pending.cancel()
            if self._online:
                await db(presence.departed)(self.user_id)

    # -- why it ends -----------------------------------------------------------------------------------

    def _published(self, data: str) -> None:
        try:
            reason = json.loads(data).get("reason")
        except ValueError:
            reason = None
        if reason == REVOKED:
            with translation.override(self.language):
                self.kick(revoked())

    def kick(self, refusal: TokenRefused) -> None:
        """Close this socket for `refusal` (from the server loop)."""
        if self.refusal is None:
            self.refusal = refusal
            self._kicked.set()

    async def _shut(self) -> None:
        if self.closed:
            return
        self.closed = True
        assert self.refusal is not None
        if self.accepted:
            try:
                await self._send({"type": "websocket.send", "text": _error_frame(self.refusal)})
            except Exception:  # the client left meanwhile
                pass
        try:
            await self._send({"type": "websocket.close", "code": self.refusal.close_code})
        except Exception:
            pass

    # -- the endpoint's side ---------------------------------------------------------------------------

    async def receive(self) -> dict[str, Any]:
        if self.closed:
            return {"type": "websocket.disconnect", "code": self.refusal.close_code if self.refusal else 1000}
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._receive())
        if not self._kicked.is_set():
            kicked = asyncio.ensure_future(self._kicked.wait())
            try:
                await asyncio.wait({self._pending, kicked}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                kicked.cancel()
        if self._pending.done() and not self._kicked.is_set():
            message = self._pending.result()
            self._pending = None
            return message
        await self._shut()
        assert self.refusal is not None
        return {"type": "websocket.disconnect", "code": self.refusal.close_code}

    async def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        kind = message.get("type")
        if kind == "websocket.close":
            self.closed = True
        await self._send(message)
        if kind == "websocket.accept":
            self.accepted = True
            if self._kicked.is_set():
                await self._shut()
            else:
                self._online = True
                await db(presence.arrived)(self.user_id)


def _tokens_now(token_ids: list[int]) -> dict[int, AccessToken]:
    """These tokens as they are now, with their bot accounts' users (one query; a deleted one is absent)."""
    return {token.pk: token for token in AccessToken.objects.filter(pk__in=token_ids).select_related("bot__user")}


def _refusal_now(token: AccessToken | None) -> TokenRefused | None:
    if token is None or token.revoked:
        return revoked()
    return account_refusal(token.bot.user)


async def check_open_tokens() -> int:
    """Close this process's token sockets whose token no longer opens anything (one query). Returns how
    many it closed."""
    connections = [connection for connection in list(_open) if not connection.closed]
    if not connections:
        return 0
    rows = await db(_tokens_now)(sorted({connection.token_id for connection in connections}))
    closed = 0
    for connection in connections:
        with translation.override(connection.language):
            refusal = _refusal_now(rows.get(connection.token_id))
        if refusal is not None:
            connection.kick(refusal)
            closed += 1
    return closed


async def check_forever() -> None:
    """Runs in each web process's loop (BotsConfig.ready)."""
    while True:
        await asyncio.sleep(CHECK_SECONDS)
        try:
            await check_open_tokens()
        except Exception as error:  # the database is away for a moment: the next round tries again
            log.warning("Checking the open token sockets failed: %s: %s", type(error).__name__, error)


_checks: set[asyncio.Task[int]] = set()


def check_after_gap() -> None:
    """The live bus lost messages (Redis came back): a revocation may have been among them."""
    task = asyncio.get_running_loop().create_task(check_open_tokens())
    _checks.add(task)
    task.add_done_callback(_checks.discard)
