"""Other players' round trips while hints are asked in bursts (issue 40, section 2), on a real daphne with
PostgreSQL and Redis, in one run: quiet windows, control windows and hint bursts, in turn.

    .venv/bin/python bench/hint_burst.py [--port 18100] [--db rummy_h1] [--redis-db 11] [--bursters 10]
                                         [--sockets 20] [--watchers 20] [--lobby 10] [--quiet 8] [--cycles 3]
                                         [--pool process|thread]

Set up in the database (no Celery: nothing moves but what the bench sends): `--bursters` guests per
cycle (and one more, whose hint before the measures starts the hint worker), each at an unrated Rearrange table against
an Easy bot, on their turn, with a seeded hard position of `bench/positions.py` (the slowest seeds of the
solver bench: 60-165 ms of search each here), and each with `--sockets` sockets at their table, all
opened before the measures. The other players: `--watchers` anonymous sockets watching one of those
tables, each sending `ping` every 150 ms (answered by the event loop), and `--lobby` lobby sockets sending
`sync` every 600 ms (answered from a database thread: the open tables).

In the burst window every burster sends one `hint` on each of its sockets at once, waits for the
answers, and goes again a second later, until its three hints are used up: the issue's attack, 20 hints
at once from one account's sockets, ten accounts over, half a second apart. The control window sends
the same rounds of frames as `ping`s (`--control-rounds` per burster): what the frames cost without any
hint. The bursters' client runs at nice 10 (`--bursters-nice`): on the machine it shares with daphne it
would otherwise take the CPU an attacker's own machine would spend. Each of `--cycles` cycles is a quiet window, the control, a pause and the bursts of its own
accounts, and a last quiet window ends the run: quiet and burst windows alternate, so the machine's own
ups and downs fall on both. The bursters run in a process of their own, so that their sockets do not slow the measuring
client. Printed: the others' round trips (p50, p99, max, count) per window, pings and lobby syncs apart,
with the ratio of each window's p99 to the quiet windows'; the CPU of daphne and of the hint worker; the
hints answered and refused; the load average before and after. `--pool thread` runs daphne with
`HINT_SEARCH_POOL = "thread"` (a settings module of the bench's own) to compare. Goal: the others' p99
in the burst window within twice the quiet windows'.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import BIN, setup_django  # noqa: E402

#: The slowest positions of bench/solver.py's seeds 0-999 (2026-12-07: 60-165 ms of CPU each here).
HARD_SEEDS = (523, 220, 302, 115, 793, 413, 971, 323, 185, 431, 994, 150)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")


def ensure_database(name: str) -> None:
    exists = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-tAc", f"SELECT 1 FROM pg_database WHERE datname='{name}'"],
                            capture_output=True, text=True)
    if exists.stdout.strip() != "1":
        subprocess.run(["runuser", "-u", "postgres", "--", "createdb", "-O", "rummy", name], check=True)


def hard_state(state: dict[str, Any], seat: int, seed: int) -> dict[str, Any]:
    """The game's state with the seat's rack and the table of a seeded hard position (the seat has
    opened; the other racks and the pool share out the rest of the 106 tiles as they were sized)."""
    from apps.engine.tiles import ids_of
    from bench.positions import random_position

    position = random_position(seed)
    free = set(range(106))

    def take(tile: Any) -> int:
        for tile_id in ids_of(tile):
            if tile_id in free:
                free.remove(tile_id)
                return tile_id
        raise ValueError(f"no copy of {tile} left")

    table = [[take(tile) for tile in meld] for meld in position.table]
    rack = [take(tile) for tile in position.rack]
    rest = sorted(free)
    racks = [list(rack_ids) for rack_ids in state["racks"]]
    racks[seat] = rack
    for other in range(len(racks)):
        if other != seat:
            racks[other], rest = rest[:14], rest[14:]
    opened = [True] * len(racks)
    return {**state, "racks": racks, "pool": rest, "table": table, "opened": opened, "turn": seat, "passed": [False] * len(racks)}


def prepare(bursters: int) -> list[tuple[int, str]]:
    """The bursters' tables and session cookies."""
    from apps.accounts.services import guest_create
    from apps.tables import services
    from apps.tables.models import Game, Table
    from bench.load import session_cookie
    from tests.tables.helpers import run_due

    out = []
    for index in range(bursters):
        guest = guest_create()
        table = services.table_open(by=guest, game="tile-rummy-rearrange", seat_count=2, bots=["easy"])
        services.table_start(table_id=table.pk, by=guest)
        while Table.objects.get(pk=table.pk).due_action == Table.Due.BOT:
            run_due(table.pk)
        table = Table.objects.get(pk=table.pk)
        game = Game.objects.get(pk=table.current_game_id)
        game.state = hard_state(game.state, 0, HARD_SEEDS[index % len(HARD_SEEDS)])
        game.save(update_fields=["state"])
        out.append((table.pk, session_cookie(guest)))
    return out


