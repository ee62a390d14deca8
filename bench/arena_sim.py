"""An arena of 1,000 on the socket protocol (issue 44): the real stack, programs playing, figures printed.

    .venv/bin/python bench/arena_sim.py            # 1,000 players, 5,000 viewers, 600 s of play (about 25 min)
    .venv/bin/python bench/arena_sim.py --players 200 --viewers 500 --play 120   # a short run

It starts the real stack on PostgreSQL and Redis (bench/stack.py; database `rummy_h3`, Redis db 13, ports
8631-8639): four daphne processes on the Redis bus, split by what they serve so that each one's CPU
means one thing, and a Celery worker (no beat):

    A 8631  the arena's table sockets (the arena's move path)
    B 8632  the plain table's sockets (a table no arena formed: the move path as it is without arenas)
    C 8633  the arena page's socket /ws/tournaments/<id>/ (the players waiting for a table, the viewers)
    D 8634  the pages (join, the arena page a player opens after a match)

and the arena's tick (`services.arenas_tick`, what beat's `tournaments.tick` runs every 2 s) in a process of
its own that calls it every 2 s, as beat would, timing the pairing pass's grouping
(`services.group_entries`) in that process. Every daphne runs `bench.arena_sim:application`: the site's own
ASGI application with a few functions wrapped to count their CPU (thread CPU time): the standings frame
(`live.frame_text`), the arena read shared by a process's table sockets and each seated player's frame from it (`table_part.shared_read`, `frame_from`), the scoring of a
finished arena match (`services.arena_match_finished`). Nothing of the product is changed.

Phases, each measured from /proc (CPU of each process, of its children, and of the PostgreSQL backends of
the database):
1. 1,000 users (bulk) with sessions; a running 2-seat casual arena of Tile Rummy at 60 s a turn.
2. The programs (one process) join it over HTTP as a browser does (the page for the CSRF cookie, then the
   join form's POST on D), then each opens the arena page's socket on C.
3. `--viewers` visitors (another process) open the same page's socket on C. Quiet: nothing changes for
   `--quiet` s, first with the viewers pinging as static/js/connection.js does (a ping after 5 s without a
   frame carrying the version), then without pings: frames sent and C's CPU a second.
4. `--changes` standings changes, 1 s apart (a point to one entrant and the version raised, through the
   service's own `_bump`, in this process): the frame's CPU here, and C's CPU per change per viewer.
5. The viewers leave; the tick starts; the programs play: a program finds its table in the standings
   frame (what static/js/tournament.js follows) or, having waited `--reload-after` s, by loading the arena
   page again (the page says "Your table"); plays every move the Easy bot chooses from its own view (the
   same choice as bench/players.py; a turn starts when a global limiter grants it, `--rate` turns a second
   across the arena, then its moves follow 50 ms apart); at the end of its match it loads the arena page
   and waits for the next table. Two more programs play one plain table on B, a turn every
   `--plain-think` s, asking for a rematch after each match. After the first pairing pass has opened its
   tables, `--play` s are measured: moves, matches, standings changes, pairing passes, and each process's
   CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import BIN, Stack, bench_env, setup_django  # noqa: E402

DB = "rummy_h3"
REDIS_DB = 13
PORT_A, PORT_B, PORT_C, PORT_D = 8631, 8632, 8633, 8634
GAME = "tile-rummy"
TICK_SECONDS = 2.0  # settings.CELERY_BEAT_SCHEDULE["tournaments-tick"]
PING_AFTER = 5.0  # static/js/connection.js: a ping after 5 s without a frame carrying the version
CEILING = 600.0
STATS_DIR_ENV = "ARENA_SIM_STATS"
MY_TABLE = re.compile(r'data-my-table="(\d*)"')


@dataclass
class ArenaStack(Stack):
    """The bench's Stack on this simulation's own ports and Redis db (Stack allows 8030-8039, db 3-9)."""

    def __post_init__(self) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.env = bench_env(self.db, self.redis_db, self.redis_port, **self.extra_env)
        os.environ["BENCH_SECRET_KEY"] = self.env["SECRET_KEY"]


# ---------------------------------------------------------------------------------------------------
# Counting CPU inside a process: the daphnes (as their ASGI module) and the tick driver


class Meter:
    """Calls and thread CPU of wrapped functions, written to a JSON file every second."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        self.cpu: Counter[str] = Counter()
        self.samples: dict[str, list[float]] = {}

    def wrap(self, module: Any, name: str, keep: bool = False) -> None:
        inner = getattr(module, name)
        if getattr(inner, "_metered", False):
            return

        def metered(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent = time.thread_time() - start
                with self.lock:
                    self.calls[name] += 1
                    self.cpu[name] += spent
                    if keep:
                        self.samples.setdefault(name, []).append(spent * 1000)

        metered._metered = True  # type: ignore[attr-defined]
        setattr(module, name, metered)

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {"calls": dict(self.calls), "cpu": dict(self.cpu), "samples": {k: list(v) for k, v in self.samples.items()}}

    def write_forever(self, path: Path) -> None:
        def loop() -> None:
            while True:
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(self.snapshot()))
                tmp.replace(path)
                time.sleep(1.0)

        threading.Thread(target=loop, daemon=True, name="arena-sim-meter").start()


def meter_arena_code(meter: Meter) -> None:
    from apps.tournaments import consumers, live, services, table_part

    meter.wrap(live, "frame_text", keep=True)
    consumers.frame_text = live.frame_text  # the socket's own reference (a frame read on open or sync)
    meter.wrap(table_part, "shared_read")  # once per standings version per process (was arena_frame per socket)
    meter.wrap(table_part, "frame_from")
    meter.wrap(table_part, "arena_at")
    meter.wrap(services, "arena_match_finished")


_application: Any = None


def __getattr__(name: str) -> Any:
    """`bench.arena_sim:application` for daphne: the site's application, with the arena's code metered."""
    global _application
    if name != "application":
        raise AttributeError(name)
    if _application is None:
        from rummysite.asgi import application as site

        meter = Meter()
        meter_arena_code(meter)
        meter.write_forever(Path(os.environ[STATS_DIR_ENV]) / f"meter-{os.getpid()}.json")
        _application = site
    return _application


# ---------------------------------------------------------------------------------------------------
# The tick driver: what beat does every 2 s, with the pass's grouping timed


