"""Benchmark: the trainer's answer, end to end inside Django (issue 46: "a verdict within well under
100 ms"): POST /puzzles/<id>/answer/ through the whole middleware stack, the session, the view, the
engine's judge and the rating transaction (the player's row locked, the attempt inserted, both ratings
saved), as Django's test client sends it (no socket, no daphne: those add the same as any page).

    DATABASE_URL=postgres://rummy:rummy@127.0.0.1:5432/rummy_h2_bench .venv/bin/python bench/puzzle_answers.py [--answers 1000]
    .venv/bin/python bench/puzzle_answers.py        # a fresh SQLite file

The database is migrated first (the starter set loads with it). Each answer is a signed-in player's first
to that Rearrange puzzle (so every one is rated: the slowest path), in turn the stored solution (right) and
the untouched table plus one rack tile (illegal), across as many players as it takes. Printed: wall and
CPU milliseconds per answer, p50 / p99 / max.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.4999) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--answers", type=int, default=1000)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    os.environ.setdefault("GUESTS_PER_ADDRESS_PER_HOUR", "100000")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from apps.accounts.models import User
    from apps.puzzles.models import Attempt, Puzzle, PuzzleRating

    call_command("migrate", "--noinput", verbosity=0)
    Attempt.objects.all().delete()
    PuzzleRating.objects.all().delete()
    User.objects.filter(username__startswith="bench-").delete()
    puzzles = list(Puzzle.objects.filter(game="tile-rummy-rearrange").order_by("id"))
    wall: list[float] = []
    cpu: list[float] = []
    right = 0
    client: Client | None = None
    for number in range(args.answers):
        if number % len(puzzles) == 0:
            user = User.objects.create_user(username=f"bench-{number // len(puzzles)}", password="x")
            client = Client()
            client.force_login(user)
        assert client is not None
        puzzle = puzzles[number % len(puzzles)]
        if number % 2 == 0:
            play = " | ".join(puzzle.solution["table"])
        else:
            play = " | ".join([*puzzle.position["table"], puzzle.position["rack"].split()[0]])
        body = json.dumps({"play": play})
        url = reverse("puzzles:answer", args=[puzzle.pk])
        started_wall, started_cpu = time.perf_counter(), time.process_time()
        response = client.post(url, body, content_type="application/json")
        wall.append((time.perf_counter() - started_wall) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200, response.content
        data = response.json()
        assert data["rated"], data
        right += data["right"]
    print(json.dumps({
        "database": connection.vendor,
        "answers": args.answers,
        "puzzles": len(puzzles),
        "right": right,
        "wall_ms": {"p50": round(percentile(wall, 0.5), 2), "p99": round(percentile(wall, 0.99), 2), "max": round(max(wall), 2)},
        "cpu_ms": {"p50": round(percentile(cpu, 0.5), 2), "p99": round(percentile(cpu, 0.99), 2), "max": round(max(cpu), 2)},
    }))  # fmt: skip


if __name__ == "__main__":
    main()