class Others:
    """The other players: pings on watchers' sockets, syncs on lobby sockets, every round trip kept with
    the time it started."""

    def __init__(self) -> None:
        self.samples: list[tuple[str, float, float]] = []  # (kind, started, milliseconds)
        self.stop = asyncio.Event()

    async def pinger(self, url: str, origin: str, every: float) -> None:
        from websockets.asyncio.client import connect

        async with connect(url, origin=origin, compression=None, proxy=None, ping_interval=None, max_size=None) as ws:  # type: ignore[arg-type]
            await ws.recv()  # the state
            while not self.stop.is_set():
                started = time.perf_counter()
                await ws.send('{"type":"ping"}')
                while json.loads(await ws.recv()).get("type") != "pong":
                    pass
                self.samples.append(("ping", started, (time.perf_counter() - started) * 1000))
                await asyncio.sleep(every)

    async def syncer(self, url: str, origin: str, every: float) -> None:
        from websockets.asyncio.client import connect

        async with connect(url, origin=origin, compression=None, proxy=None, ping_interval=None, max_size=None) as ws:  # type: ignore[arg-type]
            await ws.recv()  # the tables
            while not self.stop.is_set():
                started = time.perf_counter()
                await ws.send('{"type":"sync"}')
                while json.loads(await ws.recv()).get("type") != "tables":
                    pass
                self.samples.append(("sync", started, (time.perf_counter() - started) * 1000))
                await asyncio.sleep(every)

    def window(self, kind: str, start: float, end: float) -> list[float]:
        return [ms for what, at, ms in self.samples if what == kind and start <= at < end]


async def open_sockets(url: str, origin: str, cookie: str, count: int) -> list[Any]:
    from websockets.asyncio.client import connect

    opened = [await connect(url, origin=origin, additional_headers={"Cookie": cookie}, compression=None, proxy=None,  # type: ignore[arg-type]
                            ping_interval=None, max_size=None) for _ in range(count)]
    for ws in opened:
        await ws.recv()  # the state
    return opened


async def answer(ws: Any) -> dict[str, Any]:
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] in ("hint", "error"):
            return frame


async def burster(opened: list[Any], counts: dict[str, int], every: float, delay: float, control_rounds: int = 0) -> None:
    """One account's sockets: after `delay`, a hint on each at once, again every `every` seconds once all
    are answered, until its hints are used up. With `control_rounds`, as many rounds of `ping` frames
    instead: the same frames on the same sockets, with no hint and no search."""
    await asyncio.sleep(delay)
    rounds = 0
    used_up = False
    while not used_up:
        for ws in opened:
            await ws.send('{"type":"ping"}' if control_rounds else '{"type":"hint"}')
        if control_rounds:
            for ws in opened:
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
            rounds += 1
            used_up = rounds >= control_rounds
        else:
            for frame in await asyncio.gather(*(answer(ws) for ws in opened)):
                key = "answered" if frame["type"] == "hint" else frame["code"]
                if "too long" in frame.get("message", "") or "busy" in frame.get("message", ""):
                    key += " (too long)" if "too long" in frame["message"] else " (busy)"
                counts[key] = counts.get(key, 0) + 1
                used_up = used_up or frame.get("code") == "hints_used_up" or (frame["type"] == "hint" and frame["left"] == 0)
            counts["rounds"] = counts.get("rounds", 0) + 1
        await asyncio.sleep(every)


