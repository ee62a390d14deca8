"""Hypothesis strategies for hostile WebSocket frames, and the oracle that says which of them may
legitimately change a table. Used by tests/fuzz/test_frames.py (a few hundred frames in the suite) and
bench/fuzz.py (100,000 frames against the real stack).

A frame is drawn as a small recipe (`Frame`): what is sent (text, or bytes) and which connection sends
it (a role). The recipe is resolved against the table's current version at send time, so "stale" means
stale whatever the version is.

Roles: `spectator` (signed out), `stranger` (signed in, no seat), `waiting` (seated, not to move),
`mover` (seated, to move). Everything the first three send is refused; the mover's frames are checked
by the oracle (`changes_state`): anything the engine would accept is dropped from the stream, so every
frame that is sent must be refused and change nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from apps.engine.errors import EngineError
from apps.engine.game import Leave, Rules

ROLES = ("spectator", "stranger", "waiting", "mover")
TYPES = ("move", "draft", "back", "leave", "start", "rematch", "ready", "new_match", "sync", "ping")
#: Frames that change nothing by design (they only read).
READ_ONLY = {"sync", "ping"}
TABLE_ONLY = {"timeout", "auto"}
MAX_FRAME_BYTES = 8 * 1024

KINDS = ("draw", "take", "lay", "add", "joker", "discard", "timeout", "auto", "back", "leave", "play", "pass")
COLOUR_LETTERS = ("r", "y", "b", "k", "R", "x", "")

# ---------------------------------------------------------------------------------------------------
# Building blocks


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)

tile_words = st.one_of(
    st.builds(lambda c, n: f"{c}{n}", st.sampled_from(COLOUR_LETTERS), st.integers(min_value=-2, max_value=16)),
    st.sampled_from(["J", "j", "JJ", "..", "|", ",", "r", "13", "r٣", "r²", "k1e3", "y+5", "b 5"]),
    st.text(max_size=4),
)
meld_indices = st.one_of(
    st.integers(min_value=-3, max_value=40).map(str),
    st.sampled_from(["²", "٣", "", "1.5", "0x1", "99999999999999999999", "-0"]),
    st.text(max_size=3),
)


@st.composite
def notations(draw: st.DrawFn) -> str:
    """Text that looks like a move: a kind, then tiles, melds and indices in some order."""
    kind = draw(st.sampled_from(KINDS) | st.text(max_size=6))
    parts = [kind]
    for _ in range(draw(st.integers(min_value=0, max_value=8))):
        parts.append(draw(st.one_of(tile_words, meld_indices, st.sampled_from(["|", "..", "/", ""]))))
    return " ".join(parts)


def _dict_moves() -> st.SearchStrategy[dict[str, Any]]:
    faces = st.lists(tile_words, max_size=5)
    return st.fixed_dictionaries(
        {"type": st.sampled_from(KINDS) | st.text(max_size=6)},
        optional={
            "tile": tile_words | json_values,
            "melds": st.lists(faces, max_size=3) | json_values,
            "meld": meld_indices | st.integers() | json_values,
            "tiles": faces | json_values,
            "before": faces,
            "after": faces,
            "move": notations(),
        },
    )


moves = st.one_of(notations(), st.text(max_size=40), _dict_moves(), json_values)
ids = st.one_of(st.text(max_size=80), st.integers(min_value=-(2**64), max_value=2**64), json_values)


@dataclass(frozen=True)
class Frame:
    """One frame to send. `body` is a JSON object to encode (with `version_offset` resolved against the
    table's version at send time), or `raw` text/bytes sent as they are."""

    role: str
    body: dict[str, Any] | None = None
    raw: str | bytes | None = None
    version_offset: int | None = None  # set "version": table version + offset (offset != 0: stale)

    def encode(self, version: int) -> str | bytes:
        if self.raw is not None:
            return self.raw
        assert self.body is not None
        body = dict(self.body)
        if self.version_offset is not None:
            body["version"] = version + self.version_offset
        return json.dumps(body)

    def content(self, version: int) -> Any:
        """The JSON value the server will see, or None if it is not JSON."""
        data = self.encode(version)
        if isinstance(data, bytes):
            data = data.decode("utf-8", "replace")
        try:
            return json.loads(data)
        except (ValueError, RecursionError):
            return None

    def size(self, version: int) -> int:
        data = self.encode(version)
        return len(data) if isinstance(data, bytes) else len(data.encode("utf-8"))


@st.composite
def bodies(draw: st.DrawFn) -> tuple[dict[str, Any], int | None]:
    kind = draw(st.sampled_from(TYPES) | st.text(max_size=10) | st.just("move"))
    body: dict[str, Any] = {"type": kind}
    if draw(st.booleans()):
        body["move"] = draw(moves)
    offset = None
    version_kind = draw(st.sampled_from(["none", "stale", "current", "junk"]))
    if version_kind == "stale":
        offset = draw(st.integers(min_value=-5, max_value=5).filter(lambda n: n != 0))
    elif version_kind == "current":
        offset = 0
    elif version_kind == "junk":
        body["version"] = draw(st.one_of(st.booleans(), st.text(max_size=5), st.floats(), json_values))
    if draw(st.booleans()):
        body["id"] = draw(ids)
    for key, value in draw(st.dictionaries(st.text(max_size=8), json_values, max_size=2)).items():
        body.setdefault(key, value)
    return body, offset


@st.composite
def frames(draw: st.DrawFn, roles: tuple[str, ...] = ROLES, huge: bool = True) -> Frame:
    """Any frame, from well-formed to garbage."""
    role = draw(st.sampled_from(roles))
    shape = draw(
        st.sampled_from(["body"] * 6 + ["json", "text", "truncated", "bytes", "nested"] + (["huge"] if huge else []))
    )
    if shape == "body":
        body, offset = draw(bodies())
        return Frame(role, body=body, version_offset=offset)
    if shape == "json":
        return Frame(role, raw=json.dumps(draw(json_values)))
    if shape == "text":
        return Frame(role, raw=draw(st.text(max_size=200)))
    if shape == "truncated":
        body, _ = draw(bodies())
        text = json.dumps(body)
        return Frame(role, raw=text[: draw(st.integers(min_value=0, max_value=max(0, len(text) - 1)))])
    if shape == "bytes":
        return Frame(role, raw=draw(st.binary(max_size=100)))
    if shape == "nested":  # deep nesting that still fits in a frame
        depth = draw(st.integers(min_value=1, max_value=3000))
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
        inner = opener * depth + "1" + closer * depth
        return Frame(role, raw=draw(st.sampled_from([inner, f'{{"type":"move","move":{inner}}}'])))
    padding = "x" * draw(st.integers(min_value=MAX_FRAME_BYTES - 20, max_value=3 * MAX_FRAME_BYTES))
    return Frame(role, raw=json.dumps({"type": draw(st.sampled_from(TYPES)), "pad": padding}))


# ---------------------------------------------------------------------------------------------------
# The oracle


def changes_state(frame: Frame, *, rules: Rules[Any], state: Any, seat: int | None, version: int) -> bool:
    """Whether the server may legitimately change the table on this frame (the fuzzers never send those:
    every frame they send must be refused, or be read-only). Mirrors the consumer's own checks; where in
    doubt, it says True (the frame is not sent) rather than risk a false alarm."""
    if frame.role in ("spectator", "stranger") or seat is None:
        return False
    if frame.size(version) > MAX_FRAME_BYTES:
        return False
    content = frame.content(version)
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        return False
    kind = content["type"]
    if kind == "leave":
        return True
    if kind == "draft":
        move = content.get("move")
        if frame.role != "mover" or not (move is None or isinstance(move, (str, dict))):
            return False
        if move is None:
            return True
        try:
            rules.parse_move(move)
        except EngineError:
            return False
        except Exception:  # a crash is for the server to survive, not for the oracle to hide
            return False
        return True
    if kind not in ("move", "back"):
        return False
    move = "back" if kind == "back" else content.get("move")
    if kind == "move":
        version_field = content.get("version")
        client_id = content.get("id", "")
        if not isinstance(move, (str, dict)):
            return False
        if version_field is not None and (not isinstance(version_field, int) or isinstance(version_field, bool)):
            return False
        if not isinstance(client_id, (str, int)):
            return False
        if version_field is not None and version_field != version:
            return False
    try:
        parsed = rules.parse_move(move)
    except EngineError:
        return False
    except Exception:
        return False
    if parsed.kind in TABLE_ONLY:
        return False
    if isinstance(parsed, Leave):
        return True
    try:
        rules.apply(state, seat, parsed)
    except Exception:  # refused (or a crash, which the server must survive and roll back)
        return False
    return True