def tick_main(stats_path: str, control_path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    import django

    django.setup()
    from apps.tournaments import services

    meter = Meter()
    meter_arena_code(meter)
    passes: list[dict[str, Any]] = []
    grouping = services.group_entries

    def timed_grouping(entries: Any, *args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        tables = grouping(entries, *args, **kwargs)
        passes.append({"t": time.time(), "players": len(entries), "cpu_ms": (time.process_time() - cpu) * 1000,
                       "wall_ms": (time.perf_counter() - wall) * 1000, "tables": len(tables)})
        return tables

    services.group_entries = timed_grouping
    candidates = services.pairing_candidates

    def timed_candidates(*args: Any, **kwargs: Any) -> Any:
        wall = time.perf_counter()
        found = candidates(*args, **kwargs)
        passes.append({"t": time.time(), "read_ms": (time.perf_counter() - wall) * 1000, "free": len(found)})
        return found

    services.pairing_candidates = timed_candidates
    ticks: list[dict[str, Any]] = []
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    while not stop.is_set():
        began, cpu = time.perf_counter(), time.process_time()
        done = services.arenas_tick()
        ticks.append({"t": time.time(), "wall_ms": (time.perf_counter() - began) * 1000,
                      "cpu_ms": (time.process_time() - cpu) * 1000, **done})
        Path(stats_path).write_text(json.dumps({"ticks": ticks, "passes": passes, "meter": meter.snapshot()}))
        stop.wait(max(0.0, TICK_SECONDS - (time.perf_counter() - began)))


# ---------------------------------------------------------------------------------------------------
# The programs: join over HTTP, wait on the arena page's socket, play at the table's socket


class Limiter:
    """Grants turns one at a time, `rate` a second, first come first served (the arena's move rate)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.queue: asyncio.Queue[asyncio.Future[None]] = asyncio.Queue()

    async def run(self) -> None:
        while True:
            waiter = await self.queue.get()
            if not waiter.done():
                waiter.set_result(None)
                await asyncio.sleep(1.0 / self.rate)

    async def take(self) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self.queue.put(waiter)
        await waiter


class Programs:
    def __init__(self, spec: dict[str, Any]) -> None:
        from apps.engine.bots import get_bot

        self.spec = spec
        self.brain = get_bot(GAME, "easy")
        self.rng = random.Random(spec.get("seed", 1))
        self.limiter = Limiter(float(spec["rate"]))
        self.counts: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.error_samples: list[Any] = []
        self.phase = "join"
        self.pings = True
        self.play_since = 0.0
        self.plain_table: int | None = None
        self.stopping = False
        self.http: Any = None
        self.waits: list[float] = []  # seconds from the end of a match to the next table's socket
        self.first_waits: list[float] = []
        self.joined_at: dict[int, float] = {}

    def control(self) -> None:
        try:
            control = json.loads(Path(self.spec["control"]).read_text())
        except (OSError, ValueError):
            return
        if control.get("phase") == "play" and self.phase != "play":
            self.play_since = time.monotonic()
        self.phase = control.get("phase", self.phase)
        self.pings = bool(control.get("pings", True))
        self.plain_table = control.get("plain_table") or self.plain_table
        self.stopping = self.phase == "stop"

    def status(self) -> dict[str, Any]:
        return {"t": time.time(), "phase": self.phase, "counts": dict(self.counts), "errors": dict(self.errors),
                "error_samples": self.error_samples[:10], "waits": self.waits,
                "first_waits": self.first_waits}

    async def page(self, player: dict[str, Any]) -> tuple[str, dict[str, str]]:
        url = f"{self.spec['http']}/tournaments/{self.spec['arena']}/"
        async with self.http.get(url, headers={"Cookie": player["cookie"]}, allow_redirects=False) as response:
            text = await response.text()
            self.counts["page_loads"] += 1
            if response.status != 200:
                self.errors[f"page {response.status}"] += 1
            return text, {name: morsel.value for name, morsel in response.cookies.items()}

    async def join(self, player: dict[str, Any], gate: asyncio.Semaphore) -> None:
        async with gate:
            _text, cookies = await self.page(player)
            token = cookies.get(self.spec["csrf_cookie"], "")
            base = self.spec["http"]
            url = f"{base}/tournaments/{self.spec['arena']}/join/"
            headers = {"Cookie": f"{player['cookie']}; {self.spec['csrf_cookie']}={token}", "Origin": base, "Referer": url}
            async with self.http.post(url, data={"csrfmiddlewaretoken": token}, headers=headers,
                                      allow_redirects=False) as response:
                await response.read()
                if response.status == 302:
                    self.counts["joined"] += 1
                else:
                    self.errors[f"join {response.status}"] += 1

    async def my_table_on_page(self, player: dict[str, Any], last: int | None) -> int | None:
        text, _cookies = await self.page(player)
        found = MY_TABLE.search(text)
        table = int(found.group(1)) if found and found.group(1) else None
        return None if table == last else table

    async def wait_for_table(self, player: dict[str, Any], last: int | None, load_page: bool) -> int | None:
        """As the arena page: the player's table when a standings frame lists it; the page loaded again after
        `reload_after` s of waiting (as a person would)."""
        from websockets.asyncio.client import connect

        if load_page:
            table = await self.my_table_on_page(player, last)
            if table is not None:
                self.counts["found_on_page_after_match"] += 1
                return table
        name = f'"{player["name"]}"'
        url = f"{self.spec['arena_ws']}/ws/tournaments/{self.spec['arena']}/"
        origin = url.replace("ws://", "http://").split("/ws/")[0]
        reload_after = float(self.spec["reload_after"])
        async with connect(url, origin=origin, additional_headers=[("Cookie", player["cookie"])], compression=None,
                           proxy=None, open_timeout=60, ping_interval=None, max_queue=None) as ws:
            self.counts["arena_sockets_open"] += 1
            try:
                heard = waited_from = time.monotonic()
                jitter = self.rng.uniform(0, reload_after)  # people reload now and then, not all at the same second
                while not self.stopping:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:
                        raw = None
                    now = time.monotonic()
                    if raw is not None:
                        text = raw if isinstance(raw, str) else raw.decode()
                        heard = now
                        if text.startswith('{"type":"table"'):  # told on the player's own topic (30eaa6f)
                            table_id = int(json.loads(text)["table"])
                            if table_id != last:
                                self.counts["found_told"] += 1
                                return table_id
                            continue
                        if text.startswith('{"type":"standings"'):
                            self.counts["standings_frames_to_players"] += 1
                            at = text.find('"tables":')
                            if at >= 0 and name in text[at:]:
                                for table_id, players in json.loads(text)["tables"]:
                                    if player["name"] in players and table_id != last:
                                        self.counts["found_in_frame"] += 1
                                        return int(table_id)
                        continue
                    if self.phase == "play" and now - max(waited_from, self.play_since - jitter) >= reload_after:
                        waited_from = now
                        self.counts["reloads"] += 1
                        table = await self.my_table_on_page(player, last)
                        if table is not None:
                            self.counts["found_by_reload"] += 1
                            return table
                    if self.pings and now - heard >= PING_AFTER:
                        heard = now
                        await ws.send('{"type":"ping"}')
            finally:
                self.counts["arena_sockets_open"] -= 1
        return None

    async def arena_player(self, player: dict[str, Any]) -> None:
        while self.phase == "join" and not self.stopping:
            await asyncio.sleep(0.5)
        last: int | None = None
        free_since = time.monotonic()
        while not self.stopping:
            try:
                table = await self.wait_for_table(player, last, load_page=last is not None)
            except Exception as error:  # a refused or dropped socket: counted, and the page again
                self.errors[f"arena socket {type(error).__name__}"] += 1
                await asyncio.sleep(self.rng.uniform(1, 5))
                continue
            if table is None:
                return
            if last is None:  # from the start of play (the tick's first pass) to the first table's socket
                self.first_waits.append(time.monotonic() - self.play_since)
            else:  # from the end of a match to the next table's socket
                self.waits.append(time.monotonic() - free_since)
            try:
                await self.play_table(table, player, "arena")
            except Exception as error:  # counted and shown: a program never stops silently
                self.errors[f"arena table {type(error).__name__}"] += 1
                if self.errors[f"arena table {type(error).__name__}"] <= 3:
                    traceback.print_exc()
            last = table
            free_since = time.monotonic()

    async def plain_player(self, player: dict[str, Any]) -> None:
        while self.plain_table is None and not self.stopping:
            await asyncio.sleep(0.5)
        if self.plain_table is not None:
            await self.play_table(self.plain_table, player, "plain")

    async def play_table(self, table_id: int, player: dict[str, Any], kind: str) -> None:
        """One seat until its match is over (arena) or the run stops (plain: a rematch after each match); a
        refused or dropped socket connects again after a growing, jittered wait, as the browser does."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        self.counts[f"{kind}_sockets"] += 1
        try:
            for attempt in range(10):
                try:
                    if await self.seat_socket(table_id, player, kind):
                        return
                except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as error:
                    self.errors[f"{kind} table socket {type(error).__name__}"] += 1
                if self.stopping:
                    return
                self.counts[f"{kind}_table_reconnects"] += 1
                await asyncio.sleep(self.rng.uniform(0, min(30.0, 2**attempt)))
            self.counts[f"{kind}_gave_up"] += 1
        finally:
            self.counts[f"{kind}_sockets"] -= 1

    async def seat_socket(self, table_id: int, player: dict[str, Any], kind: str) -> bool:
        """One connection of a seat: True when its part is done (the arena match over, or the run stopping)."""
        from websockets.asyncio.client import connect

        base = self.spec["arena_table_ws"] if kind == "arena" else self.spec["plain_table_ws"]
        url = f"{base}/ws/tables/{table_id}/"
        origin = url.replace("ws://", "http://").split("/ws/")[0]
        seat_state: dict[str, Any] = {"version": -1, "frame": None, "pending": None, "heard": time.monotonic(),
                                      "rematched": None}
        try:
            async with connect(url, origin=origin, additional_headers=[("Cookie", player["cookie"])], compression=None,
                               proxy=None, open_timeout=60, ping_interval=None, max_queue=None) as ws:
                while not self.stopping:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:
                        if time.monotonic() - seat_state["heard"] >= PING_AFTER:
                            seat_state["heard"] = time.monotonic()
                            await ws.send('{"type":"ping"}')
                        continue
                    frame = json.loads(raw)
                    kind_of = frame.get("type")
                    if kind_of == "state":
                        seat_state["heard"] = time.monotonic()
                        if frame["version"] < seat_state["version"]:
                            continue
                        seat_state["version"], seat_state["frame"] = frame["version"], frame
                        table = frame.get("table", {})
                        if table.get("status") == "finished":
                            match = table.get("match") or {}
                            if kind == "arena":
                                self.counts["arena_matches"] += 1
                                if match.get("aborted"):
                                    self.counts["arena_matches_aborted"] += 1
                                return True
                            if seat_state["rematched"] != match.get("url"):
                                seat_state["rematched"] = match.get("url")
                                self.counts["plain_matches"] += 1
                                await ws.send('{"type":"rematch"}')
                            continue
                        if seat_state["pending"] is None and self.my_turn(frame):
                            seat_state["pending"] = asyncio.ensure_future(self.play(ws, seat_state, kind))
                    elif kind_of == "ack":
                        self.counts[f"{kind}_moves"] += 1
                    elif kind_of == "arena":
                        self.counts["arena_frames_at_tables"] += 1
                    elif kind_of == "pong":
                        seat_state["heard"] = time.monotonic()
                    elif kind_of == "error":
                        code = frame.get("code", "?")
                        if code != "stale":
                            self.errors[f"{kind} {code}"] += 1
                            if len(self.error_samples) < 20:
                                self.error_samples.append(frame)
                return True
        finally:
            if seat_state["pending"] is not None:
                seat_state["pending"].cancel()

    @staticmethod
    def my_turn(frame: dict[str, Any]) -> bool:
        view = frame.get("view")
        return bool(view and not view.get("over") and view.get("turn") == frame.get("seat") and view.get("actions"))

    async def play(self, ws: Any, seat_state: dict[str, Any], kind: str) -> None:
        try:
            frame = seat_state["frame"]
            starts_turn = "draw" in frame["view"].get("actions", ())
            if starts_turn:
                if kind == "arena":
                    await self.limiter.take()
                else:
                    await asyncio.sleep(float(self.spec["plain_think"]))
            else:
                await asyncio.sleep(0.05)
            while self.phase == "quiet" and not self.stopping:
                await asyncio.sleep(0.5)
            frame = seat_state["frame"]
            if self.stopping or not self.my_turn(frame):
                return
            move = self.brain.next_move(frame["view"], self.rng)
            await ws.send(json.dumps({"type": "move", "move": str(move), "version": frame["version"],
                                      "id": f"{frame['table']['id']}-{frame['version']}"}))
        finally:
            seat_state["pending"] = None
        # The new state may have come while this one was being decided: play on from it.
        if seat_state["pending"] is None and self.my_turn(seat_state["frame"]) and seat_state["frame"] is not frame:
            seat_state["pending"] = asyncio.ensure_future(self.play(ws, seat_state, kind))

    async def main(self) -> dict[str, Any]:
        import aiohttp

        self.http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=40),
                                          cookie_jar=aiohttp.DummyCookieJar(), timeout=aiohttp.ClientTimeout(total=120))
        limiter = asyncio.ensure_future(self.limiter.run())
        gate = asyncio.Semaphore(16)
        players = self.spec["players"]
        tasks = [asyncio.ensure_future(self.arena_player(p)) for p in players]
        tasks += [asyncio.ensure_future(self.plain_player(p)) for p in self.spec["plain_players"]]
        joins = asyncio.ensure_future(asyncio.gather(*(self.join(p, gate) for p in players), return_exceptions=True))
        status = Path(self.spec["status"])
        while not self.stopping:
            self.control()
            tmp = status.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.status()))
            tmp.replace(status)
            await asyncio.sleep(0.5)
        for task in [*tasks, joins, limiter]:
            task.cancel()
        await asyncio.gather(*tasks, joins, limiter, return_exceptions=True)
        await self.http.close()
        return self.status()


