"""Arenas (issue 44, SPEC 16): what one pairing pass, one standings change and one viewer cost.

    DATABASE_URL=postgres://... .venv/bin/python bench/tournament.py [--players 1000] [--viewers 5000] [--passes 40]

1. The pairing pass's grouping (apps/tournaments/services.group_entries: standing first, then rating,
   through apps/lib/grouping.py), for `--players` free players with standings spread over 0-40 points,
   for tables of 2, 3, 4 and "3-4": CPU per pass, median and p99 (goal: p99 <= 50 ms for 1,000).
2. One full tick of a running arena with `--players` free players on the database: the grouping plus
   opening every table (`table_open_started`) and its arena rows: wall time and tables per second.
3. One standings change: building the frame (the top 100 and the tables playing) once, as the worker
   does after a change: CPU and wall per change, median and p99, and the frame's size.
4. Per viewer: a web process forwarding one frame to `--viewers` sockets (Room.take, the same text to
   each): CPU per viewer per change; and a quiet minute (no change): frames sent (none), plus the cost
   of the clients' liveness pings (one per viewer per 5 s of quiet, answered from the kept frame).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

import django  # noqa: E402

django.setup()

from datetime import timedelta  # noqa: E402

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from apps.accounts.models import User  # noqa: E402
from apps.tournaments import live, services  # noqa: E402
from apps.tournaments.consumers import TournamentSocket  # noqa: E402
from apps.tournaments.models import ArenaTable, Entry, Tournament  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def grouping(players: int, passes: int, seed: int) -> None:
    rng = random.Random(seed)
    print(f"1. grouping of one pairing pass, {players} free players, {passes} passes each (CPU ms)")
    for sizes, label in (((2,), "2"), ((3,), "3"), ((4,), "4"), ((4, 3), "3-4")):
        times = []
        for _ in range(passes):
            entries = [
                SimpleNamespace(user_id=i, points=rng.randint(0, 40), last_table=f"{i},{i + 1}" if rng.random() < 0.5 else "")
                for i in range(players)
            ]
            ratings = {i: int(rng.gauss(1000, 200)) for i in range(players)}
            blocked = {frozenset((rng.randrange(players), rng.randrange(players))) for _ in range(players // 20)}
            start = time.process_time()
            tables = services.group_entries(entries, ratings, sizes, blocked)  # type: ignore[arg-type]
            times.append((time.process_time() - start) * 1000)
        seated = sum(len(t) for t in tables)
        print(f"   seats {label:>3}: median {statistics.median(times):6.1f}  p99 {pct(times, 0.99):6.1f}  (last pass seated {seated} of {players})")


def make_arena(players: int) -> Tournament:
    arena = Tournament.objects.create(
        name="Bench arena", game="tile-rummy", seats="2", turn_seconds=60, minutes=120, rated=False,
        starts_at=timezone.now() - timedelta(minutes=1), status=Tournament.Status.RUNNING,
    )
    stamp = int(time.time() * 1000) % 10_000_000
    users = User.objects.bulk_create(User(username=f"b{stamp}_{i}", password="!") for i in range(players))
    rng = random.Random(1)
    Entry.objects.bulk_create(
        Entry(tournament=arena, user=user, points=rng.randint(0, 40), matches=rng.randint(0, 12),
              perf_sum=rng.randint(900, 1500) * 3, perf_count=3, reached_at=timezone.now())
        for user in users
    )
    return arena


def full_tick(arena: Tournament) -> None:
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    result = services.arena_pair(tournament=arena)
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    print(f"2. one full pairing tick on {connection.vendor}: {result.tables} tables ({result.players} players) opened in "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU here: {result.tables / wall:.0f} tables/s")


def frames(arena: Tournament, changes: int) -> str:
    cpu, wall = [], []
    text = ""
    for _ in range(changes):
        arena.refresh_from_db()
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        text = live.frame_text(arena)
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
    print(f"3. one standings change ({Entry.objects.filter(tournament=arena).count()} entrants, "
          f"{ArenaTable.objects.filter(tournament=arena, finished_at__isnull=True).count()} tables playing): frame of "
          f"{len(text)} bytes, CPU median {statistics.median(cpu):.1f} ms p99 {pct(cpu, 0.99):.1f} ms; "
          f"wall median {statistics.median(wall):.1f} ms p99 {pct(wall, 0.99):.1f} ms")
    return text


class Viewer:
    sent = 0

    async def send_text(self, text: str) -> None:
        Viewer.sent += 1


async def fan_out(text: str, viewers: int, changes: int) -> None:
    room = live.Room(1, lambda _id: None)
    room.viewers = {Viewer() for _ in range(viewers)}
    start = time.process_time()
    for _change in range(changes):
        room.take(text)
        await asyncio.gather(*room._tasks)
    cpu = (time.process_time() - start) / (changes * viewers)
    print(f"4. forwarding one change to {viewers} viewers: {cpu * 1e6:.2f} µs CPU per viewer per change "
          f"({cpu * viewers * 1000:.1f} ms per change for all)")
    Viewer.sent = 0
    await asyncio.sleep(0)
    print(f"   a quiet period: {Viewer.sent} frames sent, no timer per viewer on the server")
    socket = TournamentSocket.__new__(TournamentSocket)
    socket.room = room
    socket.open = True

    async def send(message: dict) -> None:
        return None

    socket._send = send  # type: ignore[assignment]
    start = time.process_time()
    for _ in range(viewers):
        await socket.on_ping({})
    ping = (time.process_time() - start) / viewers
    print(f"   a liveness ping answered from the kept frame: {ping * 1e6:.2f} µs CPU (handler only); "
          f"{viewers} viewers quiet for a minute ping {viewers * 12} times: {viewers * 12 * ping * 1000 / 60:.1f} ms CPU a second")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--viewers", type=int, default=5000)
    parser.add_argument("--passes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-tick", action="store_true")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} on {os.cpu_count()} cores")
    grouping(args.players, args.passes, args.seed)
    arena = make_arena(args.players)
    if not args.no_tick:
        full_tick(arena)
    text = frames(arena, args.passes)
    asyncio.run(fan_out(text, args.viewers, 20))
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
