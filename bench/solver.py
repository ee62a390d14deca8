"""Benchmark: the engine's exact table solver against PyPI `rummikub-solver` (an integer-programming solver).

    .venv/bin/pip install -e '.[bench]'        # or: .venv/bin/pip install rummikub-solver
    .venv/bin/python bench/solver.py [--positions 1000] [--seed 0]

Both solvers get the same seeded random positions (`bench/positions.py`: tables of 20-80 tiles in legal
sets, racks of 5-20 tiles, jokers sometimes on either side) as a player who has opened. Per position the
two solvers run back to back, so machine load hits both alike. Printed:

- positions where the number of placed tiles differs (goal: 0 without a joker on the table), and which
  side placed more: every play of ours is first checked by the game's own rules
  (`apps.engine.rearrange.validate.check_play`), so when ours places more, theirs missed a legal play;
  with a joker on the table theirs may place more by moving the joker where the freed-joker rule forbids;
- min / median / p95 / p99 / max milliseconds for each solver, wall clock and CPU time of the process;
- the ratio of the medians and the median of the per-position ratios (goal: 10 or more);
- import plus first solve in a fresh interpreter (goal: under 0.2 s).

The garbage collector is off inside each timed solve and on between them, as `timeit` does (`--gc` keeps
it on): a full collection walks every object of the process, most of them `rummikub-solver`'s, and took
30-70 ms of whichever solve triggered it (2026-12-06: four of ours, none over 5 ms of its own work).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.engine.rearrange.solver import Solution, solve  # noqa: E402
from apps.engine.rearrange.validate import check_play  # noqa: E402
from apps.engine.tiles import Tile, format_melds, format_tiles  # noqa: E402
from bench.positions import Position, random_position  # noqa: E402

_Result = TypeVar("_Result")

FIRST_SOLVE = """
import time
start = time.perf_counter()
from apps.engine.rearrange.solver import solve
from apps.engine.tiles import parse_melds, parse_tiles
solve(parse_melds({table!r}), parse_tiles({rack!r}))
print(time.perf_counter() - start)
"""


def percentiles(values: Sequence[float]) -> str:
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    return (
        f"min {ordered[0]:7.2f}  median {at(0.5):7.2f}  p95 {at(0.95):7.2f}  "
        f"p99 {at(0.99):7.2f}  max {ordered[-1]:8.2f}"
    )


class Theirs:
    """`rummikub-solver` on our positions (its colours are just four labels; a joker is its last tile)."""

    def __init__(self) -> None:
        import rummikub_solver

        self.rules = rummikub_solver.RuleSet()
        self.tiles = list(self.rules.tiles)

    def _tile(self, tile: Tile) -> Any:
        if tile.colour is None or tile.number is None:
            return self.tiles[-1]
        return self.tiles[tile.colour.index * 13 + tile.number - 1]

    def placed(self, position: Position) -> int:
        state = self.rules.new_game()
        state.initial = False
        state.add_table(*(self._tile(tile) for meld in position.table for tile in meld))
        state.add_rack(*(self._tile(tile) for tile in position.rack))
        found = self.rules.solve(state)
        return 0 if found is None else len(found.tiles)


def ours(position: Position) -> Solution | None:
    return solve(position.table, position.rack)


def checked(position: Position, found: Solution | None) -> int:
    """How many tiles our play places, after the game's own check of the play (raises if not legal)."""
    if found is None:
        return 0
    check_play(position.table, position.rack, found.table, opened=True)
    return len(found.placed)


def timed(run: Callable[[Position], _Result], position: Position, gc_on: bool = False) -> tuple[_Result, float, float]:
    """The result, wall and CPU milliseconds of one run; the garbage collector off while it runs unless
    `gc_on` (once on again, it collects what the run left whenever it next runs, untimed)."""
    enabled = gc.isenabled()
    if not gc_on:
        gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        result = run(position)
        wall, cpu = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
    finally:
        if enabled:
            gc.enable()
    return result, wall, cpu


def first_solve(position: Position, runs: int = 5) -> list[float]:
    """Seconds for import + first solve, each in a fresh interpreter."""
    code = FIRST_SOLVE.format(table=format_melds(position.table), rack=format_tiles(position.rack))
    seconds = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
        seconds.append(float(done.stdout.strip()))
    return seconds


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="positions use seeds seed, seed+1, ...")
    parser.add_argument("--gc", action="store_true", help="keep the garbage collector on inside timed solves")
    args = parser.parse_args(argv)

    first = first_solve(random_position(args.seed))
    theirs = Theirs()
    theirs.placed(random_position(args.seed))  # their models are built on first use: not timed
    rows = []
    for index in range(args.positions):
        position = random_position(args.seed + index)
        found, wall, cpu = timed(ours, position, args.gc)
        mine = (checked(position, found), wall, cpu)
        other = timed(theirs.placed, position, args.gc)
        rows.append((position, mine, other))

    print(f"{len(rows)} positions (seeds {args.seed}-{args.seed + len(rows) - 1}), "
          f"{sum(1 for p, _, _ in rows if p.table_jokers)} with a joker on the table, "
          f"{sum(1 for p, _, _ in rows if p.rack_jokers)} with a joker on the rack")
    differ = [(p, m, o) for p, m, o in rows if m[0] != o[0]]
    plain = [(p, m, o) for p, m, o in differ if not p.table_jokers]
    print(f"placed tiles differ: {len(differ)} positions; without a table joker: {len(plain)} (goal 0)")
    for position, mine, other in differ:
        side = "ours more" if mine[0] > other[0] else "theirs more"
        where = f"table jokers {position.table_jokers}, rack jokers {position.rack_jokers}"
        print(f"  seed {position.seed}: ours {mine[0]}, theirs {other[0]} ({side}; {where})")
    for label, column in (("wall", 1), ("cpu ", 2)):
        print(f"ours   {label} ms: {percentiles([m[column] for _, m, _ in rows])}")
        print(f"theirs {label} ms: {percentiles([o[column] for _, _, o in rows])}")
        ratio_of_medians = statistics.median(o[column] for _, _, o in rows) / statistics.median(
            m[column] for _, m, _ in rows
        )
        median_ratio = statistics.median(o[column] / max(m[column], 1e-6) for _, m, o in rows)
        print(f"       {label} median ratio (theirs / ours): {ratio_of_medians:.1f} (ratio of medians), "
              f"{median_ratio:.1f} (median of per-position ratios)")
    for label, chosen in (
        ("no joker", [m for p, m, _ in rows if not p.table_jokers and not p.rack_jokers]),
        ("rack joker only", [m for p, m, _ in rows if p.rack_jokers and not p.table_jokers]),
        ("table joker", [m for p, m, _ in rows if p.table_jokers]),
    ):
        print(f"ours   cpu  ms, {label} ({len(chosen)}): {percentiles([m[2] for m in chosen])}")
    slowest = sorted(rows, key=lambda row: -row[1][2])[:8]
    print("our slowest (cpu ms): " + ", ".join(
        f"seed {p.seed} {m[2]:.0f} (table jokers {p.table_jokers}, rack jokers {p.rack_jokers})" for p, m, _ in slowest
    ))
    print(f"import + first solve, fresh interpreter: {', '.join(f'{s:.3f}' for s in first)} s "
          f"(median {statistics.median(first):.3f} s)")


if __name__ == "__main__":
    main()
