"""How long a random legal four-player house game takes in the engine (CPU of this process).

    .venv/bin/python bench/house_speed.py [--games 200]

This figure was once a test's wall-clock bound, which failed on a busy machine (CONVENTIONS 22): it is
measured here instead, as CPU time (time.process_time), which other work on the machine inflates far
less than wall time. Record it in bench/README.md with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from apps.engine.house import RULES  # noqa: E402
from apps.engine.house.playout import random_game  # noqa: E402
from apps.engine.house.state import Phase  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    times = []
    for seed in range(args.games):
        started = time.process_time()
        final, _ = random_game(RULES.new_game(args.seats, random.Random(seed)), random.Random(seed))
        times.append(time.process_time() - started)
        assert final.phase is Phase.OVER
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"{args.games} random {args.seats}-player house games: CPU per game mean {1000 * statistics.mean(times):.1f} ms,"
          f" median {1000 * statistics.median(times):.1f} ms, p99 {1000 * p99:.1f} ms;"
          f" load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
