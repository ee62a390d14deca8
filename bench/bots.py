"""The bots' benchmark (issue 5): the goal experiments, run through the simulator, figures printed.

    .venv/bin/python bench/bots.py                 # every experiment at its goal size (long: tens of minutes)
    .venv/bin/python bench/bots.py --games 100     # every experiment, smaller
    .venv/bin/python bench/bots.py --only house-2p --seed 7

Each experiment is `python -m apps.engine simulate` with the same arguments (mirror-paired deals, seeded);
the figures go in bench/README.md. One process, so the throughput figure is one core's.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from apps.engine.bots.simulate import simulate  # noqa: E402


@dataclass(frozen=True)
class Experiment:
    name: str
    game: str
    bots: tuple[str, ...]
    games: int
    goal: str
    target: float | None  # the first seat's win rate to reach


EXPERIMENTS = (
    Experiment("rearrange-2p-easy", "tile-rummy-rearrange", ("hard", "easy"), 1000, "Hard wins >= 97% against Easy", 0.97),
    Experiment("rearrange-2p-greedy", "tile-rummy-rearrange", ("hard", "greedy"), 1000, "Hard wins >= 58% against Greedy", 0.58),
    Experiment("rearrange-greedy-easy", "tile-rummy-rearrange", ("greedy", "easy"), 200, "(reference: Greedy against Easy, about 98%)", None),
    Experiment("house-2p", "tile-rummy", ("hard", "easy"), 1000, "Hard wins >= 75% against Easy", 0.75),
    Experiment("house-4p", "tile-rummy", ("hard", "easy", "easy", "easy"), 1000, "one Hard wins >= 47% against three Easy", 0.47),
    Experiment("rearrange-4p", "tile-rummy-rearrange", ("hard", "easy", "easy", "easy"), 400, "one Hard wins >= 45% against three Easy", 0.45),
    Experiment("house-easy-4p", "tile-rummy", ("easy", "easy", "easy", "easy"), 400, ">= 20 full 4-player Easy games per second", None),
    Experiment("rearrange-easy-4p", "tile-rummy-rearrange", ("easy", "easy", "easy", "easy"), 200, "(4-player Easy games per second)", None),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=None, help="games per experiment (default: each one's goal size)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", choices=[experiment.name for experiment in EXPERIMENTS])
    args = parser.parse_args()
    chosen = [experiment for experiment in EXPERIMENTS if not args.only or experiment.name in args.only]
    moves: dict[str, list[float]] = {}
    for experiment in chosen:
        games = args.games or experiment.games
        summary = simulate(experiment.game, experiment.bots, games, args.seed)
        first = summary["seats"][0]
        rate = first["win_rate"]
        verdict = "" if experiment.target is None else ("  MET" if rate >= experiment.target else "  NOT MET")
        print(
            f"{experiment.name:22} {','.join(experiment.bots):24} games={summary['games']:5} seed={args.seed}  "
            f"{first['bot']} wins {rate:.1%}  turns/game={summary['mean_turns']}  "
            f"games/s={summary['games_per_second']}  goal: {experiment.goal}{verdict}"
        )
        for level, times in summary["move_cpu_ms"].items():
            print(f"    {level} CPU ms per move: p50 {times['p50']}  p99 {times['p99']}  max {times['max']}")
        print("   ", json.dumps(summary), flush=True)
        for level, times in summary["move_ms"].items():
            moves.setdefault(f"{experiment.game} {level}", []).append(times["p99"])
    print("move time p99 (ms), worst experiment per game and level:")
    for key, values in sorted(moves.items()):
        print(f"    {key:28} {max(values):8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