async def bursts(args: argparse.Namespace, tables: list[tuple[int, str]], ready: Any, go: Any, results: Any) -> None:
    """The bursters (in a process of their own, so that their sockets' work does not delay the others'
    measuring client), which also keep the time line: every socket opened first and one hint asked by an
    account of its own (the hint worker started and warm); then, on `go`, `--cycles` times: a quiet
    window, the control (the same rounds of frames as pings), a pause, the hint bursts of this cycle's
    accounts; then a last quiet window. Puts the windows and the hints' answers in `results`."""
    base = f"ws://127.0.0.1:{args.port}"
    origin = f"http://127.0.0.1:{args.port}"
    (warm_table, warm_cookie), *tables = tables
    [warm] = await open_sockets(f"{base}/ws/tables/{warm_table}/", origin, warm_cookie, 1)
    await warm.send('{"type":"hint"}')
    await answer(warm)
    sockets = [await open_sockets(f"{base}/ws/tables/{table}/", origin, cookie, args.sockets) for table, cookie in tables]
    ready.set()
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    windows: dict[str, list[tuple[float, float]]] = {"quiet": [], "control": [], "burst": []}
    counts: dict[str, int] = {}

    async def window(name: str, work: Any) -> None:
        started = time.perf_counter()
        await work
        windows[name].append((started, time.perf_counter()))

    for cycle in range(args.cycles):
        accounts = sockets[cycle * args.bursters : (cycle + 1) * args.bursters]
        await window("quiet", asyncio.sleep(args.quiet))
        await window("control", asyncio.gather(*(
            burster(opened, {}, args.every, index * args.stagger, args.control_rounds) for index, opened in enumerate(accounts)
        )))
        await asyncio.sleep(1)
        await window("burst", asyncio.gather(*(burster(opened, counts, args.every, index * args.stagger) for index, opened in enumerate(accounts))))
    await window("quiet", asyncio.sleep(args.quiet))
    results.put((windows, counts))
    for opened in [*sockets, [warm]]:
        for ws in opened:
            await ws.close()


