"""Three corrections to daphne's WebSocket layer (autobahn, twisted), applied once, on import of
apps.live.endpoint, and one to its access log, applied by rummysite/asgi.py.

Close codes of RFC 6455 through daphne.

Daphne closes through autobahn's sendClose(), which only lets an application use 1000 or 3000-4999 and
raises on 1008 (the 'policy violation' this protocol promises): the connection then ends with 1011 and
a traceback. Codes an endpoint may send by the RFC go out through autobahn's own close frame instead;
anything else is left to sendClose() as before.

A handshake without a debug log. Autobahn pretty-prints every connection's forty-odd options for a
debug line (`pformat` in `WebSocketProtocol._connectionMade`) whether or not debug logging is on: 18% of
the process's CPU during a burst of handshakes (bench/README.md, load). The line is kept, formatted only
if it is written.

A WebSocket frame sent at once. Twisted never sends in `transport.write`: it buffers the bytes, asks the
event loop to watch the socket for writing (an `epoll_ctl`), sends them on the loop's next turn, and
stops watching (another `epoll_ctl`). A move's frames go to four or five sockets, one frame each, so that
was two system calls and a turn of the loop more per frame: a third of the loop thread's time at 250
tables (bench/README.md, issue 14). On a WebSocket's connection (TCP_NODELAY, set by autobahn) with
nothing waiting in its buffer, the bytes are now sent at once, as asyncio's transports do; whatever the
socket does not take (a full buffer, an error) goes the old way, after anything sent, so order and error
handling are twisted's own. HTTP responses are left alone (they are written in several pieces that
twisted joins).

An access log without invitations. Daphne writes every request's path and query to its access log
(stdout, at its default verbosity): a private table's link, `?invite=TOKEN`, is the key to the table, and
logs are kept and read by more people than the table's host. The token is replaced by a placeholder
before any access logger sees the path (issue 40).
"""

from __future__ import annotations

import re
from pprint import pformat
from typing import Any

#: Close codes of RFC 6455 section 7.4.1 that an endpoint may send (1008: policy violation).
RFC_CLOSE_CODES = frozenset({1001, 1003, 1007, 1008, 1009, 1011})


def let_daphne_close_with_protocol_codes() -> None:
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


class _Pretty:
    """`pformat(value)`, done when (and if) the log line is formatted."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(pformat(self.value), spec)

    def __str__(self) -> str:
        return pformat(self.value)


def let_autobahn_format_its_debug_line_lazily() -> None:
    try:
        from autobahn.websocket import protocol
    except ImportError:  # not served by daphne
        return
    if getattr(protocol, "pformat", None) is pformat:
        protocol.pformat = _Pretty  # type: ignore[attr-defined, assignment]  # autobahn's own import of it, replaced on purpose


try:
    from autobahn.exception import Disconnected as Disconnected  # re-exported: apps/live/endpoint.py catches it
except ImportError:  # served by something other than daphne

    class Disconnected(Exception):  # type: ignore[no-redef]  # the stand-in when autobahn is not installed
        pass


def let_websockets_send_at_once() -> None:
    try:
        from daphne.ws_protocol import WebSocketProtocol
        from twisted.internet import tcp
    except ImportError:  # not served by daphne
        return
    # Twisted's class, patched: typed as Any, since what its declarations say is what this replaces.
    connection: Any = tcp.Connection
    if getattr(connection, "_sends_at_once", False):
        return
    buffered_write = connection.write

    def write(self: Any, data: bytes) -> None:
        if (
            self.__dict__.get("send_at_once")
            and type(data) is bytes
            and data
            and self.connected
            and not self.TLS
            and not self._writeDisconnected
            and not self.disconnecting
            and not self._tempDataLen  # nothing waits (so no producer is paused for it either)
            and self.offset == len(self.dataBuffer)
        ):
            sent = self.writeSomeData(data)  # bytes sent, or an exception (the connection is lost)
            if type(sent) is int and sent > 0:
                if sent == len(data):
                    return
                data = data[sent:]
        buffered_write(self, data)

    made = WebSocketProtocol.connectionMade

    def connection_made(self: Any) -> None:
        made(self)
        if getattr(self, "tcpNoDelay", False) and isinstance(self.transport, connection):
            self.transport.send_at_once = True

    connection.write = write
    connection._sends_at_once = True
    WebSocketProtocol.connectionMade = connection_made


#: What an access log line shows instead of a private table's invite token.
INVITE_PLACEHOLDER = "HIDDEN"
_INVITE = re.compile(r"([?&;]invite=)[^&;#\s]*", re.I)


def without_invites(path: str) -> str:
    """The path and query with every `invite=` value replaced: "/tables/7/?invite=HIDDEN&chat=1"."""
    return _INVITE.sub(lambda found: found.group(1) + INVITE_PLACEHOLDER, path)


def let_access_logs_hide_invites() -> None:
    try:
        from daphne.server import Server
    except ImportError:  # not served by daphne
        return
    if getattr(Server, "_hides_invites", False):
        return
    log_action = Server.log_action

    def log_without_invites(self: Any, protocol: str, action: str, details: dict[str, Any]) -> None:
        path = details.get("path")
        if isinstance(path, str) and "invite=" in path.lower():
            details = {**details, "path": without_invites(path)}
        log_action(self, protocol, action, details)

    Server.log_action = log_without_invites
    Server._hides_invites = True
