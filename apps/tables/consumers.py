"""WebSocket endpoints of the tables: a table (play or watch) and the lobby. Thin: authenticate, check
the frame (apps/live/guard.py does it from the declarations below), call a service on a database thread,
turn refusals into error frames (CONVENTIONS 8). docs/protocol.md describes every frame.

A table's socket also carries the parts the apps above register (apps/tables/parts.py): the chat's
frames (apps/chat) and the hints (apps/review). Their frames are declared with the socket's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar
from urllib.parse import parse_qs

from django.utils import translation
from django.utils.translation import gettext as _

from apps.engine.errors import EngineError
from apps.live.bus import bus
from apps.live.endpoint import Endpoint, Receive, Scope, Send
from apps.live.guard import CLIENT_ID, Field, FrameSpec
from apps.live.threads import db
from apps.tables import services
from apps.tables.access import may_watch
from apps.tables.effects import LOBBY_TOPIC, invitations_topic
from apps.tables.engine_text import engine_text
from apps.tables.models import Table
from apps.tables.parts import SocketPart, socket_frames, socket_parts
from apps.tables.rooms import Room, rooms
from apps.tables.snapshot import invitations_for, lobby_tables

NO_FIELDS = FrameSpec()


class TableSocket(Endpoint):
    """`/ws/tables/<id>/`: players act for their own seat; everyone else watches; all talk (apps/chat's
    part) and players ask for hints (apps/review's)."""

    frames: ClassVar[dict[str, FrameSpec]] = socket_frames({
        "move": FrameSpec((
            Field("move", (str, dict), required=True),
            Field("version", (int,)),
            CLIENT_ID,
        )),
        "draft": FrameSpec((Field("move", (str, dict, type(None)), required=True),)),
        "back": NO_FIELDS,
        "leave": NO_FIELDS,
        # `id`, as on a move: echoed as `ref` by the refusal, or by an `ack` when the match starts, so that a
        # retried start can be matched to its answer (docs/protocol.md, section 4).
        "start": FrameSpec((CLIENT_ID,)),
        "rematch": NO_FIELDS,
        "ready": NO_FIELDS,
        "pace": FrameSpec((Field("seconds", (int,), required=True),)),
        "new_match": NO_FIELDS,
        "seed": FrameSpec((Field("seed", (str,), required=True, max_length=64),)),
        "sync": NO_FIELDS,
        "ping": NO_FIELDS,
    })

    #: A move of the rearrange game names every meld on the table: 8 KiB holds the largest by far.
    max_frame_bytes: ClassVar[int] = 8 * 1024
    frame_rate: ClassVar[tuple[float, int] | None] = None  # LIVE_FRAMES_PER_SECOND, LIVE_FRAME_BURST

    sent = -1
    room: Room
    query: dict[str, list[str]]
    wants_presence = False

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        super().__init__(scope, receive, send)
        # Each registered part for this connection, its frames handled as the socket's own `on_<type>`.
        self.parts: list[SocketPart] = [part(self) for part in socket_parts()]
        for part in self.parts:
            for kind in part.frames:
                setattr(self, "on_" + kind, getattr(part, "on_" + kind))

    async def connect(self) -> int | None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.user_id: int | None = self.user.pk if self.user is not None else None
        self.query = query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        # The frames a client asks for beyond the table's state (docs/protocol.md): the presence here, the
        # chat in its part.
        self.wants_presence = (query.get("presence") or [""])[0] == "1"
        version = await db(_watchable_version)(self.table_id, self.user, (query.get("invite") or [""])[0])
        if version is None:
            return 4404  # as for a table that does not exist: a private id stays secret
        self.version_at_connect = version
        return None

    async def opened(self) -> None:
        # Into the room once the socket is open (a change published before that would be sent to a
        # socket not yet accepted, and lost), then up to the version seen at the handshake at least.
        self.room = rooms().join(self.table_id, self)
        await rooms().bring_up_to(self.room, self.version_at_connect)
        await self.room.offer(self)  # unless the room's own push got there first: once per version
        presence = self.room.presence_frame() if self.wants_presence else None
        if presence is not None:
            await self.send_text(presence)
        for part in self.parts:
            await part.opened()

    async def closed(self) -> None:
        for part in self.parts:
            await part.closed()
        if hasattr(self, "room"):
            rooms().leave(self.room, self)

    def spawn_send(self, text: str) -> None:
        rooms().spawn(self.send_text(text))

    def engine_message(self, error: EngineError) -> str:
        """The engine speaks English; the player reads its message by code in the connection's language."""
        with translation.override(self.language):
            return engine_text(error)

    async def call(self, content: dict[str, Any], service: Callable[..., Any], **kwargs: Any) -> bool:
        """Run a service for this connection's user; refusals become error frames. True if it ran."""
        if self.user is None:
            await self.send_error("not_signed_in", _("Spectators cannot act: sign in or play as a guest."), ref=content)
            return False
        language = self.language

        def run() -> Any:
            with translation.override(language):
                return service(table_id=self.table_id, by=self.user, **kwargs)

        try:
            await db(run)()
        except services.StaleVersion as error:
            with translation.override(language):
                await self.send_error(error.error_code, str(error), ref=content, version=error.current)
            if self.room.version >= error.current:
                await self.room.offer(self, force=True)
            return False  # else the change is on its way to the room, and will be sent as it arrives
        except services.TableError as error:
            await self.send_error(error.error_code, str(error), ref=content)  # worded by the service, in `language`
            return False
        except EngineError as error:
            await self.send_error(error.error_code, self.engine_message(error), ref=content)
            return False
        return True

    async def on_move(self, content: dict[str, Any]) -> None:
        client_id = content.get("id", "")
        if await self.call(
            content, services.game_move, move=content["move"], expected_version=content.get("version"), client_id=client_id
        ):
            await self.send_json({"type": "ack", "ref": client_id})

    async def on_draft(self, content: dict[str, Any]) -> None:
        await self.call(content, services.game_draft, move=content["move"])

    async def on_back(self, content: dict[str, Any]) -> None:
        await self.call(content, services.game_back)

    async def on_leave(self, content: dict[str, Any]) -> None:
        await self.call(content, services.table_leave)

    async def on_start(self, content: dict[str, Any]) -> None:
        if await self.call(content, services.table_start) and "id" in content:
            await self.send_json({"type": "ack", "ref": content["id"]})

    async def on_pace(self, content: dict[str, Any]) -> None:
        await self.call(content, services.table_pace, turn_seconds=content["seconds"])

    async def on_ready(self, content: dict[str, Any]) -> None:
        await self.call(content, services.game_ready)

    async def on_rematch(self, content: dict[str, Any]) -> None:
        await self.call(content, services.table_rematch)

    async def on_new_match(self, content: dict[str, Any]) -> None:
        await self.call(content, services.table_new_match)

    async def on_seed(self, content: dict[str, Any]) -> None:
        await self.call(content, services.table_seed, seed=content["seed"])

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self.room.offer(self, force=True)

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_text(f'{{"type":"pong","version":{self.room.version}}}')


def _watchable_version(table_id: int, user: Any, invite: str) -> int | None:
    """The table's version if this viewer may watch it; None if not (or if there is no such table). An
    unstarted table is stamped as watched (SPEC 11: one nobody looks at closes)."""
    table = Table.objects.filter(pk=table_id).only("id", "private", "invite_token", "status", "version").first()
    if table is None or not may_watch(table, user, invite):
        return None
    if table.status == Table.Status.OPEN:
        services.tables_watched([table.pk])
    return table.version


class LobbySocket(Endpoint):
    """`/ws/lobby/`: the open tables, live. A bot account's lobby (a token socket: apps/bots/asgi.py) also
    hears of the invitations waiting for it (SPEC 14)."""

    frames: ClassVar[dict[str, FrameSpec]] = {"sync": NO_FIELDS, "ping": NO_FIELDS}
    #: The lobby reads only `sync` and `ping`: small frames, a few a second.
    max_frame_bytes: ClassVar[int] = 512
    frame_rate: ClassVar[tuple[float, int] | None] = (2.0, 10)
    bot_id: int | None = None
    reading: int  # full reads (tables, invitations) under way: published frames wait for them in `held`
    held: list[str]
    flushing: bool

    async def connect(self) -> int | None:
        if self.scope.get("bot_token") is not None:
            self.bot_id = self.scope["user"].pk
        return None

    async def opened(self) -> None:
        # Into the lobby (and a bot's invitations) once the socket is open, as for a table: a frame
        # pushed before the accept would be lost.
        self.reading, self.held, self.flushing = 0, [], False
        rooms().lobby.join(self)
        topics = [LOBBY_TOPIC] if self.bot_id is None else [LOBBY_TOPIC, invitations_topic(self.bot_id)]
        if self.bot_id is not None:
            bus().listen(topics[1], self.invited)
        # On Redis a change published before the listen's SUBSCRIBE reached it is lost for this socket: read
        # once the subscription is in effect (a round trip), or, if Redis takes longer, now and again once
        # it is (the frames heard during a read wait for it, so an older read never overwrites a newer frame).
        if not await bus().until_listening(topics):
            for topic in topics:
                bus().after_subscribing(topic, self.subscribed)
        await self.send_tables()
        if self.bot_id is not None:
            await self.send_invitations(self.bot_id)

    async def closed(self) -> None:
        rooms().lobby.leave(self)
        if self.bot_id is not None:
            bus().unlisten(invitations_topic(self.bot_id), self.invited)

    def subscribed(self) -> None:
        if self.open:
            rooms().spawn(self.on_sync({}))

    def invited(self, text: str) -> None:
        rooms().spawn(self.take_lobby(text))

    async def take_lobby(self, text: str) -> None:
        """A published lobby (or invitation) frame: sent now, or after the full read under way."""
        if self.reading or self.flushing:
            self.held.append(text)
        else:
            await self.send_text(text)

    async def send_read(self, frame: Callable[[], Any]) -> None:
        """Send `frame()` (read on a database thread), and then the frames published during the read."""
        self.reading += 1
        try:
            await self.send_json(await db(frame)())
        finally:
            self.reading -= 1
        if self.reading or self.flushing:
            return
        self.flushing = True
        try:
            while self.held:
                await self.send_text(self.held.pop(0))
        finally:
            self.flushing = False

    async def send_invitations(self, bot_id: int) -> None:
        await self.send_read(lambda: {"type": "invitations", "invitations": invitations_for(bot_id)})

    async def send_tables(self) -> None:
        await self.send_read(lambda: {"type": "tables", "tables": lobby_tables()})

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self.send_tables()
        if self.bot_id is not None:
            await self.send_invitations(self.bot_id)

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_text('{"type":"pong"}')
