"""What does voiding a rated match cost, by how much history follows it?

    .venv/bin/python bench/void.py                  # the embedded default (SQLite)
    DATABASE_URL=postgres://rummy:rummy@127.0.0.1:5432/rummy .venv/bin/python bench/void.py

Works in a throwaway test database (created and dropped like pytest's). Plays `--matches` two-player rated
matches among `--players` players drawn at random, applied in order by the rating service, then voids
a match near the end, one in the middle and the first one, and prints for each: how many later matches
were recomputed, the time and the number of queries. The void replays only the matches after the voided
one that share a player with it (transitively), so its cost follows that history, not the whole board.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment, teardown_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402


def fill(players: int, matches: int, seed: int) -> list[int]:
    from apps.accounts.models import User
    from apps.leaderboards.services import rating_apply_match
    from apps.tables.models import Match, MatchPlayer, Table

    rng = random.Random(seed)
    User.objects.bulk_create([User(username=f"player{n:05d}", password="!") for n in range(players)])
    users = list(User.objects.order_by("pk").values_list("pk", "username"))
    started = time.perf_counter()
    ids = []
    for _ in range(matches):
        table = Table.objects.create(game="tile-rummy", seat_count=2, rated=True, status=Table.Status.FINISHED)
        match = Match.objects.create(table=table, game="tile-rummy", state={}, rated=True, finished_at=timezone.now())
        for seat, (pk, name) in enumerate(rng.sample(users, 2)):
            MatchPlayer.objects.create(match=match, seat=seat, user_id=pk, name=name, place=seat + 1, points=0)
        rating_apply_match(match_id=match.pk)
        ids.append(match.pk)
    print(f"played and rated {matches:,} matches among {players:,} players in {time.perf_counter() - started:.1f} s "
          f"({connection.vendor})")
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--profile", action="store_true", help="print where the middle void spends its time")
    args = parser.parse_args()

    from apps.moderation.services import match_void

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        ids = fill(args.players, args.matches, args.seed)
        for label, match_id in (("near the end", ids[-10]), ("in the middle", ids[len(ids) // 2]), ("the first", ids[0])):
            connection.queries_log.clear()
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                if args.profile and label == "in the middle":
                    import cProfile
                    import pstats

                    profiler = cProfile.Profile()
                    voided = profiler.runcall(match_void, match_id=match_id, by=None, reason="bench")
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
                else:
                    voided = match_void(match_id=match_id, by=None, reason="bench")
                ms = 1000 * (time.perf_counter() - started)
            assert voided is not None
            print(f"void {label:<13}: {len(voided.recomputed):>5} later matches recomputed in {ms:8.1f} ms, "
                  f"{len(queries.captured_queries)} queries")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()
