"""Scripted WebSocket clients that play like people, for the load benchmark and the drills.

Each seat is one connection to `/ws/tables/<id>/` with the player's session cookie. It shows the newest
`state` frame it received and, when that frame says it is its turn, "thinks" for 1-3 s, then sends the
move the Easy bot would choose from that same view (so every move is legal through the protocol, and
the client never sees more than a browser would). Like the browser client (static/js/connection.js) it
sends `ping` when no frame carrying the table's version (a state, a pong) came for a few seconds (the
spec's `"pings": "always"` pings on that period whatever came, as the browser did before), `sync` when
the `pong` says the table is newer than what it shows (a lost broadcast), and it reconnects with
exponential backoff and jitter when the connection drops.

Latency is measured from the mover's send to each other connection's receipt of the state frame with
the version the move produced (all connections of a table live in this process, on one clock).

Run by bench/load.py and bench/drills.py as a separate process:

    python bench/players.py SPEC.json RESULT.json
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402

from apps.engine.bots import get_bot  # noqa: E402

#: What counts as an error frame in the figures: the refusals a well-behaved client should never get.
#: `stale` is not one (a race with the table's own action, answered with a fresh state frame).
BENIGN_ERRORS = {"stale"}
SYNC_GRACE = 0.3  # seconds: SYNC_GRACE_MS of static/js/connection.js
#: Seconds between two wake-ups of the loop-lag probe: a latency includes how late the generator's own
#: loop is to read a frame, so the figures say how late it was (if this is near the latencies' p99,
#: the generator measured itself).
LAG_PROBE = 0.02
STATE_HEAD = re.compile(r'\{"type":"state","version":(\d+),')
VIEW_TURN = re.compile(r'"turn":(\d+)')


@dataclass
class Figures:
    """What one run of the clients measured (in the measurement window only, unless noted)."""

    latencies_ms: list[float] = field(default_factory=list)
    moves_sent: int = 0
    moves_acked: int = 0
    bot_or_table_versions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[dict[str, Any]] = field(default_factory=list)
    drops: int = 0  # connections closed by the other side, or failed, while running
    reconnects: int = 0
    connect_failures: int = 0
    syncs_after_pong: int = 0  # a pong showed a newer version than shown: a broadcast was late or lost
    syncs_sent: int = 0  # ... and it had still not come SYNC_GRACE seconds later
    frames_received: int = 0
    pings_sent: int = 0
    converge_ms: list[float] = field(default_factory=list)  # drills: time from a lost broadcast to catching up
    acked_ids: list[str] = field(default_factory=list)  # drills: moves the server acknowledged
    connects: list[float] = field(default_factory=list)  # drills: wall-clock times of every (re)connection
    lag_ms: list[float] = field(default_factory=list)  # how late this process's own loop woke (LAG_PROBE)

    def to_dict(self) -> dict[str, Any]:
        return {
            "latencies_ms": self.latencies_ms,
            "moves_sent": self.moves_sent,
            "moves_acked": self.moves_acked,
            "errors": dict(self.errors),
            "error_samples": self.error_samples[:20],
            "drops": self.drops,
            "reconnects": self.reconnects,
            "connect_failures": self.connect_failures,
            "syncs_after_pong": self.syncs_after_pong,
            "syncs_sent": self.syncs_sent,
            "frames_received": self.frames_received,
            "pings_sent": self.pings_sent,
            "converge_ms": self.converge_ms,
            "acked_ids": self.acked_ids,
            "connects": self.connects,
            "lag_ms": self.lag_ms,
        }


class Run:
    """Shared clock and counters; `measuring` is off during ramp-up and warm-up."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.figures = Figures()
        self.measuring = False
        self.stopping = False
        self.think = tuple(spec.get("think", (1.0, 3.0)))
        self.ping_every = float(spec.get("ping_every", 5.0))
        self.ping_always = spec.get("pings", "quiet") == "always"  # else only after ping_every s without a version
        self.backoff = tuple(spec.get("backoff", (0.5, 10.0)))
        self.rng = random.Random(spec.get("seed", 1))
        self.brain = get_bot(spec.get("game", "tile-rummy"), "easy")
        self.connected = 0
        self.record = bool(spec.get("record", False))  # drills: keep every client's history
        self.quiet = False  # no more moves (the end of a drill, so that everyone can catch up)


