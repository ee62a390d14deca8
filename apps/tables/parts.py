"""The parts that apps above the tables add to a table's socket and page (CONVENTIONS 26).

The chat (apps/chat) and the hints (apps/review) sit above the tables, so the tables app cannot name
them: each registers its part here, in its AppConfig.ready(), and the table's socket and page take every
part registered.

    register_socket_part(ChatPart)       # apps/chat/apps.py
    register_page_strings(chat_strings)

A socket part declares its frames as every endpoint does (apps/live/guard.py checks a frame against its
declaration before any handler runs), and handles each in `on_<type>`; a frame type the socket or another
part already declares is refused at registration, as is one without its handler. One part object is made
per connection, with the connection it serves (`TableConnection`: what a part may use of it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from django.core.exceptions import ImproperlyConfigured

from apps.engine.errors import EngineError
from apps.live.guard import FrameSpec


class TableConnection(Protocol):
    """What a part may use of a table's socket (apps/tables/consumers.py, TableSocket)."""

    table_id: int
    user: Any  # the signed-in user, or None for an anonymous spectator
    user_id: int | None
    language: str
    #: The socket's query string, parsed: the frames a client asks for beyond the table's (docs/protocol.md).
    query: dict[str, list[str]]

    async def send_text(self, text: str) -> None: ...

    async def send_json(self, frame: Any) -> None: ...

    async def send_error(self, code: str, message: str, *, ref: Any = None, **extra: Any) -> None: ...

    def spawn_send(self, text: str) -> None:
        """Send from a listener of the live bus (not in the socket's handler task)."""

    def engine_message(self, error: EngineError) -> str:
        """The engine's refusal said in the connection's language (apps/tables/engine_text.py)."""


class SocketPart:
    """A part of every table's socket: its frames, their handlers `on_<type>(content)`, and what it does
    when the socket opens and closes."""

    frames: ClassVar[dict[str, FrameSpec]] = {}

    def __init__(self, socket: TableConnection) -> None:
        self.socket = socket

    async def opened(self) -> None:
        """Runs once the socket is open and the table's state (and presence) is sent."""

    async def closed(self) -> None:
        """Runs once the connection has gone, before it leaves the table's room (keep it quick)."""


#: Every frame a table's socket reads: its own and its parts'. TableSocket.frames is this dict, so a
#: part registered after the socket's module was imported is declared all the same.
_frames: dict[str, FrameSpec] = {}
_socket_parts: list[type[SocketPart]] = []
_page_strings: list[Callable[[], dict[str, object]]] = []


def _declare(frames: dict[str, FrameSpec], whose: str) -> None:
    taken = sorted(set(frames) & set(_frames))
    if taken:
        raise ImproperlyConfigured(f"{whose} declares table socket frames already declared: {taken}")
    _frames.update(frames)


def socket_frames(own: dict[str, FrameSpec]) -> dict[str, FrameSpec]:
    """The table socket's frames: its `own`, and every part's (registered before or after this call)."""
    _declare(own, "The table socket")
    return _frames


def register_socket_part(part: type[SocketPart]) -> None:
    """Add `part` to every table socket opened from now on (once: a second call changes nothing)."""
    if part in _socket_parts:
        return
    missing = [kind for kind in part.frames if not callable(getattr(part, "on_" + kind, None))]
    if missing:
        raise ImproperlyConfigured(f"{part.__qualname__} declares frames without a handler: {missing}")
    _declare(part.frames, part.__qualname__)
    _socket_parts.append(part)


def socket_parts() -> tuple[type[SocketPart], ...]:
    return tuple(_socket_parts)


def register_page_strings(strings: Callable[[], dict[str, object]]) -> None:
    """Add the words `strings()` returns (translated when the page is rendered) to the table page's."""
    if strings not in _page_strings:
        _page_strings.append(strings)


def page_strings() -> dict[str, object]:
    """Every registered part's words for the table page, in the active language."""
    words: dict[str, object] = {}
    for strings in _page_strings:
        words.update(strings())
    return words
