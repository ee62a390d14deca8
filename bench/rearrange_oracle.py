"""Benchmark (issue 18): what would knowing the hidden tiles be worth to the Rearrange Hard bot's search?

    .venv/bin/python bench/rearrange_oracle.py [--seed 1] [--deals 60] [--know all|racks] [--weights JSON]

A diagnostic, never a bot anyone plays: an "oracle" Hard bot whose play-outs are given the real hidden
tiles instead of samples from its view (`HardRearrangeBot.deals`), against the Greedy bot, on the deals of
`bench/bots.py` (deal d shuffled by `Random(f"{seed}:{d}")`, both seatings, the bots' randomness seeded as
the simulator seeds it). The shipped Hard bot plays the same games first, so the two are compared game by
game (common deals: "changed" counts the games whose result differs, "net" the wins gained).

- `--know all`: the other rack and the pool in drawing order (so its own future draws too);
- `--know racks`: the other rack only; the pool's order is sampled (a fresh shuffle per sample);
- `--know none`: nothing: the bot's own samples from its view, so the same search without the oracle (the
  control that tells what the search itself is worth from what knowing is worth).

The default weights let it search every turn (not choose by the learned value), one deal (or three with `racks` and
`none`), played out to the game's end: `{"value": false, "search_always": true, "samples": 1, "endgame_samples": 1,
"rounds": 30, "endgame_rounds": 30}`.
Printed: both win rates, the changed games, and the oracle's CPU per move (p50 / p99). Slow: seconds of
CPU per game.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.bots import Bot, get_bot  # noqa: E402
from apps.engine.bots.simulate import percentile, winners_share  # noqa: E402
from apps.engine.game import get_rules  # noqa: E402
from apps.engine.rearrange.bots.hard import HardRearrangeBot, RearrangeWeights  # noqa: E402
from apps.engine.rearrange.bots.search import Hidden  # noqa: E402
from apps.engine.rearrange.bots.view import RearrangeSeatView  # noqa: E402
from apps.engine.rearrange.state import RearrangeState  # noqa: E402
from apps.engine.tiles import tile_of  # noqa: E402

SLUG = "tile-rummy-rearrange"
SEARCH_EVERY_TURN = {"value": False, "search_always": True, "samples": 1, "endgame_samples": 1, "rounds": 30, "endgame_rounds": 30}


class OracleHardBot(HardRearrangeBot):
    """The Hard bot with the real hidden tiles in its play-outs (`truth`, set before every move; with `none`
    its own samples, as the shipped bot)."""

    def __init__(self, weights: RearrangeWeights, know: str) -> None:
        super().__init__(weights)
        self.know = know
        self.truth: Hidden | None = None

    def deals(self, seat: RearrangeSeatView, count: int, rng: random.Random) -> list[Hidden]:
        if self.know == "none":
            return super().deals(seat, count, rng)
        assert self.truth is not None
        if self.know == "all":
            return [self.truth]
        samples = []
        for _ in range(count):
            pool = list(self.truth.pool)
            rng.shuffle(pool)
            samples.append(Hidden(self.truth.racks, tuple(pool)))
        return samples


def truth_of(state: RearrangeState) -> Hidden:
    return Hidden(tuple(tuple(tile_of(tile) for tile in rack) for rack in state.racks), tuple(tile_of(tile) for tile in state.pool))


def play(
    hard: Bot,
    seed: int,
    deal: int,
    rotation: int,
    cpu: list[float] | None = None,
    before: Callable[[RearrangeState], None] | None = None,
    points: list[int] | None = None,
) -> float:
    """One game of `hard` against Greedy (Hard in seat `rotation`): Hard's share of the win. `before`, if
    given, sees the state before each of Hard's moves (bench/rearrange_policy.py labels decisions there);
    Hard's score of the game is appended to `points` if given."""
    rules = get_rules(SLUG)
    greedy = get_bot(SLUG, "greedy")
    bots = [hard, greedy] if rotation == 0 else [greedy, hard]
    state = rules.new_game(2, random.Random(f"{seed}:{deal}"))
    rng = random.Random(f"{seed}:{deal}:{rotation}")
    while (seat := rules.to_move(state)) is not None:
        bot = bots[seat]
        if isinstance(bot, OracleHardBot):
            bot.truth = truth_of(state)
        if bot is hard and before is not None:
            before(state)
        started = time.process_time()
        move = bot.next_move(rules.view_for(state, seat), rng)
        if bot is hard and cpu is not None:
            cpu.append(time.process_time() - started)
        state = rules.apply(state, seat, move)
    result = rules.result(state)
    assert result is not None
    if points is not None:
        points.append(result.scores[rotation])
    return winners_share(result.scores)[rotation]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=60, help="deals (two games each)")
    parser.add_argument("--start", type=int, default=0, help="the first deal")
    parser.add_argument("--know", choices=("all", "racks", "none"), default="all")
    parser.add_argument("--weights", default=None, help="RearrangeWeights overrides, JSON (default: search every turn, to the end)")
    parser.add_argument("--results", default=None, help="write each game's result (both bots) to this JSON file")
    args = parser.parse_args(argv)
    overrides = SEARCH_EVERY_TURN if args.weights is None else json.loads(args.weights)
    if args.know != "all" and args.weights is None:
        overrides = {**overrides, "samples": 3, "endgame_samples": 3}
    oracle = OracleHardBot(dataclasses.replace(RearrangeWeights(), **overrides), args.know)
    shipped = HardRearrangeBot()
    shipped_wins: list[float] = []
    oracle_wins: list[float] = []
    cpu: list[float] = []
    for deal in range(args.start, args.start + args.deals):
        for rotation in (0, 1):
            shipped_wins.append(play(shipped, args.seed, deal, rotation))
            oracle_wins.append(play(oracle, args.seed, deal, rotation, cpu))
        print(f"deal {deal}: shipped {sum(shipped_wins) / len(shipped_wins):.3f}, oracle {sum(oracle_wins) / len(oracle_wins):.3f}", flush=True)
    games = len(oracle_wins)
    changed = sum(1 for ours, theirs in zip(shipped_wins, oracle_wins, strict=True) if ours != theirs)
    net = sum(oracle_wins) - sum(shipped_wins)
    print(
        f"seed {args.seed}, deals {args.start}-{args.start + args.deals - 1} ({games} games), know {args.know}, weights {json.dumps(overrides)}\n"
        f"shipped Hard {sum(shipped_wins) / games:.2%}, oracle Hard {sum(oracle_wins) / games:.2%}; changed {changed}, net {net:+.1f}\n"
        f"oracle CPU per move: p50 {percentile(cpu, 0.5) * 1000:.1f} ms, p99 {percentile(cpu, 0.99) * 1000:.1f} ms"
    )
    if args.results:
        Path(args.results).write_text(json.dumps({"shipped": shipped_wins, "oracle": oracle_wins}))


if __name__ == "__main__":
    main()
