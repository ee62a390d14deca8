"""What every frame must be, checked in one place before any handler sees it.

A frame is one JSON object with a string `type`, at most a size, at most a rate; its fields are
declared per type (`FrameSpec`): a field of the wrong type is refused as `bad_frame` before anything
runs, so a handler only ever sees well-typed values. Unknown fields are ignored (a newer client may
send more). docs/protocol.md describes the table's frames.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

POLICY_VIOLATION = 1008


class FrameError(Exception):
    """A frame refused before its handler: `code` is the error frame's code; `close` whether the
    connection is closed with 1008 after the error frame (size and rate)."""

    def __init__(self, code: str, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.close = close


class RateLimiter:
    """A token bucket: bursts of `burst` frames, refilled at `rate` a second. `clock` is looked up on the
    class, so a test can stop time for every limiter (a rate test's verdict must not depend on how fast
    the machine serves the frames)."""

    clock = staticmethod(time.monotonic)

    def __init__(self, rate: float, burst: int) -> None:
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


_KIND_NAMES = {
    str: gettext_lazy("a string"),
    int: gettext_lazy("a whole number"),
    dict: gettext_lazy("an object"),
    list: gettext_lazy("a list"),
    type(None): "null",
}


@dataclass(frozen=True)
class Field:
    """One field of a frame: its accepted JSON types (`int` never accepts true/false), and for strings a
    maximum length (and never a NUL character, which PostgreSQL text cannot hold)."""

    name: str
    types: tuple[type, ...]
    required: bool = False
    max_length: int | None = None

    def check(self, content: dict[str, Any]) -> None:
        if self.name not in content:
            if self.required:
                raise FrameError("bad_frame", _("This frame needs \"%(field)s\".") % {"field": self.name})
            return
        value = content[self.name]
        if isinstance(value, bool) or not isinstance(value, self.types):
            kinds = _(" or ").join(str(_KIND_NAMES.get(kind, kind.__name__)) for kind in self.types)
            raise FrameError("bad_frame", _("\"%(field)s\" must be %(kinds)s.") % {"field": self.name, "kinds": kinds})
        if isinstance(value, str) and (
            (self.max_length is not None and len(value) > self.max_length) or "\x00" in value
        ):
            raise FrameError(
                "bad_frame",
                _("\"%(field)s\" must be a string of at most %(n)s characters.")
                % {"field": self.name, "n": self.max_length},
            )


#: A frame's own `id`, chosen by the client: echoed as `ref` by the frame's `ack` or error, and kept with
#: a move (MoveLog.client_id) so that a move sent twice is applied once. At most this long, everywhere.
CLIENT_ID_LENGTH = 64
#: The `id` field of the frames that carry one.
CLIENT_ID = Field("id", (str,), max_length=CLIENT_ID_LENGTH)


@dataclass(frozen=True)
class FrameSpec:
    fields: tuple[Field, ...] = ()

    def check(self, content: dict[str, Any]) -> None:
        for field in self.fields:
            field.check(content)


def parse(raw: str) -> dict[str, Any]:
    """A frame's JSON object (FrameError `bad_json` or `bad_frame` otherwise)."""
    try:
        content = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise FrameError("bad_json", _("A frame must be a JSON object.")) from None
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        raise FrameError("bad_frame", _("A frame must be a JSON object with a \"type\"."))
    return content
