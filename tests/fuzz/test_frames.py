"""Hostile WebSocket frames (Hypothesis): malformed JSON, wrong types, huge, stale, other seats' and
illegal moves, from a spectator, a stranger, the seat that waits and the seat to move. Every frame is
answered (an error, or the read-only answer), never with a traceback, and changes nothing.

bench/fuzz.py sends 100,000 of the same frames to the real stack; this is the small in-suite run."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from apps.engine.game import get_rules
from apps.tables import services
from apps.tables.models import Game, Match, MoveLog, Seat, Table
from rummysite.asgi import application
from tests.fuzz.frames import MAX_FRAME_BYTES, READ_ONLY, Frame, changes_state, frames
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, ORIGIN, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

HOUSE = "tile-rummy"


@dataclass
class Arena:
    table_id: int
    cookies: dict[str, bytes | None]
    seats: dict[str, int | None]
    rules: Any
    state: Any
    version: int

    def __repr__(self) -> str:
        return f"Arena(table {self.table_id} at version {self.version}, seats {self.seats})"


class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def arena():
    alice, bob, stranger = make_user("alice"), make_user("bob"), make_user("stranger")
    table = services.table_open(by=alice, game=HOUSE, seat_count=2, turn_seconds=0)  # no clock: nothing moves
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    rules = get_rules(HOUSE)
    state = rules.from_dict(Game.objects.get(pk=table.current_game_id).state)
    mover = rules.to_move(state)
    users = {0: alice, 1: bob}
    return Arena(
        table_id=table.pk,
        cookies={
            "spectator": None,
            "stranger": session_cookie(stranger),
            "mover": session_cookie(users[mover]),
            "waiting": session_cookie(users[1 - mover]),
        },
        seats={"spectator": None, "stranger": None, "mover": mover, "waiting": 1 - mover},
        rules=rules,
        state=state,
        version=table.version,
    )


def table_snapshot(table_id: int) -> tuple[Any, ...]:
    table = Table.objects.get(pk=table_id)
    game = Game.objects.get(pk=table.current_game_id)
    return (
        table.version,
        table.status,
        table.due_action,
        game.state,
        game.draft,
        game.turn,
        list(Seat.objects.filter(table=table).values_list("user_id", "bot_level", "left_match", "rematch")),
        Match.objects.get(pk=table.match_id).state,
        MoveLog.objects.count(),
    )


async def connect(arena: Arena, role: str) -> WebsocketCommunicator:
    headers = [HOST, ORIGIN]
    cookie = arena.cookies[role]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{arena.table_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    first = json.loads(await communicator.receive_from(timeout=10))
    assert first["type"] == "state"
    return communicator


async def send_all(arena: Arena, batch: list[Frame]) -> list[str]:
    """Send the frames; return what went wrong (an empty list is a pass)."""
    problems: list[str] = []
    connections: dict[str, WebsocketCommunicator] = {}
    try:
        for frame in batch:
            data = frame.encode(arena.version)
            if frame.role not in connections:
                connections[frame.role] = await connect(arena, frame.role)
            communicator = connections[frame.role]
            # Straight onto the ASGI queue: send_to() refuses an empty frame, which a client can send.
            key = "bytes" if isinstance(data, bytes) else "text"
            await communicator.send_input({"type": "websocket.receive", key: data})
            output = await communicator.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                problems.append(f"{frame!r}: closed with {output.get('code')}")
                connections.pop(frame.role)
                continue
            reply = json.loads(output["text"])
            content = frame.content(arena.version)
            kind = content.get("type") if isinstance(content, dict) else None
            if frame.size(arena.version) > MAX_FRAME_BYTES:
                closing = await communicator.receive_output(timeout=10)
                if reply.get("code") != "too_big" or closing != {"type": "websocket.close", "code": 1008}:
                    problems.append(f"{frame!r}: a huge frame got {reply} then {closing}")
                connections.pop(frame.role)
                continue
            if kind in READ_ONLY and isinstance(content, dict):
                expected = "state" if kind == "sync" else "pong"
                if reply["type"] != expected:
                    problems.append(f"{frame!r}: a {kind} got {reply}")
                continue
            if reply["type"] != "error" or not reply.get("message"):
                problems.append(f"{frame!r}: got {reply}, not an error frame")
            elif reply.get("code") == "stale":
                follow = json.loads(await communicator.receive_from(timeout=10))
                if follow["type"] != "state":
                    problems.append(f"{frame!r}: a stale error was not followed by the state")
    finally:
        for communicator in connections.values():
            await communicator.disconnect()
    return problems


def refused_frames(arena: Arena, batch: list[Frame]) -> list[Frame]:
    return [
        frame
        for frame in batch
        if not changes_state(
            frame, rules=arena.rules, state=arena.state, seat=arena.seats[frame.role], version=arena.version
        )
    ]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(batch=st.lists(frames(), min_size=1, max_size=12))
# Found by this test: JSON nested deeper than the parser's recursion limit, within the 8 KiB cap.
@example(batch=[Frame("spectator", raw="[" * 3000 + "]" * 3000), Frame("mover", raw='{"a":' * 2000 + "1" + "}" * 2000)])
# Found by bench/fuzz.py on PostgreSQL (text cannot hold NUL): a move's id with a NUL in it, and ids
# longer than what the move log keeps.
@example(batch=[Frame("waiting", body={"type": "move", "move": "draw", "id": "a\x00b"}),
                Frame("mover", body={"type": "move", "move": "discard q1", "id": "x" * 65})])
def test_hostile_frames_are_refused_without_a_traceback_and_change_nothing(arena, batch):
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    before = table_snapshot(arena.table_id)
    try:
        problems = async_to_sync(send_all)(arena, refused_frames(arena, batch))
    finally:
        logging.getLogger().removeHandler(errors)
    assert problems == []
    assert [record.getMessage() for record in errors.records] == []
    assert table_snapshot(arena.table_id) == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(frames(roles=("mover",), huge=False), min_size=1, max_size=10))
# Found by this test: notation the engine reads with int() after str.isdigit() ("²" is a digit to
# Python), which raised ValueError instead of InvalidMove.
@example(batch=[Frame("mover", body={"type": "move", "move": text}) for text in ("add ² r5", "lay r²", "joker ² J")])
def test_the_seat_to_move_cannot_slip_an_illegal_move_through(arena, batch):
    """Only the mover's frames, each checked against the engine: whatever the engine refuses, the
    server refuses, and the table stays as it was."""
    before = table_snapshot(arena.table_id)
    assert async_to_sync(send_all)(arena, refused_frames(arena, batch)) == []
    assert table_snapshot(arena.table_id) == before


def test_a_draft_is_kept_in_the_engines_notation_not_as_sent(arena):
    """A draft the engine can read is stored as its notation, so nothing a client sends (a NUL, say,
    which PostgreSQL refuses) reaches the database as it is."""

    async def send_draft() -> dict[str, Any]:
        communicator = await connect(arena, "mover")
        await communicator.send_json_to({"type": "draft", "move": {"type": "draw", "junk": "\x00"}})
        await communicator.send_json_to({"type": "ping"})  # a draft is answered by nothing; the ping is
        reply = json.loads(await communicator.receive_from(timeout=10))
        await communicator.disconnect()
        return reply

    assert async_to_sync(send_draft)()["type"] == "pong"
    game = Game.objects.get(pk=Table.objects.get(pk=arena.table_id).current_game_id)
    assert game.draft["move"] == "draw"


def test_a_legal_move_from_the_seat_to_move_is_accepted(arena):
    """The oracle is not a blanket "no": the moves it lets through are the ones the server takes."""
    frame = Frame("mover", body={"type": "move", "move": "draw" if arena.state.phase.value == "draw" else "discard "
                                 + str(arena.rules.view_for(arena.state, arena.seats["mover"])["rack"][0])})
    assert changes_state(frame, rules=arena.rules, state=arena.state, seat=arena.seats["mover"], version=arena.version)
    problems = async_to_sync(send_all)(arena, [frame])
    # Its reply is the new state (published as the move commits) or the ack, whichever comes first.
    assert problems and "not an error frame" in problems[0]
    assert "'ack'" in problems[0] or "'state'" in problems[0]
    assert Table.objects.get(pk=arena.table_id).version == arena.version + 1
