"""How fast is a leaderboard page with 100,000 rated players?

    .venv/bin/python bench/leaderboard.py                  # the embedded default (SQLite)
    DATABASE_URL=postgres://rummy:rummy@127.0.0.1:5432/rummy .venv/bin/python bench/leaderboard.py

Works in a throwaway test database (created and dropped by Django's test machinery, like pytest does),
fills it with N players and their ratings, then renders pages of /leaderboards/tile-rummy/ through the
whole Django stack (URL routing, view, queries, template) and prints the median time and the number of
queries of the first, a middle and the last page, and a profile page.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment, teardown_test_environment  # noqa: E402

BATCH = 5000


def fill(players: int, seed: int) -> None:
    from apps.accounts.models import User
    from apps.leaderboards.models import Rating

    rng = random.Random(seed)
    started = time.perf_counter()
    for start in range(0, players, BATCH):
        names = [f"player{n:06d}" for n in range(start, min(start + BATCH, players))]
        # "!" is Django's unusable password: no hashing, these accounts never sign in.
        User.objects.bulk_create([User(username=name, password="!") for name in names])
        users = User.objects.filter(username__in=names).values_list("pk", flat=True)
        Rating.objects.bulk_create(
            [
                Rating(user_id=pk, game="tile-rummy", rating=round(rng.gauss(1000, 150)), matches=rng.randint(1, 300))
                for pk in users
            ]
        )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # What autovacuum does to a settled table: statistics, and the visibility map that lets
            # PostgreSQL skip to a deep page inside the index without visiting the table.
            cursor.execute("VACUUM ANALYZE")
    print(f"filled {players:,} players in {time.perf_counter() - started:.1f} s ({connection.vendor})")


def measure(client: Client, url: str, repeats: int, *, cold: bool = False) -> tuple[float, float, int]:
    """Median milliseconds for the whole response and for its SQL alone, and the number of queries.
    `cold`: the cache is emptied before each request (the player count is counted again)."""
    client.get(url)  # warm up: template compilation, connection
    times, sql_times = [], []
    queries = 0
    for _ in range(repeats):
        if cold:
            cache.clear()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
        queries = len(captured.captured_queries)
        sql_times.append(sum(float(query["time"]) for query in captured.captured_queries) * 1000)
    return statistics.median(times), statistics.median(sql_times), queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()

    from apps.leaderboards.views import PAGE_SIZE

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        fill(args.players, args.seed)
        client = Client()
        last = (args.players + PAGE_SIZE - 1) // PAGE_SIZE
        pages = {"first page": 1, "page 2": 2, "middle page": last // 2, "last page": last}
        for label, page in pages.items():
            for cold in (True, False):
                ms, sql_ms, queries = measure(client, f"/leaderboards/tile-rummy/?page={page}", args.repeats, cold=cold)
                state = "count cached" if not cold else "cold cache  "
                print(f"leaderboard {label:<12} (page {page:>5}), {state}: median {ms:6.1f} ms ({sql_ms:5.1f} ms SQL), {queries} queries")
        ms, sql_ms, queries = measure(client, "/u/player050000/", args.repeats)
        print(f"profile of a player in the middle:                  median {ms:6.1f} ms ({sql_ms:5.1f} ms SQL), {queries} queries")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()