class TableClients:
    """Every connection of one table: its seats and its spectator."""

    def __init__(self, run: Run, table: dict[str, Any], urls: list[str], first: int) -> None:
        self.run = run
        self.id = table["id"]
        self.sent_at: dict[int, tuple[float, int]] = {}  # version a move will produce -> (send time, seat)
        self.clients: list[Client] = []
        urls = table.get("urls") or urls  # a table's own processes (bench/bus_scale.py: a proxy that routes by table)
        index = first
        for seat in table["seats"]:
            if seat is None:
                continue  # a bot's seat: the table plays it
            client = Client(self, seat["index"], seat["cookie"], urls[index % len(urls)])
            client.idle = bool(seat.get("idle", False))  # connected, never moves (away from the keyboard)
            self.clients.append(client)
            index += 1
        if table.get("spectator", True):
            self.clients.append(Client(self, None, None, urls[index % len(urls)]))

    def highest_version(self) -> int:
        return max((client.version for client in self.clients), default=-1)


class Client:
    def __init__(self, table: TableClients, seat: int | None, cookie: str | None, url: str) -> None:
        self.table = table
        self.run = table.run
        self.seat = seat
        self.cookie = cookie
        self.url = url
        self.version = -1
        self.state: dict[str, Any] | None = None
        self.ws: Any = None
        self.pending: asyncio.Task[None] | None = None
        self.sync_waiting = False
        self.move_no = 0
        self.seen_newer_at: float | None = None  # when a pong first showed a version newer than ours
        self.heard_version_at = 0.0  # monotonic time of the last frame carrying the table's version
        self.behind_until = -1
        self.idle = False
        self.history: list[tuple[int, float]] = []  # (version shown, wall-clock time), when recording
        self.sent_versions: dict[str, int] = {}  # move id -> the version it would produce

    @property
    def path(self) -> str:
        return f"{self.url}/ws/tables/{self.table.id}/"

    async def main(self, start_delay: float) -> None:
        await asyncio.sleep(start_delay)
        attempt = 0
        while not self.run.stopping:
            try:
                origin = self.url.replace("ws://", "http://").replace("wss://", "https://")
                headers = [("Cookie", self.cookie)] if self.cookie else []
                async with connect(self.path, origin=origin, additional_headers=headers, compression=None,
                                   proxy=None, open_timeout=30, ping_interval=None, max_queue=64) as ws:
                    self.ws = ws
                    attempt = 0
                    self.run.connected += 1
                    if self.run.record:
                        self.run.figures.connects.append(time.time())
                    pinger = asyncio.create_task(self.pinger())
                    try:
                        async for raw in ws:
                            self.on_text(raw)
                    finally:
                        pinger.cancel()
                        self.run.connected -= 1
                        self.ws = None
                        if self.pending is not None:
                            self.pending.cancel()
                            self.pending = None
                if self.run.stopping:
                    return
                self.run.figures.drops += 1  # closed by the server
            except (TimeoutError, OSError, ConnectionClosed, InvalidHandshake) as error:
                # InvalidHandshake: refused (a status) or cut off mid-handshake (daphne's connect timeout)
                if self.run.stopping:
                    return
                if self.ws is None and attempt == 0 and not isinstance(error, ConnectionClosed):
                    self.run.figures.connect_failures += 1
                else:
                    self.run.figures.drops += 1
            # Exponential backoff with full jitter, like the browser client.
            low, high = self.run.backoff
            delay = self.run.rng.uniform(0, min(high, low * 2**attempt))
            attempt += 1
            await asyncio.sleep(delay)
            self.run.figures.reconnects += 1

    async def send(self, frame: dict[str, Any]) -> None:
        if self.ws is not None:
            try:
                await self.ws.send(json.dumps(frame))
            except ConnectionClosed:
                pass

    async def sync_unless_caught_up(self, version: int) -> None:
        """As static/js/connection.js: a pong newer than what is shown may only have overtaken its
        broadcast, so sync only if still behind SYNC_GRACE seconds later (one wait at a time)."""
        if self.sync_waiting:
            return
        self.sync_waiting = True
        try:
            await asyncio.sleep(SYNC_GRACE)
        finally:
            self.sync_waiting = False
        if self.version < version:
            if self.run.measuring:
                self.run.figures.syncs_sent += 1
            await self.send({"type": "sync"})

    async def pinger(self) -> None:
        """As the browser: a ping when nothing carrying the version came for `ping_every` seconds (checked
        again when it is due), or every period whatever came with `"pings": "always"`."""
        every = self.run.ping_every
        self.heard_version_at = time.monotonic()
        await asyncio.sleep(self.run.rng.uniform(0, every))
        if self.run.ping_always:
            while True:
                await self.ping()
                await asyncio.sleep(every * self.run.rng.uniform(0.8, 1.2))
        pinged_at = 0.0
        while True:
            due = max(self.heard_version_at, pinged_at) + every
            now = time.monotonic()
            if now < due:
                await asyncio.sleep(due - now)
                continue
            pinged_at = now
            await self.ping()

    async def ping(self) -> None:
        if self.run.measuring:
            self.run.figures.pings_sent += 1
        await self.send({"type": "ping"})

    def on_text(self, raw: str | bytes) -> None:
        """Decode only what this client must read: a `state` frame not addressed to a decision of this
        client (a spectator's, or one where another seat is to move) is read for its version alone, so
        the generator's own CPU goes to the server's frames as little as possible (they are written with
        the type, the version and the seat first: apps/tables/snapshot.py)."""
        text = raw.decode() if isinstance(raw, bytes) else raw
        if text.startswith('{"type":"state","version":'):
            head = STATE_HEAD.match(text)
            if head is not None:
                version = int(head.group(1))
                turn = VIEW_TURN.search(text, text.find('"view":'))
                mine = self.seat is not None and turn is not None and int(turn.group(1)) == self.seat
                if not mine and not self.run.record:
                    self.on_version(version)
                    return
        self.on_frame(json.loads(text))

    def on_version(self, version: int) -> None:
        """A `state` frame this client only watches: what `on_frame` does with it, without decoding it."""
        self.run.figures.frames_received += 1
        self.shown(version, None)

    def shown(self, version: int, frame: dict[str, Any] | None) -> None:
        """A state frame of `version` arrived (`frame`: decoded, when this client may have to play from it)."""
        now = self.heard_version_at = time.monotonic()
        figures = self.run.figures
        if version < self.version:
            return  # an older frame arriving late
        if version > self.version and self.run.measuring:
            sent = self.table.sent_at.get(version)
            if sent is not None and sent[1] != self.seat:
                figures.latencies_ms.append((now - sent[0]) * 1000)
        if self.seen_newer_at is not None and version >= self.behind_until:
            if self.run.measuring:
                figures.converge_ms.append((now - self.seen_newer_at) * 1000)
            self.seen_newer_at = None
        if self.run.record and version > self.version:
            self.history.append((version, time.time()))
        self.version = max(self.version, version)
        self.state = frame
        self.maybe_play()

    def on_frame(self, frame: dict[str, Any]) -> None:
        now = time.monotonic()
        figures = self.run.figures
        figures.frames_received += 1
        kind = frame.get("type")
        if kind == "state":
            self.shown(frame["version"], frame)
        elif kind == "pong":
            self.heard_version_at = now
            version = frame.get("version")
            if isinstance(version, int) and version > self.version:
                if self.run.measuring:
                    figures.syncs_after_pong += 1
                if self.seen_newer_at is None:
                    self.seen_newer_at = now
                self.behind_until = max(self.behind_until, version)
                asyncio.ensure_future(self.sync_unless_caught_up(version))
        elif kind == "ack":
            self.sent_versions.pop(str(frame.get("ref")), None)
            if self.run.record:
                self.run.figures.acked_ids.append(str(frame.get("ref")))
            if self.run.measuring:
                figures.moves_acked += 1
        elif kind == "error":
            code = frame.get("code", "?")
            produced = self.sent_versions.pop(str(frame.get("ref")), None)
            if produced is not None:
                self.table.sent_at.pop(produced, None)  # refused: that version will come from elsewhere
            if code not in BENIGN_ERRORS and self.run.measuring:
                figures.errors[code] += 1
                if len(figures.error_samples) < 20:
                    figures.error_samples.append({"table": self.table.id, "seat": self.seat, **frame})

    def my_turn(self) -> bool:
        if self.seat is None or self.state is None or self.idle or self.run.quiet:
            return False
        view = self.state.get("view")
        table = self.state.get("table", {})
        return bool(
            view
            and table.get("status") == "playing"
            and not view.get("over")
            and view.get("turn") == self.seat
            and any(action in view.get("actions", ()) for action in ("draw", "discard", "lay", "take", "play"))
        )

    def maybe_play(self) -> None:
        if self.pending is not None or not self.my_turn():
            return
        self.pending = asyncio.ensure_future(self.play(self.version))

    async def play(self, version: int) -> None:
        try:
            await asyncio.sleep(self.run.rng.uniform(*self.run.think))
            if self.version != version or not self.my_turn() or self.ws is None:
                return
            assert self.state is not None
            move = self.run.brain.next_move(self.state["view"], self.run.rng)
            self.move_no += 1
            move_id = f"{self.table.id}-{self.seat}-{version}-{self.move_no}"
            self.table.sent_at[version + 1] = (time.monotonic(), self.seat)  # type: ignore[assignment]
            self.sent_versions[move_id] = version + 1
            if self.run.measuring:
                self.run.figures.moves_sent += 1
            await self.send({"type": "move", "move": str(move), "version": version, "id": move_id})
        finally:
            self.pending = None
            # A state frame may have arrived while we were thinking about an older one.
            if self.version != version:
                self.maybe_play()


