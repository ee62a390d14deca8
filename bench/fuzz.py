"""100,000 hostile WebSocket frames against the real stack (daphne + PostgreSQL + Redis + worker).

    .venv/bin/python bench/fuzz.py [--frames 100000] [--tables 10] [--per-role 3]

The frames come from the suite's Hypothesis strategies (tests/fuzz/frames.py): malformed JSON, wrong
types, huge, deeply nested, stale versions, other seats, illegal moves, binary; sent by a spectator,
a signed-in stranger, the seat that waits and the seat to move, over real WebSockets, each
connection pacing itself under the rate limit (7 frames/s). Frames the engine would accept from the
seat to move are left out by the oracle, so every frame sent must be refused and change nothing.

Figures: frames sent (by role and shape), replies by kind, connections closed (1008 for frames over
the cap, as expected; anything else is counted), tables changed (the goal: 0), tracebacks and ERROR
lines in the server logs (the goal: 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import Stack, setup_django  # noqa: E402

PACE = 1 / 7.0  # seconds between frames on one connection: under the 8 frames/s limit


def generate(count: int, seed: int) -> list[Any]:
    """`count` frames drawn by Hypothesis (generation only: no shrinking, no example database)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    from tests.fuzz.frames import frames

    collected: list[Any] = []
    batch = 10  # small examples: a long list overruns Hypothesis's per-example budget and is thrown away
    started = time.monotonic()

    @settings(max_examples=(count + batch - 1) // batch, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), derandomize=False)
    @given(st.lists(frames(), min_size=batch, max_size=batch))
    def collect(drawn: list[Any]) -> None:
        collected.extend(drawn)
        if len(collected) % 10_000 < batch:
            print(f"  {len(collected)} frames generated ({time.monotonic() - started:.0f} s)", flush=True)

    import random

    random.seed(seed)
    collect()
    while len(collected) < count:  # Hypothesis may stop early on a small space; it never does here
        collect()
    return collected[:count]


def open_tables(count: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from apps.engine.game import get_rules
    from apps.tables import services
    from apps.tables.models import Game
    from bench.load import ensure_users, session_cookie

    users = ensure_users(2 * count + 1)
    stranger = users[-1]
    rules = get_rules("tile-rummy")
    tables = []
    for i in range(count):
        alice, bob = users[2 * i], users[2 * i + 1]
        table = services.table_open(by=alice, game="tile-rummy", seat_count=2, turn_seconds=0)  # no clock
        services.table_join(table_id=table.pk, by=bob)
        services.table_start(table_id=table.pk, by=alice)
        table.refresh_from_db()
        state = rules.from_dict(Game.objects.get(pk=table.current_game_id).state)
        mover = rules.to_move(state)
        by_seat = {0: alice, 1: bob}
        tables.append({
            "id": table.pk, "version": table.version, "state": state,
            "seats": {"spectator": None, "stranger": None, "mover": mover, "waiting": 1 - mover},
            "cookies": {"spectator": None, "stranger": session_cookie(stranger),
                        "mover": session_cookie(by_seat[mover]), "waiting": session_cookie(by_seat[1 - mover])},
        })
    return tables, {"rules": rules}


def snapshot(table_id: int) -> tuple[Any, ...]:
    from apps.tables.models import Game, Match, MoveLog, Seat, Table

    table = Table.objects.get(pk=table_id)
    game = Game.objects.get(pk=table.current_game_id)
    return (table.version, table.status, game.state, game.draft, game.turn,
            list(Seat.objects.filter(table=table).values_list("user_id", "bot_level", "left_match", "rematch")),
            Match.objects.get(pk=table.match_id).state, MoveLog.objects.filter(game=game).count())


class Figures:
    def __init__(self) -> None:
        self.sent: Counter[str] = Counter()
        self.shapes: Counter[str] = Counter()
        self.replies: Counter[str] = Counter()
        self.closes: Counter[str] = Counter()
        self.problems: list[str] = []
        self.skipped = 0


def shape_of(frame: Any, version: int) -> str:
    from tests.fuzz.frames import MAX_FRAME_BYTES

    if frame.size(version) > MAX_FRAME_BYTES:
        return "huge"
    if isinstance(frame.raw, bytes):
        return "binary"
    content = frame.content(version)
    if content is None:
        return "not json"
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        return "json, not a frame"
    if frame.version_offset not in (None, 0):
        return "stale"
    return f"type {content['type']}" if content["type"] in ("move", "draft", "back", "leave", "start", "rematch",
                                                            "new_match", "sync", "ping") else "unknown type"


async def connection(url: str, table: dict[str, Any], role: str, frames: list[Any], figures: Figures) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    from tests.fuzz.frames import MAX_FRAME_BYTES, READ_ONLY

    path = f"{url}/ws/tables/{table['id']}/"
    origin = url.replace("ws://", "http://")
    cookie = table["cookies"][role]
    headers = [("Cookie", cookie)] if cookie else []
    queue = list(frames)
    while queue:
        frame = None
        try:
            async with connect(path, origin=origin, additional_headers=headers, compression=None, proxy=None,
                               max_size=2**22, ping_interval=None, open_timeout=30) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                assert first["type"] == "state"
                while queue:
                    frame = queue.pop(0)
                    version = table["version"]
                    data = frame.encode(version)
                    started = time.monotonic()
                    await ws.send(data)
                    figures.sent[role] += 1
                    figures.shapes[shape_of(frame, version)] += 1
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    kind = reply.get("code") or reply.get("type")
                    figures.replies[kind] += 1
                    content = frame.content(version)
                    if frame.size(version) > MAX_FRAME_BYTES:
                        try:
                            await asyncio.wait_for(ws.recv(), 10)
                        except ConnectionClosed as closed:
                            figures.closes[f"{closed.rcvd.code if closed.rcvd else '?'} after a huge frame"] += 1
                        break  # reconnect
                    read_only = isinstance(content, dict) and content.get("type") in READ_ONLY
                    if reply.get("type") not in ("error", "state", "pong") or (
                        reply.get("type") != "error" and not read_only
                    ):
                        figures.problems.append(f"table {table['id']} {role}: {str(data)[:120]!r} got {reply}")
                    if reply.get("code") == "stale":
                        await asyncio.wait_for(ws.recv(), 30)  # the state that follows
                    await asyncio.sleep(max(0.0, PACE - (time.monotonic() - started)))
        except ConnectionClosed as closed:
            if frame is not None and frame.size(table["version"]) > MAX_FRAME_BYTES:
                # The server refused the frame and closed while it was still being sent: the client
                # sees the connection reset instead of the close frame (a race of the client's own).
                figures.closes[f"{closed.rcvd.code if closed.rcvd else '?'} during a huge frame"] += 1
                continue
            figures.closes[f"{closed.rcvd.code if closed.rcvd else '?'} unexpected"] += 1
            figures.problems.append(f"table {table['id']} {role}: closed {closed}")
        except (OSError, TimeoutError, InvalidStatus) as error:
            figures.problems.append(f"table {table['id']} {role}: {type(error).__name__} {error}")
            await asyncio.sleep(1)


async def send_all(url: str, tables: list[dict[str, Any]], per_role: int, frames: list[Any],
                   figures: Figures) -> None:
    lanes: dict[tuple[int, str, int], list[Any]] = {}
    counters: Counter[str] = Counter()
    for frame in frames:
        n = counters[frame.role]
        counters[frame.role] += 1
        table_index = n % len(tables)
        lanes.setdefault((table_index, frame.role, (n // len(tables)) % per_role), []).append(frame)
    await asyncio.gather(*(connection(url, tables[t], role, lane, figures) for (t, role, _), lane in lanes.items()))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--per-role", type=int, default=3, help="connections per table and role")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--port", type=int, default=8031)
    args = parser.parse_args()

    stack = Stack(ports=[args.port])
    setup_django()
    stack.prepare()
    print(f"Stack logs: {stack.log_dir}", flush=True)
    started = time.monotonic()
    frames = generate(args.frames, args.seed)
    print(f"generated {len(frames)} frames in {time.monotonic() - started:.0f} s", flush=True)
    figures = Figures()
    try:
        stack.start()
        tables, context = open_tables(args.tables)
        from tests.fuzz.frames import changes_state

        sendable = []
        for index, frame in enumerate(frames):
            table = tables[index % len(tables)]
            if changes_state(frame, rules=context["rules"], state=table["state"], seat=table["seats"][frame.role],
                             version=table["version"]):
                figures.skipped += 1
            else:
                sendable.append(frame)
        before = {table["id"]: snapshot(table["id"]) for table in tables}
        sending = time.monotonic()
        asyncio.run(send_all(stack.urls()[0], tables, args.per_role, sendable, figures))
        elapsed = time.monotonic() - sending
        after = {table["id"]: snapshot(table["id"]) for table in tables}
    finally:
        stack.stop()
    changed = [table_id for table_id in before if before[table_id] != after[table_id]]
    log_problems = []
    for log in sorted(stack.log_dir.glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if "Traceback" in line or " ERROR " in line or "Exception" in line:
                log_problems.append(f"{log.name}: {line[:200]}")
    total = sum(figures.sent.values())
    print(f"\n{total} frames sent in {elapsed:.0f} s ({total / elapsed:.0f}/s) over {args.tables} tables x 4 roles x "
          f"{args.per_role} connections; {figures.skipped} generated frames left out by the oracle "
          f"(the engine would accept them from the seat to move)")
    print("by role:  ", dict(figures.sent))
    print("by shape: ", dict(figures.shapes.most_common()))
    print("replies:  ", dict(figures.replies.most_common()))
    print("closes:   ", dict(figures.closes))
    print(f"tables changed: {len(changed)} {changed}")
    print(f"tracebacks / ERROR lines in the server logs: {len(log_problems)}")
    for line in log_problems[:20]:
        print("  ", line)
    print(f"problems: {len(figures.problems)}")
    for problem in figures.problems[:20]:
        print("  ", problem)
    sys.exit(1 if changed or log_problems or figures.problems else 0)


if __name__ == "__main__":
    main()
