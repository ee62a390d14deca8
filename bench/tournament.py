"""Arenas (issue 44, SPEC 16): what one pairing pass, one standings change and one viewer cost.

    DATABASE_URL=postgres://... .venv/bin/python bench/tournament.py [--players 1000] [--viewers 5000] [--passes 40]

1. The pairing pass's grouping (apps/tournaments/services.group_entries: standing first, then rating,
   cut into consecutive tables, conflicts repaired by the neighbour below), for `--players` free players
   with standings spread over 0-40 points, a quarter of them back from a table of standing neighbours
   (all free again: the same table would form again) and blocked pairs, some between neighbours; for
   tables of 2, 3, 4 and "3-4": CPU per pass, median and p99 (goal: p99 <= 50 ms for 1,000), beside the
   grouping it replaced (quick pairing's exact search, apps/lib/grouping.py, with standing as the
   rating: `group_entries_before` below), alternated pass by pass on the same players.
1b. A seated player's arena rank at a table (apps/tournaments/table_part.py, at most once a second per
   seated socket after a standings change) with `--players` entrants on the database: statements, CPU
   and wall per read, the COUNT of those ranked above (selectors.standing_of) beside reading every
   entrant's id in standings order (the read it replaced).
1c. Choosing the tables of one pass on the database, `--players` free entrants: what `arena_pair` does
   before it opens any table (services.pairing_tables: the free entrants, their ratings, the blocks among
   them, the grouping): statements, CPU and wall, median and p99.
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
import gc
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
from apps.leaderboards.rating import START_RATING  # noqa: E402
from apps.lib.grouping import Waiting, form_tables  # noqa: E402
from apps.tournaments import live, scoring, selectors, services  # noqa: E402
from apps.tournaments.consumers import TournamentSocket  # noqa: E402
from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, Tournament  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def group_entries_before(entries, ratings, sizes, blocked):  # type: ignore[no-untyped-def]
    """The arena's grouping before this change (services.group_entries at 339bd96): quick pairing's exact
    search over bands of the standing order, standing as the rating key."""
    by_user = {entry.user_id: entry for entry in entries}
    waiting = [
        Waiting(entry.user_id, -entry.points * 10_000.0 + min(max(ratings.get(entry.user_id, START_RATING), 0), 9_999), waves=1_000_000)
        for entry in entries
    ]

    def allowed(a: Waiting, b: Waiting) -> bool:
        return frozenset((a.id, b.id)) not in blocked

    def not_again(a: Waiting, b: Waiting) -> bool:
        last = by_user[a.id].last_table
        return allowed(a, b) and not (last and last == by_user[b.id].last_table)

    waiting.sort(key=lambda player: (player.rating, player.id))
    split = scoring.table_sizes_for(len(waiting), sizes)
    tables = []
    start = 0
    for size in sorted(set(split), reverse=True):
        count = split.count(size) * size
        band = waiting[start : start + count + (len(waiting) - sum(split) if size == min(split) else 0)]
        start += len(band)
        for table in form_tables(band, seats=size, allowed=not_again if size == 2 else allowed).tables:
            members = [by_user[player.id] for player in table]
            key = ",".join(str(entry.user_id) for entry in sorted(members, key=lambda e: e.user_id))
            if all(entry.last_table == key for entry in members):
                continue
            tables.append(members)
    return tables


def free_players(rng: random.Random, players: int, seats: int) -> tuple[list[SimpleNamespace], dict[int, int], set[frozenset[int]]]:
    """`players` free entrants: points 0-40, ratings N(1000, 200); a quarter back from a table of standing
    neighbours (all free again), blocked pairs at random and between standing neighbours."""
    entries = [SimpleNamespace(user_id=i, points=rng.randint(0, 40), last_table="") for i in range(players)]
    ratings = {i: int(rng.gauss(1000, 200)) for i in range(players)}
    order = sorted(entries, key=lambda e: (-e.points, -ratings[e.user_id], e.user_id))
    for at in range(0, players, 4 * seats):
        members = order[at : at + seats]
        key = ",".join(str(user_id) for user_id in sorted(e.user_id for e in members))
        for entry in members:
            entry.last_table = key
    blocked = {frozenset((rng.randrange(players), rng.randrange(players))) for _ in range(players // 20)}
    blocked |= {frozenset((order[i].user_id, order[i + 1].user_id)) for i in range(0, players - 1, 50)}
    return entries, ratings, blocked


def broken(tables: list, blocked: set[frozenset[int]]) -> int:  # type: ignore[type-arg]
    """Tables that hold a blocked pair or are the very table their players just left."""
    count = 0
    for table in tables:
        ids = sorted(entry.user_id for entry in table)
        key = ",".join(map(str, ids))
        pairs = {frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :]}
        count += bool(pairs & blocked) or all(entry.last_table == key for entry in table)
    return count


def grouping(players: int, passes: int, seed: int) -> None:
    rng = random.Random(seed)
    print(f"1. grouping of one pairing pass, {players} free players, {passes} passes each, before/after alternated (CPU ms)")
    for sizes, label in (((2,), "2"), ((3,), "3"), ((4,), "4"), ((4, 3), "3-4")):
        times: dict[str, list[float]] = {"before": [], "after": []}
        seated = {"before": 0, "after": 0}
        bad = {"before": 0, "after": 0}
        for step in range(passes):
            entries, ratings, blocked = free_players(rng, players, max(sizes))
            runs = (("before", group_entries_before), ("after", services.group_entries))
            for name, group in runs if step % 2 == 0 else runs[::-1]:
                start = time.process_time()
                tables = group(entries, ratings, sizes, blocked)
                times[name].append((time.process_time() - start) * 1000)
                seated[name] += sum(len(t) for t in tables)
                bad[name] += broken(tables, blocked)
        for name in ("before", "after"):
            print(f"   seats {label:>3} {name:>6}: median {statistics.median(times[name]):6.1f}  p99 {pct(times[name], 0.99):6.1f}  "
                  f"max {max(times[name]):6.1f}  (seated {seated[name] / passes:.0f} of {players} a pass, {bad[name]} tables breaking a rule)")


def rank_before(tournament_id: int, user_id: int) -> int | None:
    """The seated player's rank as table_part read it before: every entrant's id in standings order."""
    for rank, entrant in enumerate(
        selectors.standings_queryset(tournament_id).values_list("user_id", flat=True).iterator(), start=1
    ):
        if entrant == user_id:
            return rank
    return None


def rank_reads(arena: Tournament, reads: int, seed: int) -> None:
    rng = random.Random(seed)
    user_ids = list(Entry.objects.filter(tournament=arena).values_list("user_id", flat=True))
    statements = [0]

    def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        statements[0] += 1
        return execute(sql, params, many, context)

    def entry_then_rank_before(user_id: int) -> object:  # the two reads of table_part._frame before
        entry = Entry.objects.filter(tournament=arena, user_id=user_id).values("points", "streak").first()
        return entry, rank_before(arena.pk, user_id)

    def after(user_id: int) -> object:
        return selectors.standing_of(arena.pk, user_id)

    figures: dict[str, tuple[list[float], list[float], list[int]]] = {"before": ([], [], []), "after": ([], [], [])}
    for step in range(reads):
        user_id = rng.choice(user_ids)
        runs = (("before", entry_then_rank_before), ("after", after))
        for name, read in runs if step % 2 == 0 else runs[::-1]:
            statements[0] = 0
            with connection.execute_wrapper(count):
                start_wall, start_cpu = time.perf_counter(), time.process_time()
                read(user_id)
                cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
            figures[name][0].append(cpu * 1000)
            figures[name][1].append(wall * 1000)
            figures[name][2].append(statements[0])
    mismatched = sum(rank_before(arena.pk, u) != (selectors.standing_of(arena.pk, u) or {}).get("rank") for u in user_ids[:200])
    print(f"1b. a seated player's rank at a table, {len(user_ids)} entrants on {connection.vendor}, {reads} reads each, alternated "
          f"(points, streak and rank; {mismatched} of 200 ranks differing):")
    for name in ("before", "after"):
        cpu, wall, count_ = figures[name]
        print(f"   {name:>6}: statements {statistics.median(count_):.0f}, CPU median {statistics.median(cpu):.2f} ms p99 {pct(cpu, 0.99):.2f} ms; "
              f"wall median {statistics.median(wall):.2f} ms p99 {pct(wall, 0.99):.2f} ms")


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


def choosing_before(arena: Tournament) -> int:
    """What arena_pair did before opening a table, before this change: the free entries as models with
    their users, the ratings by a list of ids, the blocks, the exact search."""
    busy = ArenaSeat.objects.filter(arena_table__tournament=arena, arena_table__finished_at__isnull=True).values("entry_id")
    entries = list(Entry.objects.filter(tournament=arena, paused=False, removed=False).exclude(pk__in=busy).select_related("user"))
    ratings = {u: r for u, (r, _m) in services._ratings(arena.game, [e.user_id for e in entries]).items()}
    blocked = services.blocked_pairs([e.user_id for e in entries])
    return len(group_entries_before(entries, ratings, arena.table_sizes, blocked))


def choosing(arena: Tournament, passes: int) -> None:
    statements = [0]

    def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        statements[0] += 1
        return execute(sql, params, many, context)

    figures: dict[str, tuple[list[float], list[float], list[int], list[int]]] = {"before": ([], [], [], []), "after": ([], [], [], [])}
    runs = (("before", lambda: choosing_before(arena)), ("after", lambda: len(services.pairing_tables(arena, timezone.now()))))
    # The same again with the process's startup heap frozen (gc.freeze(), as apps/live/collector.py does in
    # the web processes): a full collection then walks only what is younger, not Django's 130,000 objects.
    full: dict[str, list[float]] = {"before": [], "after": [], "after, heap frozen": []}
    started = [0.0]

    def pauses(phase: str, info: dict) -> None:  # type: ignore[type-arg]
        if phase == "start":
            started[0] = time.perf_counter()
        elif info["generation"] == 2 and current[0] in full:
            full[current[0]].append((time.perf_counter() - started[0]) * 1000)

    current = [""]
    gc.callbacks.append(pauses)
    figures["after, heap frozen"] = ([], [], [], [])
    try:
        for step in range(passes):
            for name, choose in runs if step % 2 == 0 else runs[::-1]:
                current[0] = name
                statements[0] = 0
                with connection.execute_wrapper(count):
                    start_wall, start_cpu = time.perf_counter(), time.process_time()
                    formed = choose()
                    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
                figures[name][0].append(cpu * 1000)
                figures[name][1].append(wall * 1000)
                figures[name][2].append(statements[0])
                figures[name][3].append(formed)
        gc.collect()
        gc.freeze()
        current[0] = "after, heap frozen"
        for _step in range(passes):
            statements[0] = 0
            with connection.execute_wrapper(count):
                start_wall, start_cpu = time.perf_counter(), time.process_time()
                formed = runs[1][1]()
                cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
            for i, value in enumerate((cpu * 1000, wall * 1000, statements[0], formed)):
                figures["after, heap frozen"][i].append(value)  # type: ignore[arg-type]
    finally:
        gc.unfreeze()
        gc.callbacks.remove(pauses)
    print(f"1c. choosing the tables of one pass on {connection.vendor}, {Entry.objects.filter(tournament=arena).count()} free entrants "
          f"at {arena.seats} seats (no table opened), {passes} passes each, before/after alternated, then after with the heap frozen:")
    for name in ("before", "after", "after, heap frozen"):
        cpu, wall, count_, formed_ = figures[name]
        print(f"   {name:>18}: {formed_[-1]} tables, statements {statistics.median(count_):.0f}, CPU median {statistics.median(cpu):.1f} ms "
              f"p99 {pct(cpu, 0.99):.1f} ms; wall median {statistics.median(wall):.1f} ms p99 {pct(wall, 0.99):.1f} ms; "
              f"{len(full[name])} full collections ({max(full[name], default=0):.0f} ms wall at most)")


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
    rank_reads(arena, 200, args.seed)
    choosing(arena, args.passes)
    if not args.no_tick:
        full_tick(arena)
    text = frames(arena, args.passes)
    asyncio.run(fan_out(text, args.viewers, 20))
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