async def probe_lag(run: Run) -> None:
    """Record how late the loop wakes from a LAG_PROBE sleep, while measuring."""
    while not run.stopping:
        asleep = time.monotonic()
        await asyncio.sleep(LAG_PROBE)
        if run.measuring:
            run.figures.lag_ms.append(max(0.0, (time.monotonic() - asleep - LAG_PROBE) * 1000))


async def main_async(spec: dict[str, Any]) -> dict[str, Any]:
    run = Run(spec)
    urls: list[str] = spec["urls"]
    tables = []
    first = 0
    for table in spec["tables"]:
        tables.append(TableClients(run, table, urls, first))
        first += len(tables[-1].clients)
    clients = [client for table in tables for client in table.clients]
    ramp = float(spec.get("ramp", 10.0))
    tasks = [asyncio.ensure_future(client.main(ramp * i / max(1, len(clients)))) for i, client in enumerate(clients)]
    tasks.append(asyncio.ensure_future(probe_lag(run)))
    started = time.monotonic()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    warmup = float(spec.get("warmup", 10.0))
    duration = float(spec.get("duration", 60.0))
    marks: dict[str, float] = {}
    try:
        await asyncio.wait_for(stop.wait(), ramp + warmup)
    except TimeoutError:
        pass
    marks["measure_from"] = time.time()
    marks["connected_at_start"] = run.connected
    run.measuring = True
    # Drills and the load bench may poke us with SIGUSR1 to write an interim status line.
    status_file = spec.get("status_file")
    measured_from = time.monotonic()
    quiet_tail = float(spec.get("quiet_tail", 0.0))
    while not stop.is_set() and time.monotonic() - measured_from < duration:
        await asyncio.sleep(0.5)
        if quiet_tail and time.monotonic() - measured_from >= duration - quiet_tail:
            run.quiet = True  # the last seconds without moves: everyone catches up with the table
        if status_file:
            Path(status_file).write_text(json.dumps({
                "connected": run.connected, "t": time.monotonic() - measured_from,
                "versions": {str(t.id): t.highest_version() for t in tables},
                "shown": {str(t.id): [c.version for c in t.clients] for t in tables},
            }))
    measured = time.monotonic() - measured_from
    run.measuring = False
    marks["measure_to"] = time.time()
    marks["connected_at_end"] = run.connected
    run.stopping = True
    final_versions = {str(t.id): [c.version for c in t.clients] for t in tables}
    for client in clients:
        if client.ws is not None:
            await client.ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    result = run.figures.to_dict()
    result.update(marks, measured_s=measured, clients=len(clients), elapsed_s=time.monotonic() - started,
                  final_versions=final_versions)
    if run.record:
        result["history"] = {
            str(t.id): {f"{c.seat if c.seat is not None else 'spectator'}": c.history for c in t.clients} for t in tables
        }
    return result


def main() -> None:
    spec_path, result_path = sys.argv[1], sys.argv[2]
    spec = json.loads(Path(spec_path).read_text())
    try:
        import uvloop  # type: ignore[import-not-found]

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(main_async(spec))
    result["client_cpu_s"] = sum(os.times()[:2])
    Path(result_path).write_text(json.dumps(result))


if __name__ == "__main__":
    main()