def bursters_process(args: argparse.Namespace, tables: list[tuple[int, str]], ready: Any, go: Any, results: Any) -> None:
    # An attacker's client runs on its own machine: here it shares two cores with daphne and the measuring
    # client, so it yields the CPU to them (at nice 0 the control window alone, pings and no hint, raised
    # the others' p99 3.75 times over the quiet windows').
    os.nice(args.bursters_nice)
    asyncio.run(bursts(args, tables, ready, go, results))


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    return f"p50 {percentile(values, 0.5):7.2f} ms  p99 {percentile(values, 0.99):7.2f} ms  max {max(values):7.2f} ms  n {len(values)}"


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds used so far by daphne itself and by its children (the hint worker)."""
    import psutil

    process = psutil.Process(pid)
    own = process.cpu_times()
    children = 0.0
    for child in process.children(recursive=True):
        try:
            times = child.cpu_times()
            children += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return own.user + own.system, children


async def run(args: argparse.Namespace, watched: int, ready: Any, go: Any, results: Any, daphne: int) -> None:
    base = f"ws://127.0.0.1:{args.port}"
    origin = f"http://127.0.0.1:{args.port}"
    loop = asyncio.get_running_loop()
    if not await loop.run_in_executor(None, ready.wait, 300):
        raise RuntimeError("the bursters never got ready (see /tmp/hint-burst-daphne-*.log)")
    others = Others()
    tasks = [asyncio.create_task(others.pinger(f"{base}/ws/tables/{watched}/", origin, 0.15)) for _ in range(args.watchers)]
    tasks += [asyncio.create_task(others.syncer(f"{base}/ws/lobby/", origin, 0.6)) for _ in range(args.lobby)]
    await asyncio.sleep(2)  # every socket open and warm
    cpu = [cpu_seconds(daphne)]
    workers: set[int] = set()

    async def watch_workers() -> None:
        import psutil

        while True:
            workers.update(child.pid for child in psutil.Process(daphne).children(recursive=True))
            await asyncio.sleep(0.5)

    watcher = asyncio.create_task(watch_workers())
    go.set()
    windows, counts = await loop.run_in_executor(None, results.get, True, 1800)  # perf_counter: CLOCK_MONOTONIC, one clock
    watcher.cancel()
    cpu.append(cpu_seconds(daphne))
    others.stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for kind, label in (("ping", "ping (event loop)"), ("sync", "lobby sync (database thread)")):
        quiet = [ms for start, end in windows["quiet"] for ms in others.window(kind, start, end)]
        print(f"{label:30s} quiet:   {summary(quiet)}")
        for name in ("control", "burst"):
            values = [ms for start, end in windows[name] for ms in others.window(kind, start, end)]
            ratio = percentile(values, 0.99) / percentile(quiet, 0.99) if quiet and values else float("nan")
            print(f"{'':30s} {name + ':':8s} {summary(values)}   p99 / quiet {ratio:.2f}")
    print(f"hint worker CPU over the run {cpu[1][1] - cpu[0][1]:.2f} s ({len(workers)} worker processes seen); "
          f"daphne CPU over the run {cpu[1][0] - cpu[0][0]:.2f} s")
    seconds = {name: sum(end - start for start, end in spans) for name, spans in windows.items()}
    print(f"windows: quiet {seconds['quiet']:.1f} s, control {seconds['control']:.1f} s ({args.control_rounds} rounds of pings per "
          f"burster), burst {seconds['burst']:.1f} s, over {args.cycles} cycles of {args.bursters} bursters")
    print(f"hint answers: {dict(sorted(counts.items()))}; searches that answered: {counts.get('answered', 0)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=18100)
    parser.add_argument("--db", default="rummy_h1")
    parser.add_argument("--redis-db", type=int, default=11)
    parser.add_argument("--bursters", type=int, default=10)
    parser.add_argument("--sockets", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--lobby", type=int, default=10)
    parser.add_argument("--quiet", type=float, default=8.0)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between a burster's bursts")
    parser.add_argument("--stagger", type=float, default=0.5, help="seconds between the bursters' first bursts")
    parser.add_argument("--pool", choices=("process", "thread"), default="process",
                        help="where daphne searches hints (HINT_SEARCH_POOL): 'thread' to compare")
    parser.add_argument("--bursters-nice", type=int, default=10, help="the bursters' client process's niceness")
    parser.add_argument("--cycles", type=int, default=3, help="quiet, control and burst windows, this many times")
    parser.add_argument("--nice", type=int, default=None, help="the hint worker's niceness (HINT_SEARCH_NICE; 10 unless set)")
    parser.add_argument("--control-rounds", type=int, default=6, help="rounds of pings per burster in the control window")
    args = parser.parse_args()
    if not 18100 <= args.port <= 18199:
        parser.error("the port must be in 18100-18199")
    ensure_database(args.db)
    setup_django(args.db, args.redis_db, CELERY_EMBEDDED="0")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    subprocess.run(["redis-cli", "-n", str(args.redis_db), "FLUSHDB"], check=True, stdout=subprocess.DEVNULL)
    tables = prepare(args.bursters * args.cycles + 1)  # one more: the account whose hint starts the workers
    from django.db import connections

    connections.close_all()  # before the fork: the child must not share (and close) the parent's connection
    log = open(f"/tmp/hint-burst-daphne-{args.port}.log", "wb")  # noqa: SIM115 - the child's lifetime
    env = dict(os.environ)
    if args.pool != "process" or args.nice is not None:  # the site's settings changed, from a module of the bench's own
        shim = Path(f"/tmp/hint-burst-settings-{args.port}")
        shim.mkdir(exist_ok=True)
        nice = "" if args.nice is None else f"HINT_SEARCH_NICE = {args.nice}\n"
        (shim / "hint_burst_settings.py").write_text(f"from rummysite.settings import *  # noqa\nHINT_SEARCH_POOL = {args.pool!r}\n{nice}")
        env.update(DJANGO_SETTINGS_MODULE="hint_burst_settings", PYTHONPATH=f"{shim}:{env.get('PYTHONPATH', ROOT)}")
    daphne = subprocess.Popen([str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(args.port), "rummysite.asgi:application"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{args.port}/healthz", timeout=2):
                    break
            except OSError:
                time.sleep(0.1)
        print(f"hint search pool: {args.pool}" + ("" if args.nice is None else f", worker nice {args.nice}"))
        print(f"load average before: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
        context = multiprocessing.get_context("fork")
        ready, go, results = context.Event(), context.Event(), context.Queue()
        child = context.Process(target=bursters_process, args=(args, tables, ready, go, results))
        child.start()
        asyncio.run(run(args, tables[1][0], ready, go, results, daphne.pid))
        child.join(30)
        print(f"load average after:  {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    finally:
        daphne.terminate()
        daphne.wait(15)
        subprocess.run(["redis-cli", "-n", str(args.redis_db), "FLUSHDB"], check=False, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
