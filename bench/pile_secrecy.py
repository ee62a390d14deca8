"""The draw pile's order never leaves the server, over 10,000 whole games of each game (SPEC 5; issue 9).

    .venv/bin/python bench/pile_secrecy.py [--games 10000] [--processes 2] [--game tile-rummy-rearrange]

Each game (2, 3 and 4 seats in turn; both games unless --game says one) is played by the Easy bot
through the engine;
after every move what the site publishes (snapshot.envelope) and every viewer's state frame
(snapshot.frame_in) are checked as tests/security/pile.py describes. Prints the games, states and
frames checked and every problem found (the goal: none).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    import django

    django.setup()


def play(job: tuple[str, list[int]]) -> tuple[int, int, int, int, list[str]]:
    _setup()
    from tests.security.pile import Tally, play_and_check

    game_slug, seeds = job
    tally = Tally()
    for seed in seeds:
        play_and_check(seed, 2 + seed % 3, tally, game_slug=game_slug)
    tally.problems = [f"{game_slug} {problem}" for problem in tally.problems]
    return tally.games, tally.states, tally.frames, tally.bytes, tally.problems


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--game", choices=["tile-rummy", "tile-rummy-rearrange"], action="append",
                        help="only this game (repeatable); default both")
    args = parser.parse_args()
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    slugs = args.game or ["tile-rummy", "tile-rummy-rearrange"]
    chunks = [(slug, seeds[at : at + 100]) for slug in slugs for at in range(0, len(seeds), 100)]
    started = time.monotonic()
    games = states = frames = size = 0
    problems: list[str] = []
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        for done in pool.imap_unordered(play, chunks):
            games, states, frames, size = games + done[0], states + done[1], frames + done[2], size + done[3]
            problems += done[4]
            if games % 1000 == 0:
                print(f"  {games} games, {frames} frames, {len(problems)} problems ({time.monotonic() - started:.0f} s)",
                      flush=True)
    print(f"{games} games ({', '.join(slugs)}: seeds {seeds[0]}-{seeds[-1]} each; 2, 3 and 4 seats), {states} states, {frames} frames "
          f"({size / 2**20:.0f} MiB of JSON) checked in {time.monotonic() - started:.0f} s: "
          f"{len(problems)} problems")
    for problem in problems[:20]:
        print("  ", problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
