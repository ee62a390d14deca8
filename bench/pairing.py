"""Quick pairing's grouping, simulated (issue 43, SPEC 15): arrivals into one pool, pairing waves, and what
players would live through; then the CPU of one wave with many waiting.

    .venv/bin/python bench/pairing.py [--seats 2 3 4] [--rates 1 2 4 8 20 60] [--minutes 120] [--seed 1]
    .venv/bin/python bench/pairing.py --service [--db rummy_bench] [--redis-db 5] [--waiting 1000 10000]

`--service`: one wave of the real service (apps/pairing/services.py) on PostgreSQL, with 1,000 and 10,000
players waiting in one pool: the CPU (this process's) and the SQL statements of choosing the tables
(reading the pool's rows with SKIP LOCKED, the forbidden pairs, the grouping, the waves missed), and of
the whole wave with every table opened and its match started (`table_open_started`).

Players arrive as a Poisson process (the rate per minute of one pool), with ratings drawn like a real
leaderboard (normal around 1000, standard deviation 200), 10% frequent leavers and 20% provisional. A
wave runs every WAVE_SECONDS through the real grouping code (apps/lib/grouping.py); whoever it seats
leaves the pool, the rest have missed one more wave. Nobody cancels, so a long wait shows as a long wait.
Printed per seat count and rate: median and p95 wait, the share seated within 10 s and 30 s, and the
median rating spread of the tables formed (overall, and of the waves with 20 or more waiting).

The goals (issue 43): at 8 arrivals a minute, median wait <= 10 s and p95 <= 30 s; with 20 or more
waiting, a 2-seat table's median spread <= 100; a wave of 1,000 waiting <= 50 ms of CPU.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apps.lib.grouping import Waiting, form_tables  # noqa: E402

WAVE_SECONDS = 3.0


def draw_player(draw: random.Random, player_id: int) -> Waiting:
    return Waiting(player_id, round(draw.gauss(1000, 200)), provisional=draw.random() < 0.2, leaver=draw.random() < 0.1)


def simulate(seats: int, per_minute: float, minutes: float, seed: int) -> dict[str, float]:
    draw = random.Random(seed)
    arrivals: list[float] = []
    clock = 0.0
    while True:
        clock += draw.expovariate(per_minute / 60.0)
        if clock > minutes * 60:
            break
        arrivals.append(clock)
    waiting: dict[int, tuple[Waiting, float]] = {}
    waits: list[float] = []
    spreads: list[float] = []
    busy_spreads: list[float] = []
    next_arrival = 0
    wave_at = WAVE_SECONDS
    while wave_at <= minutes * 60:
        while next_arrival < len(arrivals) and arrivals[next_arrival] <= wave_at:
            player = draw_player(draw, next_arrival)
            waiting[player.id] = (player, arrivals[next_arrival])
            next_arrival += 1
        pool = [player for player, _ in waiting.values()]
        grouping = form_tables(pool, seats=seats)
        for table in grouping.tables:
            spread = max(p.rating for p in table) - min(p.rating for p in table)
            spreads.append(spread)
            if len(pool) >= 20:
                busy_spreads.append(spread)
            for player in table:
                waits.append(wave_at - waiting.pop(player.id)[1])
        for player in grouping.left:
            waiting[player.id] = (Waiting(player.id, player.rating, player.waves + 1, player.provisional,
                                          player.leaver), waiting[player.id][1])
        wave_at += WAVE_SECONDS
    # Whoever is still waiting at the end has waited at least this long: count them, or the tail hides.
    waits.extend(minutes * 60 - arrived for _, arrived in waiting.values())
    waits.sort()
    return {
        "players": len(arrivals),
        "median_wait": statistics.median(waits) if waits else 0.0,
        "p95_wait": waits[int(0.95 * (len(waits) - 1))] if waits else 0.0,
        "within_10s": sum(w <= 10 for w in waits) / len(waits) if waits else 0.0,
        "within_30s": sum(w <= 30 for w in waits) / len(waits) if waits else 0.0,
        "median_spread": statistics.median(spreads) if spreads else 0.0,
        "busy_median_spread": statistics.median(busy_spreads) if busy_spreads else float("nan"),
    }


def wave_cpu(seats: int, count: int, seed: int, repeats: int = 3) -> float:
    draw = random.Random(seed)
    pool = [Waiting(i, round(draw.gauss(1000, 200)), draw.randrange(6), draw.random() < 0.2, draw.random() < 0.1)
            for i in range(count)]
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        form_tables(pool, seats=seats)
        best = min(best, time.process_time() - started)
    return best * 1000


def service_waves(db: str, redis_db: int, counts: list[int], seed: int) -> None:
    """One wave of the real service per count of waiting players, on the bench's PostgreSQL (see the
    module's docstring); prints a table of figures with the machine's load."""
    import os

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.stack import setup_django

    setup_django(db=db, redis_db=redis_db, TABLE_SEATS_PER_USER="10000", RATED_REPEAT_LIMIT="3")
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from apps.accounts.models import User
    from apps.pairing import services
    from apps.pairing.models import PoolEntry
    from apps.pairing.pools import Pool
    from apps.social.models import Block

    call_command("migrate", "--noinput", verbosity=0)
    pool = Pool("tile-rummy", 2, 60, False)

    class Counter:
        def __init__(self) -> None:
            self.statements = 0

        def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
            self.statements += 1
            return execute(sql, params, many, context)

    def fill(count: int) -> None:
        draw = random.Random(seed)
        PoolEntry.objects.all().delete()
        tag = f"{os.getpid()}-{count}"  # fresh accounts each run (seated ones stay: a seat protects its user)
        users = User.objects.bulk_create(
            User(username=f"pairbench-{tag}-{i}", password="!", is_guest=False) for i in range(count)
        )
        now = timezone.now()
        PoolEntry.objects.bulk_create(
            PoolEntry(user=user, game=pool.game, seats=pool.seats, pace=pool.pace, rated=pool.rated,
                      rating=round(draw.gauss(1000, 200)), provisional=draw.random() < 0.2,
                      leaver=draw.random() < 0.1, waves=draw.randrange(6), joined_at=now, since=now, seen_at=now)
            for user in users
        )
        # One player in a hundred blocked another (the wave reads them: never at one table).
        Block.objects.bulk_create(
            Block(blocker=users[i], blocked=users[draw.randrange(count)]) for i in range(0, count, 100)
        )

    def measure(choose_only: bool) -> tuple[float, int, int]:
        counter = Counter()
        opened = services._open
        if choose_only:
            services._open = lambda *args, **kwargs: None  # type: ignore[assignment]  # the tables are not opened
        try:
            started = time.process_time()
            with connection.execute_wrapper(counter):
                tables = services.pool_pair(pool, now=timezone.now())
            return (time.process_time() - started) * 1000, counter.statements, len(tables)
        finally:
            services._open = opened  # type: ignore[method-assign]

    load = os.getloadavg()
    print(f"load average (1, 5, 15 min) before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} CPUs")
    print("| waiting | what | CPU | statements | tables |")
    print("|---|---|---|---|---|")
    for count in counts:
        fill(count)
        best = min((measure(True) for _ in range(3)), key=lambda r: r[0])
        print(f"| {count:,} | choosing the tables (best of 3) | {best[0]:.0f} ms | {best[1]} | - |")
        cpu, statements, tables = measure(False)
        print(f"| {count:,} | the whole wave, tables opened | {cpu:.0f} ms | {statements:,} | {tables:,} |")
        with transaction.atomic():
            PoolEntry.objects.all().delete()
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--rates", type=float, nargs="+", default=[1, 2, 4, 8, 20, 60, 200])
    parser.add_argument("--minutes", type=float, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--service", action="store_true", help="one wave of the real service on PostgreSQL")
    parser.add_argument("--db", default="rummy_bench")
    parser.add_argument("--redis-db", type=int, default=5)
    parser.add_argument("--waiting", type=int, nargs="+", default=[1_000, 10_000])
    args = parser.parse_args()
    if args.service:
        service_waves(args.db, args.redis_db, args.waiting, args.seed)
        return
    print(f"waves every {WAVE_SECONDS:g} s, {args.minutes:g} simulated minutes per row, seed {args.seed}")
    print("| seats | arrivals/min | players | median wait | p95 wait | seated <= 10 s | <= 30 s | median spread "
          "| with >= 20 waiting |")
    print("|---|---|---|---|---|---|---|---|---|")
    for seats in args.seats:
        for rate in args.rates:
            r = simulate(seats, rate, args.minutes, args.seed)
            print(f"| {seats} | {rate:g} | {r['players']:.0f} | {r['median_wait']:.1f} s | {r['p95_wait']:.1f} s "
                  f"| {r['within_10s']:.0%} | {r['within_30s']:.0%} | {r['median_spread']:.0f} "
                  f"| {r['busy_median_spread']:.0f} |")
    print()
    print("| seats | waiting | CPU of one wave (best of 3) |")
    print("|---|---|---|")
    for seats in args.seats:
        for count in (1_000, 10_000):
            print(f"| {seats} | {count:,} | {wave_cpu(seats, count, args.seed):.1f} ms |")


if __name__ == "__main__":
    main()