def programs_main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    result = asyncio.run(Programs(spec).main())
    result["cpu_s"] = sum(os.times()[:2])
    Path(spec["status"]).write_text(json.dumps(result))


# ---------------------------------------------------------------------------------------------------
# The viewers: visitors with the arena page open


async def viewers_async(spec: dict[str, Any]) -> None:
    from websockets.asyncio.client import connect

    url = f"{spec['arena_ws']}/ws/tournaments/{spec['arena']}/"
    origin = url.replace("ws://", "http://").split("/ws/")[0]
    counts: Counter[str] = Counter()
    state = {"pings": True, "stop": False}
    heard: dict[int, float] = {}
    sockets: dict[int, Any] = {}

    async def viewer(i: int) -> None:
        await asyncio.sleep(float(spec["ramp"]) * i / max(1, spec["viewers"]))
        for attempt in range(6):  # as the browser: reconnect after a refusal, with a growing, jittered wait
            try:
                async with connect(url, origin=origin, compression=None, proxy=None, open_timeout=120,
                                   ping_interval=None, max_queue=None) as ws:
                    sockets[i] = ws
                    heard[i] = time.monotonic()
                    counts["connected"] += 1
                    try:
                        async for raw in ws:
                            text = raw if isinstance(raw, str) else raw.decode()
                            heard[i] = time.monotonic()
                            counts["standings" if text.startswith('{"type":"standings"') else
                                   "pongs" if text.startswith('{"type":"pong"') else "other"] += 1
                            counts["bytes"] += len(text)
                    finally:
                        counts["connected"] -= 1
                        sockets.pop(i, None)
                return
            except Exception as error:
                counts[f"refused {type(error).__name__}"] += 1
                if state["stop"]:
                    return
                await asyncio.sleep(random.uniform(0, min(30.0, 2.0 * 2**attempt)))
        counts["failed"] += 1

    async def pinger() -> None:
        while True:
            await asyncio.sleep(0.25)
            if not state["pings"]:
                continue
            now = time.monotonic()
            for i, ws in list(sockets.items()):
                if now - heard.get(i, now) >= PING_AFTER:
                    heard[i] = now
                    counts["pings"] += 1
                    try:
                        await ws.send('{"type":"ping"}')
                    except Exception:
                        pass

    tasks = [asyncio.ensure_future(viewer(i)) for i in range(int(spec["viewers"]))]
    ping_task = asyncio.ensure_future(pinger())
    status = Path(spec["status"])
    while not state["stop"]:
        try:
            control = json.loads(Path(spec["control"]).read_text())
            state["pings"] = bool(control.get("pings", True))
            state["stop"] = control.get("phase") == "stop"
        except (OSError, ValueError):
            pass
        tmp = status.with_suffix(".tmp")
        tmp.write_text(json.dumps({"t": time.time(), "counts": dict(counts), "cpu_s": sum(os.times()[:2])}))
        tmp.replace(status)
        await asyncio.sleep(0.5)
    for ws in list(sockets.values()):
        await ws.close()
    for task in [*tasks, ping_task]:
        task.cancel()
    await asyncio.gather(*tasks, ping_task, return_exceptions=True)


