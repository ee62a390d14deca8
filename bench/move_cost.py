"""What one move costs the server, in-process: database queries, CPU time and wall time of
`services.game_move` including its after-commit work (payload, broadcast to Redis, task enqueue), and
the publish (every viewer's frame encoded once), on the bench's PostgreSQL and Redis.

    .venv/bin/python bench/move_cost.py [--moves 400] [--connections both|kept|pool] [--db rummy_bench]

CPU time is this process's (time.process_time), so it is not inflated by other work on the machine
the way wall time is; both are printed.

Each move runs the way a WebSocket frame's database work runs under daphne: through the consumers' own
database-thread wrapper (apps/live/threads.py `_in_thread`), which closes or keeps the connection
around every call. `--connections` chooses how connections are reused: `kept` (each thread keeps its
own for CONN_MAX_AGE seconds), `pool` (psycopg's pool, DATABASE_POOL=1: a connection is borrowed per
call and given back), or `both`: the two, alternated in rounds in separate processes of the same run,
with the machine's load average, for bench/README.md ("Database connections").
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import Stack, setup_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions by CPU time (cProfile)")
    parser.add_argument("--sort", default="cumulative", help="with --profile: pstats order (cumulative, tottime)")
    parser.add_argument("--connections", choices=["both", "kept", "pool"], default="both")
    parser.add_argument("--rounds", type=int, default=2, help="with --connections both: rounds of each")
    parser.add_argument("--db", default="rummy_bench", help="the bench's PostgreSQL database (created and migrated "
                        "when needed)")
    args = parser.parse_args()
    Stack(db=args.db, redis_db=args.redis_db).prepare()  # create and migrate the database if needed
    if args.connections == "both":
        compare(args)
        return
    connections = {"pool": {"DATABASE_POOL": "1"}, "kept": {"DATABASE_POOL": "0", "CONN_MAX_AGE": "300"}}
    # Deal at once (no browsers here to send their seeds).
    setup_django(db=args.db, redis_db=args.redis_db, TABLE_FAIR_SEED_SECONDS="0", **connections[args.connections])

    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.engine.bots import get_bot
    from apps.engine.game import get_rules
    from apps.live.threads import _in_thread as in_db_thread
    from apps.tables import services
    from apps.tables.models import Table
    from apps.tables.snapshot import table_envelope
    from bench.load import close_tables, ensure_users

    settings.TABLE_ENQUEUE_TASKS = True  # count the enqueue too (nothing consumes Redis db --redis-db)
    settings.TABLE_FAIR_SEED_SECONDS = 0.0  # deal at once: no browser here sends a seed
    rules = get_rules("tile-rummy")
    brain = get_bot("tile-rummy", "easy")
    rng = random.Random(7)
    users = ensure_users(4)
    tables = []
    cpu: list[float] = []
    wall: list[float] = []
    queries: list[int] = []
    profiler = cProfile.Profile(time.process_time)  # CPU, not the waits for PostgreSQL and Redis
    backend = Backend(connection)
    while len(cpu) < args.moves:
        table = services.table_open(by=users[0], game="tile-rummy", seat_count=4, match_length=5, turn_seconds=60)
        tables.append(table.pk)
        for user in users[1:]:
            services.table_join(table_id=table.pk, by=user)
        services.table_start(table_id=table.pk, by=users[0])
        while len(cpu) < args.moves:
            row = Table.objects.select_related("current_game").get(pk=table.pk)
            state = rules.from_dict(row.current_game.state)  # type: ignore[union-attr]
            seat = rules.to_move(state)
            if seat is None:
                break
            move = str(brain.next_move(rules.view_for(state, seat), rng))
            with CaptureQueriesContext(connection) as captured:
                backend.start()
                started_cpu, started = time.process_time(), time.perf_counter()
                if args.profile:
                    profiler.enable()
                in_db_thread(services.game_move, (), dict(table_id=table.pk, by=users[seat], move=move,
                                                          expected_version=row.version, client_id=f"m{len(cpu)}"))
                profiler.disable()
                cpu.append(time.process_time() - started_cpu)
                wall.append(time.perf_counter() - started)
                backend.stop()
            queries.append(len(captured.captured_queries))
    fan_started = time.process_time()
    for _ in range(200):
        table_envelope(tables[-1])  # read back and encoded: the move itself builds it from memory
    fan_cpu = (time.process_time() - fan_started) / 200
    close_tables(tables)
    pooled = "pool" in settings.DATABASES["default"].get("OPTIONS", {})
    print(json.dumps({"connections": "pool" if pooled else "kept", "moves": len(cpu),
                      "cpu_ms_mean": 1000 * statistics.mean(cpu), "cpu_ms_median": 1000 * statistics.median(cpu),
                      "wall_ms_median": 1000 * statistics.median(wall), "wall_ms_mean": 1000 * statistics.mean(wall),
                      "queries": statistics.mean(queries), "pg_backend_cpu_ms": backend.per_call_ms()}))
    print(f"{len(cpu)} moves: queries per move {statistics.mean(queries):.1f}; "
          f"CPU per move {1000 * statistics.mean(cpu):.2f} ms (median {1000 * statistics.median(cpu):.2f}); "
          f"wall per move {1000 * statistics.median(wall):.2f} ms median; "
          f"PostgreSQL's backend CPU per move {backend.per_call_ms():.2f} ms; "
          f"frames of 4 seats + 1 spectator read back and encoded {1000 * fan_cpu:.2f} ms CPU")
    if args.profile:
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.profile)


class Backend:
    """CPU time of this connection's PostgreSQL backend process (same machine: /proc) over the moves, in
    clock ticks; nothing on another database or machine."""

    def __init__(self, connection: Any) -> None:
        self.pid: int | None = None
        self.total = 0
        self.calls = 0
        self.connection = connection
        self.tick = os.sysconf("SC_CLK_TCK")

    def _ticks(self) -> int | None:
        if self.connection.vendor != "postgresql":
            return None
        if self.pid is None or self.connection.connection is None:
            with self.connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return int(fields[11]) + int(fields[12])  # utime + stime

    def start(self) -> None:
        self._at = self._ticks()

    def stop(self) -> None:
        now = self._ticks()
        if now is not None and self._at is not None:
            self.total += now - self._at
            self.calls += 1

    def per_call_ms(self) -> float:
        return 1000 * self.total / self.tick / self.calls if self.calls else float("nan")


def compare(args: argparse.Namespace) -> None:
    """Kept connections and the pool, alternated, each in a process of its own (settings are read once)."""
    results: dict[str, list[dict[str, float]]] = {"kept": [], "pool": []}
    load = [os.getloadavg()]
    for _ in range(args.rounds):
        for mode in ("kept", "pool"):
            done = subprocess.run(
                [sys.executable, __file__, "--connections", mode, "--moves", str(args.moves), "--redis-db",
                 str(args.redis_db), "--db", args.db], capture_output=True, text=True, check=True,
            )
            results[mode].append(json.loads(done.stdout.splitlines()[0]))
            load.append(os.getloadavg())
    print(f"{args.moves} moves x {args.rounds} rounds each; load average (1 min) {min(sample[0] for sample in load):.2f}-"
          f"{max(sample[0] for sample in load):.2f} during the run")
    for mode, runs in results.items():
        print(f"  {mode:>4}: CPU per move {statistics.mean(r['cpu_ms_mean'] for r in runs):.2f} ms mean "
              f"(median {statistics.mean(r['cpu_ms_median'] for r in runs):.2f}), wall per move "
              f"{statistics.mean(r['wall_ms_median'] for r in runs):.2f} ms median "
              f"({statistics.mean(r['wall_ms_mean'] for r in runs):.2f} mean), "
              f"{statistics.mean(r['queries'] for r in runs):.1f} queries; rounds: "
              + ", ".join(f"{r['wall_ms_median']:.2f}" for r in runs))


if __name__ == "__main__":
    main()
