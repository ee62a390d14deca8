"""What one move costs the server, in-process: database queries, CPU time and wall time of
`services.game_move` including its after-commit work (payload, broadcast to Redis, task enqueue), and
the publish (every viewer's frame encoded once), on the bench's PostgreSQL and Redis.

    .venv/bin/python bench/move_cost.py [--moves 400]

CPU time is this process's (time.process_time), so it is not inflated by other work on the machine
the way wall time is; both are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import setup_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions (cProfile)")
    args = parser.parse_args()
    setup_django(redis_db=args.redis_db)

    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.engine.bots import get_bot
    from apps.engine.game import get_rules
    from apps.tables import services
    from apps.tables.models import Table
    from apps.tables.snapshot import table_envelope
    from bench.load import close_tables, ensure_users

    settings.TABLE_ENQUEUE_TASKS = True  # count the enqueue too (nothing consumes Redis db --redis-db)
    rules = get_rules("tile-rummy")
    brain = get_bot("tile-rummy", "easy")
    rng = random.Random(7)
    users = ensure_users(4)
    tables = []
    cpu: list[float] = []
    wall: list[float] = []
    queries: list[int] = []
    profiler = cProfile.Profile()
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
                started_cpu, started = time.process_time(), time.perf_counter()
                if args.profile:
                    profiler.enable()
                services.game_move(table_id=table.pk, by=users[seat], move=move, expected_version=row.version,
                                   client_id=f"m{len(cpu)}")
                profiler.disable()
                cpu.append(time.process_time() - started_cpu)
                wall.append(time.perf_counter() - started)
            queries.append(len(captured.captured_queries))
    fan_started = time.process_time()
    for _ in range(200):
        table_envelope(tables[-1])  # read back and encoded: the move itself builds it from memory
    fan_cpu = (time.process_time() - fan_started) / 200
    close_tables(tables)
    print(f"{len(cpu)} moves: queries per move {statistics.mean(queries):.1f}; "
          f"CPU per move {1000 * statistics.mean(cpu):.2f} ms (median {1000 * statistics.median(cpu):.2f}); "
          f"wall per move {1000 * statistics.median(wall):.2f} ms median; "
          f"frames of 4 seats + 1 spectator read back and encoded {1000 * fan_cpu:.2f} ms CPU")
    if args.profile:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