def viewers_main(spec_path: str) -> None:
    asyncio.run(viewers_async(json.loads(Path(spec_path).read_text())))


# ---------------------------------------------------------------------------------------------------
# CPU from /proc


CLOCK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid: int, children: bool = True) -> float:
    """CPU seconds of a process (and of its reaped children)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    utime, stime, cutime, cstime = (int(value) for value in fields[11:15])
    return (utime + stime + (cutime + cstime if children else 0)) / CLOCK


def proc_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def process_tree() -> dict[int, list[int]]:
    """Each live process's children, from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    return parents


def descendants(pid: int, parents: dict[int, list[int]]) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def machine_cpu() -> float:
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = (int(value) for value in fields[:7])
    return (user + nice + system + irq + softirq) / CLOCK


class Sampler(threading.Thread):
    """Once a second: the CPU seconds of each group of processes (a group: pids and their descendants) and
    of this database's PostgreSQL backends."""

    def __init__(self, db: str) -> None:
        super().__init__(daemon=True)
        self.groups: dict[str, list[int]] = {}
        self.db = db
        self.samples: list[dict[str, Any]] = []
        self.stop_event = threading.Event()
        self.backend_cpu: dict[int, float] = {}

    def add(self, group: str, pid: int) -> None:
        self.groups = {**self.groups, group: [*self.groups.get(group, []), pid]}

    def backends(self) -> list[int]:
        out = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-tAc",
                              f"SELECT pid FROM pg_stat_activity WHERE datname = '{self.db}'"], capture_output=True, text=True)
        return [int(line) for line in out.stdout.split() if line.strip().isdigit()]

    def take(self) -> dict[str, Any]:
        cpu: dict[str, float] = {}
        rss: dict[str, float] = {}
        parents = process_tree()
        for group, pids in list(self.groups.items()):
            members = [m for pid in pids for m in (pid, *descendants(pid, parents))]
            cpu[group] = sum(proc_cpu(m) for m in members)
            rss[group] = sum(proc_rss_mb(m) for m in members)
        for pid in self.backends():
            self.backend_cpu[pid] = max(self.backend_cpu.get(pid, 0.0), proc_cpu(pid, children=False))
        cpu["postgres (this db)"] = sum(self.backend_cpu.values())  # backends gone keep what they had spent
        cpu["machine"] = machine_cpu()
        return {"t": time.time(), "cpu": cpu, "rss": rss, "load": os.getloadavg()[0]}

    def run(self) -> None:
        while not self.stop_event.is_set():
            try:
                self.samples.append(self.take())
            except Exception as error:  # a process gone between two reads: the next second's sample
                print(f"sampler: {error!r}", flush=True)
            self.stop_event.wait(1.0)

    def at(self, moment: float) -> dict[str, Any]:
        return min(self.samples, key=lambda sample: abs(sample["t"] - moment))

    def between(self, start: float, end: float) -> tuple[dict[str, float], float]:
        """CPU seconds per group from the sample nearest `start` to the one nearest `end`, and the span."""
        first, last = self.at(start), self.at(end)
        span = last["t"] - first["t"]
        return {group: last["cpu"][group] - first["cpu"].get(group, 0.0) for group in last["cpu"]}, span


