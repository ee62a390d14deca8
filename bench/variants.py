"""Benchmark (issue 18): a Hard bot's variants against the shipped one, game by game on the same deals.

    .venv/bin/python bench/variants.py --game house --seed 2 --variant '{"take_factor": 2}'
    .venv/bin/python bench/variants.py --game rearrange --seed 1 --games 400 --jobs 2 \\
        --variant '{"holds": 0}' --variant '{"planned_margin": 0.1}'
    .venv/bin/python bench/variants.py --game house --seats 4 --seed 1      # 1 Hard against 3 Easy

Every variant is the shipped Hard bot with some of its weights replaced (`HardWeights` of the house game,
`RearrangeWeights` of Rearrange; a JSON object of field names and values). Each plays the games of
`bench/bots.py` (deal d shuffled by `Random(f"{seed}:{d}")`, every rotation, the bots' randomness seeded
as the simulator seeds it) against Easy (house) or Greedy (Rearrange; `--against easy` for Easy), after
the shipped bot has played them, so that the shipped row is `bench/bots.py`'s figure and each variant
compares game by game: "changed" counts the games whose result differs, "net" the wins gained (a shared
first place is a fraction of a win), "for / against" the changed games that went each way. One standard
error of a 1,000-game rate is about 1.4-1.6 points; a variant that changes few games says more by its net
than by its rate.

`--jobs N` plays the deals in N processes (the figures are the same; CPU per move is each process's own).
Printed per row: wins, rate, changed / net (for, against), Hard's CPU per move p50 / p99 / max, and the
load average (`os.getloadavg`) at the start and end of the run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.bots import Bot, get_bot  # noqa: E402
from apps.engine.bots.simulate import percentile, play_game, winners_share  # noqa: E402
from apps.engine.game import get_rules  # noqa: E402
from apps.engine.house.bots.hard import HardHouseBot, HardWeights  # noqa: E402
from apps.engine.rearrange.bots.hard import HardRearrangeBot, RearrangeWeights  # noqa: E402

GAMES = {"house": "tile-rummy", "rearrange": "tile-rummy-rearrange"}


def hard_bot(game: str, overrides: dict[str, Any]) -> Bot:
    """The shipped Hard bot of `game` with `overrides` for some of its weights (ValueError for a name that is
    not one of them)."""
    weights_class: Any = HardWeights if game == "house" else RearrangeWeights
    names = {field.name for field in dataclasses.fields(weights_class)}
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise ValueError(f"{weights_class.__name__} has no weight {', '.join(unknown)}: it has {', '.join(sorted(names))}")
    weights = dataclasses.replace(weights_class(), **overrides)
    return HardHouseBot(weights) if game == "house" else HardRearrangeBot(weights)


@dataclasses.dataclass(frozen=True)
class Job:
    game: str
    against: str
    seats: int
    seed: int
    deals: tuple[int, ...]
    overrides: tuple[tuple[str, Any], ...]


def play_deals(job: Job) -> tuple[list[float], list[float]]:
    """Hard's share of the win in every game of `job` (deal by deal, rotation by rotation), and its CPU
    seconds per move."""
    slug = GAMES[job.game]
    rules = get_rules(slug)
    hard = hard_bot(job.game, dict(job.overrides))
    other = get_bot(slug, job.against)
    entrants = [hard, *[other] * (job.seats - 1)]
    shares: list[float] = []
    cpu: dict[str, list[float]] = {}
    for deal in job.deals:
        for rotation in range(job.seats):
            at_seat = [entrants[(seat - rotation) % job.seats] for seat in range(job.seats)]
            state = rules.new_game(job.seats, random.Random(f"{job.seed}:{deal}"))
            played = play_game(rules, state, at_seat, random.Random(f"{job.seed}:{deal}:{rotation}"), move_cpu=cpu)
            shares.append(winners_share(played.result.scores)[rotation % job.seats])
    return shares, cpu.get("hard", [])


def run(game: str, against: str, seats: int, seed: int, games: int, overrides: dict[str, Any], jobs: int) -> tuple[list[float], list[float]]:
    """Every game's result for Hard with `overrides`, in deal order, and its CPU per move."""
    deals = -(-games // seats)
    chunks = [tuple(range(deals))[index::jobs] for index in range(jobs)]
    work = [Job(game, against, seats, seed, chunk, tuple(sorted(overrides.items()))) for chunk in chunks if chunk]
    if len(work) == 1:
        results = [play_deals(work[0])]
    else:
        with ProcessPoolExecutor(len(work)) as pool:
            results = list(pool.map(play_deals, work))
    by_deal: dict[int, list[float]] = {}
    cpu: list[float] = []
    for job, (shares, seconds) in zip(work, results, strict=True):
        for index, deal in enumerate(job.deals):
            by_deal[deal] = shares[index * seats : (index + 1) * seats]
        cpu += seconds
    return [share for deal in range(deals) for share in by_deal[deal]], cpu


def compare(shipped: Sequence[float], variant: Sequence[float]) -> tuple[int, float, int, int]:
    """Changed games, net wins, and how many of the changed went the variant's way and against it.

    >>> compare([1, 0, 0.5, 1], [1, 1, 0, 0.5])
    (3, 0.0, 1, 2)
    """
    pairs = [(ours, theirs) for ours, theirs in zip(shipped, variant, strict=True) if ours != theirs]
    gained = sum(1 for ours, theirs in pairs if theirs > ours)
    return len(pairs), sum(variant) - sum(shipped), gained, len(pairs) - gained


def row(name: str, shares: Sequence[float], cpu: Sequence[float], shipped: Sequence[float] | None) -> str:
    games = len(shares)
    text = f"{name}: Hard {sum(shares):g} of {games} ({sum(shares) / games:.2%})"
    if shipped is not None:
        changed, net, gained, lost = compare(shipped, shares)
        text += f", changed {changed} / net {net:+g} ({gained} for, {lost} against)"
    if cpu:
        text += (
            f"; Hard CPU per move p50 {percentile(cpu, 0.5) * 1000:.2f} ms, p99 {percentile(cpu, 0.99) * 1000:.1f} ms,"
            f" max {max(cpu) * 1000:.0f} ms"
        )
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--against", default=None, help="the other seats' bot (default: easy for house, greedy for rearrange)")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1, help="processes to play the deals in")
    parser.add_argument("--variant", action="append", default=[], help="weights to replace, JSON (repeatable)")
    parser.add_argument("--results", default=None, help="write every game's result to this JSON file")
    args = parser.parse_args(argv)
    against = args.against or ("easy" if args.game == "house" else "greedy")
    try:
        variants = [json.loads(text) for text in args.variant]
        for overrides in variants:
            hard_bot(args.game, overrides)  # a misspelt weight stops here, before any game
    except (ValueError, TypeError) as error:
        print(f"variants.py: {error}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    started = time.strftime("%H:%M:%S", time.gmtime())
    print(f"{args.game}, Hard against {args.seats - 1} {against}, seed {args.seed}, {args.games} games; {started} UTC, load {load:.2f}", flush=True)
    shipped, cpu = run(args.game, against, args.seats, args.seed, args.games, {}, args.jobs)
    print(row("shipped", shipped, cpu, None), flush=True)
    results: dict[str, list[float]] = {"shipped": shipped}
    for overrides in variants:
        shares, cpu = run(args.game, against, args.seats, args.seed, args.games, overrides, args.jobs)
        name = json.dumps(overrides)
        results[name] = shares
        print(row(name, shares, cpu, shipped), flush=True)
    print(f"ended {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f}")
    if args.results:
        Path(args.results).write_text(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
