"""The chat's part of a table's socket (registered on it in apps/chat/apps.py: apps/tables/parts.py):
the frames `chat`, `mute`, `unmute`, `chat_delete` and `report`, and for a socket that asks for the chat
(`?chat=1`) the history sent when it opens and the messages heard on the table's chat topic, less those
of the authors this viewer muted. docs/protocol.md describes them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, ClassVar

from django.utils import translation

from apps.chat import services
from apps.chat.models import MAX_LENGTH, MAX_REPORT_LENGTH
from apps.chat.wire import chat_topic
from apps.live.bus import bus
from apps.live.guard import CLIENT_ID, Field, FrameSpec
from apps.live.threads import db
from apps.tables.parts import SocketPart

#: The frame's own limit is looser than the rule, so a long message gets the rule's reason, not "bad frame".
TEXT_FIELD_LIMIT = 4 * MAX_LENGTH

CHAT_FRAMES: dict[str, FrameSpec] = {
    "chat": FrameSpec((Field("text", (str,), max_length=TEXT_FIELD_LIMIT), Field("phrase", (str,), max_length=12),
                       CLIENT_ID)),
    "mute": FrameSpec((Field("user", (int,), required=True),)),
    "unmute": FrameSpec((Field("user", (int,), required=True),)),
    "chat_delete": FrameSpec((Field("message", (int,), required=True),)),
    "report": FrameSpec((Field("user", (int,)), Field("message", (int,)), Field("reason", (str,), required=True, max_length=12),
                         Field("text", (str,), max_length=2 * MAX_REPORT_LENGTH), CLIENT_ID)),
}


class ChatPart(SocketPart):
    """One table socket's chat: what it heard, and whom its viewer muted."""

    frames: ClassVar[dict[str, FrameSpec]] = CHAT_FRAMES
    muted: set[int]
    history_shown: list[int]  # the ids of the messages the history sent this socket
    history_sent: asyncio.Event  # set once the history is sent: chat frames heard before it wait in heard_early
    heard_early: list[dict[str, Any]]
    _repairs: set[asyncio.Task[None]]

    async def opened(self) -> None:
        if (self.socket.query.get("chat") or [""])[0] == "1":
            self.chat_listen()
            # On Redis a message published before the listen's SUBSCRIBE reached it is lost for this socket:
            # read the history once the subscription is in effect (a round trip), or, if Redis takes longer,
            # now, and send what was said (or deleted) after it once the subscription is in effect.
            topic = chat_topic(self.socket.table_id)
            if not await bus().until_listening([topic]):
                bus().after_subscribing(topic, self.chat_subscribed)
            await self.send_chat_history()  # after the listen: a message said meanwhile comes twice, never lost

    async def closed(self) -> None:
        self.chat_unlisten()

    def chat_listen(self) -> None:
        self.muted = set()
        self.history_shown, self.history_sent, self._repairs, self.heard_early = [], asyncio.Event(), set(), []
        self._chat_listener = self.heard_chat
        bus().listen(chat_topic(self.socket.table_id), self._chat_listener)

    def chat_unlisten(self) -> None:
        listener = getattr(self, "_chat_listener", None)
        if listener is not None:
            bus().unlisten(chat_topic(self.socket.table_id), listener)

    async def send_chat_history(self) -> None:
        viewer, table_id = self.socket.user_id, self.socket.table_id

        def load() -> tuple[set[int], list[dict[str, Any]]]:
            return services.muted_by(viewer), services.chat_history(table_id=table_id, viewer_id=viewer)

        self.muted, messages = await db(load)()
        self.history_shown = [message["id"] for message in messages]
        await self.socket.send_json({"type": "chat_history", "messages": messages, "muted": sorted(self.muted)})
        self.history_sent.set()
        early, self.heard_early = self.heard_early, []
        for published in early:  # heard while the history was read: the client keeps one of each id
            if published.get("a") is None or published["a"] not in self.muted:
                await self.socket.send_text(published["f"])

    def chat_subscribed(self) -> None:
        task = asyncio.ensure_future(self.send_chat_since())
        self._repairs.add(task)
        task.add_done_callback(self._repairs.discard)

    async def send_chat_since(self) -> None:
        await self.history_sent.wait()  # the client takes chat frames after the history, not before it
        viewer, table_id, shown = self.socket.user_id, self.socket.table_id, self.history_shown
        messages, deleted = await db(services.chat_since)(
            table_id=table_id, viewer_id=viewer, after_id=max(shown, default=0), shown=shown
        )
        for message in messages:  # the client keeps one of each id: those it heard as well come once
            await self.socket.send_json({"type": "chat", "message": message})
        for message_id in deleted:
            await self.socket.send_json({"type": "chat_deleted", "id": message_id})

    def heard_chat(self, text: str) -> None:
        published = json.loads(text)
        if not self.history_sent.is_set():  # the history, sent after, would replace it on the client
            self.heard_early.append(published)
            return
        if published.get("a") is not None and published["a"] in self.muted:
            return
        self.socket.spawn_send(published["f"])

    async def chat_call(self, content: dict[str, Any], service: Callable[..., Any], **kwargs: Any) -> Any:
        language, user = self.socket.language, self.socket.user

        def run() -> Any:
            with translation.override(language):
                return service(by=user, **kwargs)

        try:
            return await db(run)()
        except services.ChatRefused as error:
            await self.socket.send_error(error.error_code, str(error), ref=content)
            return None

    async def on_chat(self, content: dict[str, Any]) -> None:
        frame = await self.chat_call(content, services.chat_say, table_id=self.socket.table_id,
                                     text=content.get("text", ""), phrase=content.get("phrase", ""))
        if frame is not None and isinstance(content.get("id"), str):
            await self.socket.send_json({"type": "ack", "ref": content["id"]})

    async def on_mute(self, content: dict[str, Any], *, muted: bool = True) -> None:
        muted_now = await self.chat_call(content, services.chat_mute, user_id=content["user"], muted=muted)
        if muted_now is not None:
            self.muted = muted_now
            await self.socket.send_json({"type": "muted", "muted": sorted(muted_now)})

    async def on_unmute(self, content: dict[str, Any]) -> None:
        await self.on_mute(content, muted=False)

    async def on_chat_delete(self, content: dict[str, Any]) -> None:
        await self.chat_call(content, services.chat_delete, message_id=content["message"])

    async def on_report(self, content: dict[str, Any]) -> None:
        report = await self.chat_call(content, services.report_make, table_id=self.socket.table_id,
                                      user_id=content.get("user"), message_id=content.get("message"),
                                      reason=content["reason"], text=content.get("text", ""))
        if report is not None:
            await self.socket.send_json({"type": "reported", "ref": content.get("id"), "report": report.pk})
