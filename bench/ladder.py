"""The bot ladder (issue 18): a mirror-paired round-robin of every bot level of each game through the
simulator, Elo on one scale per game, stored as data for the catalog's rules pages.

    .venv/bin/python bench/ladder.py [--games 200] [--seed 1] [--only tile-rummy-rearrange]

Each pair of levels plays `--games` two-player games (mirror-paired: every deal twice, seats swapped,
`python -m apps.engine simulate`). The Elo ratings are the maximum-likelihood Bradley-Terry fit of all
pairs' results (win shares, a shared first place counting half), on the Elo scale (400 points: ten to
one), Easy at 0. Writes `apps/catalog/bot_ladder.json`: regenerate it with this script, never by hand.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.catalog.ladder import LADDER_FILE, fit  # noqa: E402
from apps.engine.bots.simulate import simulate  # noqa: E402

LEVELS = {
    "tile-rummy": ("easy", "hard"),
    "tile-rummy-rearrange": ("easy", "greedy", "hard"),
}


def commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per pair of levels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", choices=sorted(LEVELS))
    parser.add_argument("--dry-run", action="store_true", help="print, do not write the data file")
    args = parser.parse_args()
    measured = commit()  # the code that plays (before the run: a commit made meanwhile is not it)
    try:
        data = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {"games": {}}
    for slug, levels in LEVELS.items():
        if args.only and slug not in args.only:
            continue
        results = []
        for a, b in combinations(levels, 2):
            summary = simulate(slug, (a, b), args.games, args.seed)
            share = summary["seats"][0]["wins"]
            results.append((a, b, share, summary["games"]))
            print(f"{slug:22} {a:>6} vs {b:<6} games={summary['games']} {a} wins {share / summary['games']:.1%}", flush=True)
        elo = fit(levels, results)
        print(f"{slug:22} Elo: " + ", ".join(f"{level} {value}" for level, value in elo.items()), flush=True)
        data["games"][slug] = {
            "elo": elo,
            "games_per_pair": args.games,
            "pairs": [{"a": a, "b": b, "games": games, "a_wins": share} for a, b, share, games in results],
        }
    data.update(
        {
            "note": "Written by bench/ladder.py; never edit by hand.",
            "seed": args.seed,
            "commit": measured,
            "generated": datetime.now(UTC).strftime("%Y-%m-%d"),
        }
    )
    if not args.dry_run:
        LADDER_FILE.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {LADDER_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