# ---------------------------------------------------------------------------------------------------
# The orchestra


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def spread(values: list[float]) -> dict[str, float]:
    return {"count": len(values), "median": pct(values, 0.5), "p90": pct(values, 0.9), "max": max(values, default=float("nan"))}


def read_json(path: Path) -> dict[str, Any]:
    for _ in range(20):
        try:
            return dict(json.loads(path.read_text()))
        except (OSError, ValueError):
            time.sleep(0.1)
    return {}


def wait_for(predicate: Any, ceiling: float, what: str, step: float = 0.5) -> float:
    began = time.monotonic()
    while time.monotonic() - began < ceiling:
        if predicate():
            return time.monotonic() - began
        time.sleep(step)
    raise RuntimeError(f"{what}: not within {ceiling:.0f} s")


def make_players(count: int) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """The arena (running, casual, 2 seats, 60 s a turn), `count` users with sessions, and two more for
    the plain table."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.tournaments.models import Tournament
    from bench.load import ensure_users, session_cookie

    users = ensure_users(count + 2)
    people = [{"id": user.pk, "name": user.username, "cookie": session_cookie(user)} for user in users]
    arena = Tournament.objects.create(
        name=f"Arena of {count} (bench/arena_sim.py)", game=GAME, seats="2", turn_seconds=60, minutes=120, rated=False,
        starts_at=timezone.now() - timedelta(minutes=1), status=Tournament.Status.RUNNING,
    )
    return arena, people[:count], people[count:]


def standings_change(arena_id: int, entry_id: int) -> float:
    """One change of the standings, as a service makes it: a point to one entrant, the version raised, the
    frame built once after the commit and published (returns this process's CPU for it, in ms)."""
    from django.db import transaction
    from django.db.models import F

    from apps.tournaments import services
    from apps.tournaments.models import Entry

    cpu = time.process_time()
    with transaction.atomic():
        Entry.objects.filter(pk=entry_id).update(points=F("points") + 1)
        services._bump(arena_id)
    return (time.process_time() - cpu) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--viewers", type=int, default=5000)
    parser.add_argument("--rate", type=float, default=15.0, help="arena turns a second, across all its tables")
    parser.add_argument("--plain-think", type=float, default=1.0, help="seconds before each turn at the plain table")
    parser.add_argument("--play", type=float, default=600.0, help="seconds of play measured")
    parser.add_argument("--quiet", type=float, default=30.0, help="seconds of each quiet measurement")
    parser.add_argument("--changes", type=int, default=20, help="standings changes made with the viewers connected")
    parser.add_argument("--reload-after", type=float, default=30.0,
                        help="seconds a waiting player waits for the frame to show their table before loading the page again")
    parser.add_argument("--keep", action="store_true", help="leave the arena's tables open at the end")
    parser.add_argument("--out", default="", help="write the figures as JSON here")
    args = parser.parse_args()

    log_dir = Path(f"/tmp/rummy-arena-sim-{os.getpid()}")
    stats_dir = log_dir / "stats"
    stats_dir.mkdir(parents=True, exist_ok=True)
    static_root = Path("/tmp/rummy-arena-sim-static")  # DEBUG is off: the pages need the collected manifest
    extra = {STATS_DIR_ENV: str(stats_dir), "STATIC_ROOT": str(static_root)}
    stack = ArenaStack(ports=[PORT_A, PORT_B, PORT_C, PORT_D], db=DB, redis_db=REDIS_DB, beat=False, worker_concurrency=1,
                       asgi_app="bench.arena_sim:application", log_dir=log_dir, extra_env=extra)
    setup_django(DB, REDIS_DB, **extra)
    print(f"Logs: {log_dir}; load average {os.getloadavg()}", flush=True)
    stack.prepare()
    subprocess.run([str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=stack.env,
                   check=True, stdout=subprocess.DEVNULL)
    from django.conf import settings

    from apps.accounts.models import User
    from apps.tables import services as table_services
    from apps.tournaments.models import ArenaTable, Entry, Tournament

    began = time.monotonic()
    arena, players, plain = make_players(args.players)
    print(f"arena {arena.pk}: {len(players)} users with sessions in {time.monotonic() - began:.1f} s", flush=True)
    figures: dict[str, Any] = {"args": vars(args), "load_start": os.getloadavg()}
    sampler = Sampler(DB)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        stack.start()
        for name, pid in stack.pids().items():
            sampler.add(name, pid)
        sampler.start()
        http = f"http://127.0.0.1:{PORT_D}"
        spec = {
            "http": http, "arena": arena.pk, "arena_ws": f"ws://127.0.0.1:{PORT_C}",
            "arena_table_ws": f"ws://127.0.0.1:{PORT_A}", "plain_table_ws": f"ws://127.0.0.1:{PORT_B}",
            "players": players, "plain_players": plain, "rate": args.rate, "plain_think": args.plain_think,
            "reload_after": args.reload_after, "csrf_cookie": settings.CSRF_COOKIE_NAME,
            "control": str(log_dir / "programs-control.json"), "status": str(log_dir / "programs-status.json"),
        }
        control = Path(spec["control"])
        control.write_text(json.dumps({"phase": "join"}))
        (log_dir / "programs.json").write_text(json.dumps(spec))
        programs = subprocess.Popen([str(BIN / "python"), __file__, "programs", str(log_dir / "programs.json")], cwd=ROOT,
                                    env=stack.env, stdout=open(log_dir / "programs.log", "ab"), stderr=subprocess.STDOUT)
        processes.append(programs)
        sampler.add("programs", programs.pid)
        status = Path(spec["status"])

        def counts() -> dict[str, Any]:
            return dict(read_json(status).get("counts", {}))

        # 2. Joining over HTTP, then each program opens the arena page's socket.
        joined_from = time.time()
        took = wait_for(lambda: counts().get("joined", 0) + sum(read_json(status).get("errors", {}).values()) >= args.players,
                        CEILING, "joining")
        joined = counts().get("joined", 0)
        cpu, _span = sampler.between(joined_from, time.time())
        figures["join"] = {"joined": joined, "seconds": took, "daphne_D_cpu_s": cpu.get("daphne-8634", 0),
                           "entries": Entry.objects.filter(tournament=arena).count(), "errors": read_json(status).get("errors")}
        print(f"joined: {joined} of {args.players} in {took:.1f} s over HTTP (D's CPU {cpu.get('daphne-8634', 0):.1f} s)",
              flush=True)
        control.write_text(json.dumps({"phase": "connect"}))
        wait_for(lambda: counts().get("arena_sockets_open", 0) >= joined, CEILING, "the players' arena sockets")
        print(f"{joined} players' sockets open on the arena page (C)", flush=True)

        # 3. Viewers, and the quiet periods.
        vspec = {"arena_ws": spec["arena_ws"], "arena": arena.pk, "viewers": args.viewers, "ramp": max(10.0, args.viewers / 100),
                 "control": str(log_dir / "viewers-control.json"), "status": str(log_dir / "viewers-status.json")}
        vcontrol, vstatus = Path(vspec["control"]), Path(vspec["status"])
        vcontrol.write_text(json.dumps({"pings": True}))
        (log_dir / "viewers.json").write_text(json.dumps(vspec))
        viewers = subprocess.Popen([str(BIN / "python"), __file__, "viewers", str(log_dir / "viewers.json")], cwd=ROOT,
                                   env=stack.env, stdout=open(log_dir / "viewers.log", "ab"), stderr=subprocess.STDOUT)
        processes.append(viewers)
        sampler.add("viewers", viewers.pid)

        def vcounts() -> dict[str, Any]:
            return dict(read_json(vstatus).get("counts", {}))

        rss_before = sampler.take()["rss"].get("daphne-8633", 0)
        try:
            wait_for(lambda: vcounts().get("connected", 0) + vcounts().get("failed", 0) >= args.viewers, CEILING, "the viewers")
        except RuntimeError as error:
            print(f"  {error}", flush=True)
        time.sleep(PING_AFTER + 2)
        connected = vcounts().get("connected", 0)
        rss_after = sampler.take()["rss"].get("daphne-8633", 0)
        figures["viewers"] = {"asked": args.viewers, "connected": connected, "failed": vcounts().get("failed", 0),
                              "refusals": {k: v for k, v in vcounts().items() if k.startswith("refused")},
                              "C_rss_mb_before": rss_before, "C_rss_mb_after": rss_after}
        print(f"viewers: {connected} of {args.viewers} connected; C's memory {rss_before:.0f} -> {rss_after:.0f} MB", flush=True)
        quiet: dict[str, Any] = {}
        for pings in (True, False):
            vcontrol.write_text(json.dumps({"pings": pings}))
            control.write_text(json.dumps({"phase": "connect", "pings": pings}))
            time.sleep(2)
            version = Tournament.objects.get(pk=arena.pk).version
            start, before = time.time(), vcounts()
            pbefore = counts()
            time.sleep(args.quiet)
            end, after = time.time(), vcounts()
            pafter = counts()
            cpu, span = sampler.between(start, end)
            row = {
                "seconds": span, "version_unchanged": Tournament.objects.get(pk=arena.pk).version == version,
                "standings_frames_to_viewers": after.get("standings", 0) - before.get("standings", 0),
                "standings_frames_to_players": pafter.get("standings_frames_to_players", 0) - pbefore.get("standings_frames_to_players", 0),
                "pings_per_s": (after.get("pings", 0) - before.get("pings", 0)) / span,
                "pongs_per_s": (after.get("pongs", 0) - before.get("pongs", 0)) / span,
                "C_cpu_ms_per_s": 1000 * cpu.get("daphne-8633", 0) / span,
                "cpu_ms_per_s": {group: 1000 * value / span for group, value in cpu.items()},
                "sockets_on_page": connected + joined,
            }
            quiet["browser pings" if pings else "no pings"] = row
            print(f"quiet, {'viewers ping as the browser' if pings else 'no pings'}: {row['sockets_on_page']} sockets on the page,"
                  f" {row['standings_frames_to_viewers']} standings frames to viewers, {row['pings_per_s']:.0f} pings/s;"
                  f" C's CPU {row['C_cpu_ms_per_s']:.1f} ms a second (version unchanged: {row['version_unchanged']})", flush=True)
        figures["quiet"] = quiet
        baseline_c = quiet["no pings"]["C_cpu_ms_per_s"] / 1000

        # 4. Changes with the viewers there (pings off: their cost is the quiet figure's).
        entry_ids = list(Entry.objects.filter(tournament=arena).values_list("pk", flat=True)[: args.changes])
        start, before, pbefore = time.time(), vcounts(), counts()
        here: list[float] = []
        for entry_id in entry_ids:
            here.append(standings_change(arena.pk, entry_id))
            time.sleep(1.0)
        goal = before.get("standings", 0) + len(entry_ids) * connected
        try:
            wait_for(lambda: vcounts().get("standings", 0) >= goal, 120, "the changes' frames")
        except RuntimeError as error:
            print(f"  {error}", flush=True)
        end, after, pafter = time.time(), vcounts(), counts()
        cpu, span = sampler.between(start, end)
        delivered = after.get("standings", 0) - before.get("standings", 0)
        delivered_players = pafter.get("standings_frames_to_players", 0) - pbefore.get("standings_frames_to_players", 0)
        forwarding = cpu.get("daphne-8633", 0) - baseline_c * span
        sent = delivered + delivered_players
        figures["changes"] = {
            "changes": len(entry_ids), "frame_cpu_ms_here": {"median": statistics.median(here), "p99": pct(here, 0.99)},
            "frame_bytes": (after.get("bytes", 0) - before.get("bytes", 0)) / max(1, delivered),
            "delivered_to_viewers": delivered, "delivered_to_players": delivered_players,
            "C_cpu_s": cpu.get("daphne-8633", 0), "seconds": span,
            "C_cpu_us_per_frame_sent": 1e6 * forwarding / max(1, sent),
            "C_cpu_ms_per_change": 1000 * forwarding / max(1, len(entry_ids)),
            "viewers_process_cpu_us_per_frame": 1e6 * cpu.get("viewers", 0) / max(1, delivered),
        }
        print(f"{len(entry_ids)} changes, 1 s apart: the frame ({figures['changes']['frame_bytes']:.0f} bytes) built once in"
              f" {statistics.median(here):.1f} ms CPU (median; p99 {pct(here, 0.99):.1f}); delivered {delivered} to viewers +"
              f" {delivered_players} to players; C's CPU {1000 * forwarding / max(1, len(entry_ids)):.0f} ms a change over its quiet"
              f" baseline = {1e6 * forwarding / max(1, sent):.1f} µs a socket", flush=True)
        vcontrol.write_text(json.dumps({"phase": "stop"}))
        viewers.wait(120)

        # 5. Play.
        table = table_services.table_open_started(
            players=[User.objects.get(pk=p["id"]) for p in plain], game=GAME, seat_count=2, turn_seconds=60, casual=True)
        control.write_text(json.dumps({"phase": "play", "plain_table": table.pk}))
        tick_stats = log_dir / "tick.json"
        tick = subprocess.Popen([str(BIN / "python"), __file__, "tick", str(tick_stats), str(control)], cwd=ROOT, env=stack.env,
                                stdout=open(log_dir / "tick.log", "ab"), stderr=subprocess.STDOUT)
        processes.append(tick)
        sampler.add("tick", tick.pid)
        play_from = time.time()
        wait_for(lambda: any(t.get("tables", 0) for t in read_json(tick_stats).get("ticks", [])), CEILING, "the first pass")
        first_tick = next(t for t in read_json(tick_stats)["ticks"] if t.get("tables"))
        print(f"first pass: {first_tick['tables']} tables opened in {first_tick['wall_ms'] / 1000:.1f} s"
              f" ({first_tick['cpu_ms'] / 1000:.1f} s CPU in the tick's process)", flush=True)
        window_from = time.time()
        c_from, meters_from = counts(), {pid: read_json(stats_dir / f"meter-{pid}.json") for pid in stack.pids().values()}
        tick_from = read_json(tick_stats)
        version_from = Tournament.objects.get(pk=arena.pk).version
        while time.time() - window_from < args.play:
            time.sleep(min(30.0, args.play - (time.time() - window_from)))
            now = counts()
            print(f"  {time.time() - window_from:5.0f} s: arena moves {now.get('arena_moves', 0) - c_from.get('arena_moves', 0)},"
                  f" plain moves {now.get('plain_moves', 0) - c_from.get('plain_moves', 0)},"
                  f" arena matches {now.get('arena_matches', 0) - c_from.get('arena_matches', 0)},"
                  f" at tables {now.get('arena_sockets', 0)}, waiting {now.get('arena_sockets_open', 0)}, load {os.getloadavg()[0]:.1f}",
                  flush=True)
        window_to = time.time()
        c_to, meters_to = counts(), {pid: read_json(stats_dir / f"meter-{pid}.json") for pid in stack.pids().values()}
        tick_to = read_json(tick_stats)
        version_to = Tournament.objects.get(pk=arena.pk).version
        cpu, span = sampler.between(window_from, window_to)
        figures["play"] = play_figures(args, c_from, c_to, meters_from, meters_to, tick_from, tick_to, stack.pids(), cpu, span,
                                       version_to - version_from, read_json(status), first_tick, play_from,
                                       {g: v / 1000 for g, v in figures["quiet"]["no pings"]["cpu_ms_per_s"].items()})
        figures["play"]["machine_load"] = [s["load"] for s in sampler.samples if window_from <= s["t"] <= window_to]
        control.write_text(json.dumps({"phase": "stop"}))
        tick.send_signal(signal.SIGTERM)
        programs.wait(120)
        tick.wait(60)
        figures["tables"] = {"arena": ArenaTable.objects.filter(tournament=arena).count(),
                             "arena_finished": ArenaTable.objects.filter(tournament=arena, finished_at__isnull=False).count()}
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
        sampler.stop_event.set()
        stack.stop()
        if not args.keep:
            Tournament.objects.filter(pk=arena.pk).update(status=Tournament.Status.CANCELLED)
    figures["load_end"] = os.getloadavg()
    report(figures)
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1, default=str))


