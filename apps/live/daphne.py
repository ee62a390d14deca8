"""Two corrections to daphne's WebSocket layer (autobahn), applied once, on import of apps.live.endpoint.

Close codes of RFC 6455 through daphne.

Daphne closes through autobahn's sendClose(), which only lets an application use 1000 or 3000-4999 and
raises on 1008 (the 'policy violation' this protocol promises): the connection then ends with 1011 and
a traceback. Codes an endpoint may send by the RFC go out through autobahn's own close frame instead;
anything else is left to sendClose() as before.

A handshake without a debug log. Autobahn pretty-prints every connection's forty-odd options for a
debug line (`pformat` in `WebSocketProtocol._connectionMade`) whether or not debug logging is on: 18% of
the process's CPU during a burst of handshakes (bench/README.md, load). The line is kept, formatted only
if it is written.
"""

from __future__ import annotations

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
        protocol.pformat = _Pretty  # type: ignore[assignment]


try:
    from autobahn.exception import Disconnected
except ImportError:  # served by something other than daphne

    class Disconnected(Exception):  # type: ignore[no-redef]
        pass
