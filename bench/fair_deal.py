"""What a provably fair deal costs against a seeded `random.Random` deal (CPU of this process).

    .venv/bin/python bench/fair_deal.py [--deals 2000]

Each fair deal computes its own HMAC-SHA256 stream (docs/fair-deals.md); a site deals once per game, so
this is a per-game cost, never a per-move one. CPU time (time.process_time), which other work on the
machine inflates far less than wall time. Record it in bench/README.md with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from apps.engine.fair import FairSeeds  # noqa: E402
from apps.engine.game import get_rules  # noqa: E402
from apps.engine.match import fair_deal  # noqa: E402


def per_deal(deal: object, count: int) -> float:
    started = time.process_time()
    for number in range(count):
        deal(number)  # type: ignore[operator]
    return (time.process_time() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.deals} deals of each kind, 4 seats")
    for slug in ("tile-rummy", "tile-rummy-rearrange"):
        rules = get_rules(slug)
        seeded = per_deal(lambda number, rules=rules: rules.new_game(4, random.Random(number)), args.deals)
        fair = per_deal(
            lambda number, slug=slug: fair_deal(slug, FairSeeds(number.to_bytes(32, "big"), (bytes(16),) * 4), 1),
            args.deals,
        )
        later = per_deal(
            lambda number, slug=slug: fair_deal(slug, FairSeeds(number.to_bytes(32, "big"), (bytes(16),) * 4), 3),
            args.deals,
        )
        print(f"{slug}: random.Random {seeded:.0f} µs, fair game 1 {fair:.0f} µs, fair game 3 {later:.0f} µs per deal")


if __name__ == "__main__":
    main()