def play_figures(args: argparse.Namespace, c_from: dict[str, Any], c_to: dict[str, Any], meters_from: dict[int, Any],
                 meters_to: dict[int, Any], tick_from: dict[str, Any], tick_to: dict[str, Any], pids: dict[str, int],
                 cpu: dict[str, float], span: float, changes: int, status: dict[str, Any], first_tick: dict[str, Any],
                 play_from: float, idle: dict[str, float]) -> dict[str, Any]:
    """The play window's figures (`idle`: each process's CPU seconds a second in the quiet period without pings)."""
    def delta(key: str) -> int:
        return int(c_to.get(key, 0)) - int(c_from.get(key, 0))

    def meter(port: int, name: str) -> tuple[int, float]:
        pid = pids[f"daphne-{port}"]
        before, after = meters_from.get(pid, {}), meters_to.get(pid, {})
        calls = after.get("calls", {}).get(name, 0) - before.get("calls", {}).get(name, 0)
        spent = after.get("cpu", {}).get(name, 0.0) - before.get("cpu", {}).get(name, 0.0)
        return calls, spent

    arena_moves, plain_moves = delta("arena_moves"), delta("plain_moves")
    passes = [p for p in tick_to.get("passes", []) if "players" in p]
    in_window = [p for p in passes if p["t"] >= play_from]
    ticks = [t for t in tick_to.get("ticks", []) if t["t"] >= play_from]
    frames_here = {name: meter(PORT_A, name) for name in ("frame_text", "shared_read", "frame_from", "arena_at", "arena_match_finished")}
    tick_meter_from, tick_meter_to = tick_from.get("meter", {}), tick_to.get("meter", {})
    tick_frames = (tick_meter_to.get("calls", {}).get("frame_text", 0) - tick_meter_from.get("calls", {}).get("frame_text", 0),
                   tick_meter_to.get("cpu", {}).get("frame_text", 0.0) - tick_meter_from.get("cpu", {}).get("frame_text", 0.0))
    d_frames = meter(PORT_D, "frame_text")
    all_frames = frames_here["frame_text"][0] + tick_frames[0] + d_frames[0]
    all_frame_cpu = frames_here["frame_text"][1] + tick_frames[1] + d_frames[1]
    frame_samples = [ms for pid_meter in [tick_to.get("meter", {})] for ms in pid_meter.get("samples", {}).get("frame_text", [])]
    return {
        "seconds": span,
        "rate_turns_per_s": args.rate,
        "arena_moves": arena_moves, "plain_moves": plain_moves,
        "arena_moves_per_s": arena_moves / span, "plain_moves_per_s": plain_moves / span,
        "arena_seat_match_ends": delta("arena_matches"), "arena_seat_match_ends_aborted": delta("arena_matches_aborted"),
        "plain_seat_match_ends": delta("plain_matches"),
        "standings_changes": changes,
        "found_told": delta("found_told"), "found_in_frame": delta("found_in_frame"), "found_by_reload": delta("found_by_reload"),
        "found_on_page_after_match": delta("found_on_page_after_match"), "reloads": delta("reloads"),
        "arena_frames_at_tables": delta("arena_frames_at_tables"),
        "standings_frames_to_players": delta("standings_frames_to_players"),
        "errors": status.get("errors", {}), "error_samples": status.get("error_samples", [])[:5],
        "waits_after_match_s": spread(status.get("waits", [])),
        "waits_first_table_s": spread(status.get("first_waits", [])),
        "cpu_s": cpu,
        "cpu_pct": {group: 100 * value / span for group, value in cpu.items()},
        "A_cpu_ms_per_arena_move": 1000 * cpu.get(f"daphne-{PORT_A}", 0) / max(1, arena_moves),
        "B_cpu_ms_per_plain_move": 1000 * cpu.get(f"daphne-{PORT_B}", 0) / max(1, plain_moves),
        "A_cpu_ms_per_arena_move_net_of_idle": 1000 * (cpu.get(f"daphne-{PORT_A}", 0) - idle.get(f"daphne-{PORT_A}", 0) * span)
        / max(1, arena_moves),
        "B_cpu_ms_per_plain_move_net_of_idle": 1000 * (cpu.get(f"daphne-{PORT_B}", 0) - idle.get(f"daphne-{PORT_B}", 0) * span)
        / max(1, plain_moves),
        "A_arena_code_ms_per_arena_move": 1000 * sum(spent for _calls, spent in frames_here.values()) / max(1, arena_moves),
        "A_arena_code": {name: {"calls": calls, "cpu_s": spent} for name, (calls, spent) in frames_here.items()},
        "frames_built": all_frames, "frame_cpu_ms_mean": 1000 * all_frame_cpu / max(1, all_frames),
        "frame_cpu_ms_tick_p50_p99": (pct(frame_samples, 0.5), pct(frame_samples, 0.99)),
        "C_cpu_us_per_frame_to_players": 1e6 * cpu.get(f"daphne-{PORT_C}", 0) / max(1, delta("standings_frames_to_players")),
        "first_pass": first_tick,
        "passes_all": [{"players": p["players"], "cpu_ms": round(p["cpu_ms"], 2), "wall_ms": round(p["wall_ms"], 2), "tables": p["tables"]} for p in in_window],
        "grouping_cpu_ms": {"p50": pct([p["cpu_ms"] for p in in_window], 0.5), "p99": pct([p["cpu_ms"] for p in in_window], 0.99),
                            "max": max((p["cpu_ms"] for p in in_window), default=0), "passes": len(in_window),
                            "players_max": max((p["players"] for p in in_window), default=0)},
        "grouping_wall_ms": {"p50": pct([p["wall_ms"] for p in in_window], 0.5), "p99": pct([p["wall_ms"] for p in in_window], 0.99)},
        "tick_wall_ms": {"p50": pct([t["wall_ms"] for t in ticks], 0.5), "p99": pct([t["wall_ms"] for t in ticks], 0.99),
                         "ticks": len(ticks)},
    }


def report(figures: dict[str, Any]) -> None:
    print("\n== figures", flush=True)
    print(json.dumps({k: v for k, v in figures.items() if k != "play"}, indent=1, default=str))
    play = figures.get("play")
    if not play:
        return
    short = {k: v for k, v in play.items() if k not in ("passes_all", "machine_load")}
    print(json.dumps(short, indent=1, default=str))
    loads = play.get("machine_load") or [float("nan")]
    print(f"load average during play: {min(loads):.1f}-{max(loads):.1f}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "programs":
        programs_main(sys.argv[2])
    elif len(sys.argv) > 2 and sys.argv[1] == "viewers":
        viewers_main(sys.argv[2])
    elif len(sys.argv) > 3 and sys.argv[1] == "tick":
        tick_main(sys.argv[2], sys.argv[3])
    else:
        main()
