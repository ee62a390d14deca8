"""Close codes of RFC 6455 through daphne.

Daphne closes through autobahn's sendClose(), which only lets an application use 1000 or 3000-4999 and
raises on 1008 (the 'policy violation' this protocol promises): the connection then ends with 1011 and
a traceback. Codes an endpoint may send by the RFC go out through autobahn's own close frame instead;
anything else is left to sendClose() as before. Applied once, on import of apps.live.endpoint.
"""

from __future__ import annotations

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


try:
    from autobahn.exception import Disconnected
except ImportError:  # served by something other than daphne

    class Disconnected(Exception):  # type: ignore[no-redef]
        pass
