"""Benchmark (issue 18): how soon the house Hard bot opens, alone against the pile.

    .venv/bin/python bench/house_open_race.py --deals 1500
    .venv/bin/python bench/house_open_race.py --deals 1500 --variant '{"open_plans": false}' --variant '{"fits_closed": 0}'

Games are won by opening early (bench/README.md: on seed 2 Hard opened on turn 8.0 on average in the games it
won, 12.2 in those it lost), but a win rate measures that through the noise of whole games. This measures the
pre-opening discards alone: deal d shuffles the 106 tiles by `Random(f"race:{seed}:{d}")` (the last tile is
the indicator, the first 14 the rack, the next 14 another rack that never plays, the rest the pile in drawing
order); the seat draws, and the bot (the shipped Hard bot, then each variant: `HardWeights` replaced as in
`bench/variants.py`) either opens (the draws it took are the deal's figure) or discards, from its own view of
the position (its discards in the row). The same piles for every bot, so deals compare one by one: printed
per variant, the mean draws to open, the paired difference from the shipped bot with its standard error, how
many deals it opened sooner and later, and its CPU per decision.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.bots.simulate import percentile  # noqa: E402
from apps.engine.house import RULES  # noqa: E402
from apps.engine.house.bots.hard import HardHouseBot  # noqa: E402
from apps.engine.house.moves import Discard, Lay  # noqa: E402
from apps.engine.house.positions import position  # noqa: E402
from apps.engine.house.state import Phase  # noqa: E402
from apps.engine.tiles import Tile, format_tiles, full_set, tile_of  # noqa: E402
from bench.variants import hard_bot  # noqa: E402

#: A deal that has not opened after this many draws counts this many.
LIMIT = 40

def race(bot: HardHouseBot, seed: int, deal: int, cpu: list[float]) -> int:
    """The draws the bot takes to open on deal `deal` (LIMIT if it has not by then)."""
    tiles: list[Tile] = [tile_of(tile_id) for tile_id in full_set()]
    random.Random(f"race:{seed}:{deal}").shuffle(tiles)
    indicator = tiles.pop()
    rack, other, pile = tiles[:14], tiles[14:28], tiles[28:]
    discards: list[Tile] = []
    for draws in range(1, LIMIT + 1):
        rack.append(pile.pop(0))
        state = position(
            [format_tiles(rack), format_tiles(other)],
            indicator=str(indicator),
            discards=format_tiles(discards),
            pile=format_tiles(pile),
            phase=Phase.PLAY,
            turn_no=2 * draws,
        )
        started = time.process_time()
        move = bot.next_move(RULES.view_for(state, 0), random.Random(f"{seed}:{deal}:{draws}"))
        cpu.append(time.process_time() - started)
        if isinstance(move, Lay):
            return draws
        if not isinstance(move, Discard):
            raise AssertionError(f"deal {deal}: a bot that has not opened drew and then played {move!r}")
        rack.remove(move.tile)
        discards.append(move.tile)
    return LIMIT


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--variant", action="append", default=[], help="weights to replace, JSON (repeatable)")
    args = parser.parse_args(argv)
    bots: list[tuple[str, HardHouseBot]] = []
    for text in [None, *args.variant]:
        overrides = {} if text is None else json.loads(text)
        try:
            bot = hard_bot("house", overrides)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
        assert isinstance(bot, HardHouseBot)
        bots.append((json.dumps(overrides) if overrides else "shipped", bot))
    shipped: list[int] | None = None
    for name, bot in bots:
        cpu: list[float] = []
        draws = [race(bot, args.seed, deal, cpu) for deal in range(args.deals)]
        text = f"{name}: {statistics.fmean(draws):.3f} draws to open over {args.deals} deals (seed {args.seed})"
        if shipped is None:
            shipped = draws
        else:
            differences = [ours - theirs for ours, theirs in zip(draws, shipped, strict=True)]
            spread = statistics.stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else 0.0
            sooner = sum(1 for difference in differences if difference < 0)
            later = sum(1 for difference in differences if difference > 0)
            text += f", {statistics.fmean(differences):+.3f} +- {spread:.3f} against the shipped bot ({sooner} deals sooner, {later} later)"
        text += f"; CPU per decision p50 {percentile(cpu, 0.5) * 1000:.2f} ms, p99 {percentile(cpu, 0.99) * 1000:.1f} ms"
        print(text, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
