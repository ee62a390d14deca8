"""Benchmark: making puzzles from bot self-play, and judging answers (issue 46).

    .venv/bin/python bench/puzzles.py [--game tile-rummy-rearrange] [--games 20] [--seed 7] [--answers 1000]
    .venv/bin/python bench/puzzles.py --game tile-rummy-rearrange --games 1000 --puzzles 1000   # issue 46's figure

Generation, per game: self-play games (Hard bots, as `puzzles generate` plays them) are played first and
every seat's view kept (timed apart: that is the bots' time, not the puzzles'); then the views go through
`generate` with no limit on the count (timed: the finder's time, the exact search included). Printed:
games, fresh positions, puzzles, the share of positions that make one (after the one-puzzle-per-seat-per-
game rule, which skips a seat's later positions once it has one), puzzles per CPU minute of the finder and
of the whole (bots included), the kinds and themes, and the spread of the difficulty estimate.

Judging: `--answers` answers over the puzzles just made and the starter set, in turn the stored solution
(right), a play short of the target (Rearrange: the solution less a rack tile that ends a run of four or
more or a group of four, when there is one; house: the solution without its last lay or lay-off), and the
untouched position (refused: nothing placed / nothing laid). CPU time per `judge` call: p50, p99, max
(goal: p99 <= 50 ms). `--puzzles N` judges the three answers of N distinct puzzles instead (the run's
first N, then the starter set's), so the figure is "over N puzzles" whatever `--answers` says.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.puzzles import Puzzle, judge  # noqa: E402
from apps.engine.puzzles.generate import Tally, generate, self_play  # noqa: E402
from apps.engine.puzzles.record import read_puzzles  # noqa: E402

STARTER = ROOT / "apps" / "engine" / "puzzles" / "starter"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.4999) - 1))]


def make(game: str, games: int, seed: int) -> tuple[dict[str, object], list[Puzzle]]:
    started, cpu = time.perf_counter(), time.process_time()
    candidates = list(self_play(game, ["hard", "hard"], seed, games))
    play_cpu = time.process_time() - cpu
    tally = Tally()
    cpu = time.process_time()
    puzzles = list(generate(candidates, 10**9, tally, game))
    find_cpu = time.process_time() - cpu
    difficulty = sorted(puzzle.difficulty for puzzle in puzzles)
    themes: dict[str, int] = {}
    for puzzle in puzzles:
        for theme in puzzle.themes:
            themes[theme] = themes.get(theme, 0) + 1
    summary: dict[str, object] = {
        **tally.to_dict(),
        "self_play_cpu_s": round(play_cpu, 1),
        "finder_cpu_s": round(find_cpu, 1),
        "wall_s": round(time.perf_counter() - started, 1),
        "puzzles_per_finder_cpu_minute": round(60 * len(puzzles) / find_cpu, 1) if find_cpu else None,
        "puzzles_per_cpu_minute_with_self_play": round(60 * len(puzzles) / (find_cpu + play_cpu), 1),
        "themes": dict(sorted(themes.items(), key=lambda item: -item[1])),
        "difficulty": {
            "min": difficulty[0], "p25": percentile(difficulty, 0.25), "median": statistics.median(difficulty),
            "p75": percentile(difficulty, 0.75), "max": difficulty[-1],
        } if difficulty else None,
    }  # fmt: skip
    return summary, puzzles


def answers(puzzle: Puzzle) -> list[object]:
    """The stored solution, a play short of it, and the untouched position."""
    if puzzle.game == "tile-rummy":
        moves = list(puzzle.solution["moves"])
        lays = [index for index, move in enumerate(moves) if move.startswith(("lay", "add"))]
        short = moves[: lays[-1]] + moves[lays[-1] + 1 :] if lays else moves
        return [moves, short, []]
    table = [meld.split() for meld in puzzle.solution["table"]]
    placed = puzzle.solution["placed"].split()
    short_table = table
    for index, meld in enumerate(table):
        if len(meld) >= 4 and meld[-1] in placed:
            short_table = [*table[:index], meld[:-1], *table[index + 1 :]]
            break
    return [table, short_table, list(puzzle.position["table"])]


def judge_times(puzzles: list[Puzzle], count: int | None) -> dict[str, object]:
    """`count` judge calls over the puzzles' answers in turn; None: each answer of each puzzle once."""
    cases = [(puzzle, answer) for puzzle in puzzles for answer in answers(puzzle)]
    if count is None:
        count = len(cases)
    times: list[float] = []
    right = 0
    clock = time.process_time_ns
    for number in range(count):
        puzzle, answer = cases[number % len(cases)]
        started = clock()
        verdict = judge(puzzle, answer)
        times.append((clock() - started) / 1e6)
        right += verdict.right
    return {
        "answers": count,
        "puzzles": len(puzzles),
        "right": right,
        "p50_ms": round(percentile(times, 0.50), 3),
        "p99_ms": round(percentile(times, 0.99), 3),
        "max_ms": round(max(times), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", choices=["tile-rummy-rearrange", "tile-rummy"])
    parser.add_argument("--games", type=int, default=20, help="self-play games per game")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--answers", type=int, default=1000, help="judge calls per game")
    parser.add_argument("--puzzles", type=int, help="judge the three answers of this many distinct puzzles instead")
    args = parser.parse_args()
    for game in args.game or ["tile-rummy-rearrange", "tile-rummy"]:
        summary, made = make(game, args.games, args.seed)
        starter = list(read_puzzles((STARTER / f"{game}.jsonl").read_text(encoding="utf-8").splitlines()))
        pool = made + starter
        judged = judge_times(pool[: args.puzzles], None) if args.puzzles else judge_times(pool, args.answers)
        print(
            json.dumps({"game": game, "games": args.games, "seed": args.seed, "generation": summary, "judge": judged})
        )


if __name__ == "__main__":
    main()
