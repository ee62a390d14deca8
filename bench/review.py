"""Benchmark: the post-game review and the hints (issue 17, SPEC 13).

    .venv/bin/python bench/review.py [--games 200] [--seats 4] [--seed 0] [--hints 2000] [--levels hard,easy] [--game SLUG]

For each game, `--games` bot games (seats alternately Hard and Easy by default, seeded) are played first and kept as
records; then each record is reviewed whole (`apps.engine.review.review`) and timed, CPU time of the process
(one core: the review is single-threaded) and wall clock. Then up to `--hints` positions of those games are
hinted (`apps.engine.review.hint`), each from the view of the seat to move: the Rearrange game at the start
of every turn; the house game after every draw and, when the last discard could be taken, before it.

Goals: a whole game reviewed in under 2 s at p99 on one core; a hint under 300 ms at p99. Printed per game:
min / median / p95 / p99 / max, and the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.bots import get_bot  # noqa: E402
from apps.engine.game import JSON, get_rules  # noqa: E402
from apps.engine.records import GameRecord, start_record  # noqa: E402
from apps.engine.review import hint, review  # noqa: E402
from apps.engine.review.turns import turns_of  # noqa: E402

GAMES = ("tile-rummy", "tile-rummy-rearrange")
GOAL_REVIEW_S = 2.0
GOAL_HINT_MS = 300.0


def percentiles(values: Sequence[float]) -> str:
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    return f"min {ordered[0]:8.2f}  median {at(0.5):8.2f}  p95 {at(0.95):8.2f}  p99 {at(0.99):8.2f}  max {ordered[-1]:8.2f}"


def p99(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def bot_game(slug: str, seats: int, seed: int, levels: Sequence[str] = ("hard", "easy")) -> GameRecord:
    rules = get_rules(slug)
    rng = random.Random(seed)
    state = rules.new_game(seats, rng)
    record = start_record(slug, state)
    bots = [get_bot(slug, levels[seat % len(levels)]) for seat in range(seats)]
    moves = 0
    while not rules.is_over(state):
        seat = rules.to_move(state)
        move = bots[seat].next_move(rules.view_for(state, seat), rng)
        state = rules.apply(state, seat, move)
        moves += 1
        record = record.add(seat, move, moves)
    result = rules.result(state)
    assert result is not None
    return record.finish(result)


def hint_views(record: GameRecord) -> list[JSON]:
    """The positions a player could ask a hint from: where the turn's decision is made."""
    views = []
    for turn in turns_of(record):
        if turn.left:
            continue
        for view in turn.views:
            if view.get("phase") == "draw" and "take" not in view["actions"]:
                continue  # the house game before the draw, with nothing to take: the only move is to draw
            views.append(view)
            if view.get("phase") != "draw":
                break  # one position per turn once the hand is known
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hints", type=int, default=2000, help="hint positions per game kind, at most")
    parser.add_argument("--levels", default="hard,easy", help="the bots' levels, seat after seat, repeated")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    levels = args.levels.split(",")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for slug in args.game or GAMES:
        started = time.perf_counter()
        records = [bot_game(slug, args.seats, args.seed + number, levels) for number in range(args.games)]
        turns = [len(list(turns_of(record))) for record in records]
        print(f"\n{slug}: {args.games} games of {args.seats} seats played by bots ({args.levels}) in {time.perf_counter() - started:.0f} s; "
              f"turns per game: median {sorted(turns)[len(turns) // 2]}, max {max(turns)}")
        cpu: list[float] = []
        wall: list[float] = []
        missed = 0
        for record in records:
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            reviewed = review(record)
            cpu.append(time.process_time() - cpu_start)
            wall.append(time.perf_counter() - wall_start)
            missed += sum(turn.missed for turn in reviewed.turns)
        print(f"  review of a whole game, s, CPU : {percentiles(cpu)}")
        print(f"  review of a whole game, s, wall: {percentiles(wall)}")
        print(f"  turns that could have placed more: {missed} of {sum(turns)}")
        print(f"  goal: p99 under {GOAL_REVIEW_S} s on one core: {'met' if p99(cpu) < GOAL_REVIEW_S else 'NOT met'}")
        views = [view for record in records for view in hint_views(record)]
        random.Random(args.seed).shuffle(views)
        views = views[: args.hints]
        hint_cpu: list[float] = []
        hint_wall: list[float] = []
        for view in views:
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            hint(view)
            hint_cpu.append(1000 * (time.process_time() - cpu_start))
            hint_wall.append(1000 * (time.perf_counter() - wall_start))
        print(f"  hint, {len(views)} positions, ms, CPU : {percentiles(hint_cpu)}")
        print(f"  hint, {len(views)} positions, ms, wall: {percentiles(hint_wall)}")
        print(f"  goal: p99 under {GOAL_HINT_MS:.0f} ms: {'met' if p99(hint_wall) < GOAL_HINT_MS else 'NOT met'}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
