"""The solver's cost per position in instructions (`valgrind --tool=callgrind`): a figure that load and noisy
neighbours do not move, for judging a change to the solver on a shared machine.

    .venv/bin/python bench/solver_instructions.py [--positions 1000] [--root PATH] [--save FILE] [--against FILE]

The positions of `bench/solver.py` (seeds 0..N-1) are solved once each, in order, as that benchmark does
(so a position's first solve pays for the process-wide caches it misses). Each solve runs inside
`functools.reduce`, which callgrind collects (`--toggle-collect`) and dumps after each call, so every
position gets its own count. Printed: total, median, p99 and max in millions of instructions, the p99 of
the positions with a table joker, and the slowest; `--against` a file saved by `--save` (say, from another
checkout given by `--root`) adds the positions that changed most. Takes about 60 times the plain run
(5-6 minutes for 1,000 positions). Needs `valgrind` (Debian: `apt install valgrind`).
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(root: Path, positions: int) -> None:
    """Solve the positions in order, each inside `functools.reduce` (what callgrind collects)."""
    sys.path.insert(0, str(root))
    from apps.engine.rearrange.solver import solve
    from bench.positions import random_position

    gc.disable()
    for seed in range(positions):
        position = random_position(seed)
        functools.reduce(lambda _, __: solve(position.table, position.rack), [0, 1])


def counts(root: Path, positions: int) -> list[int]:
    """Instructions of each position's solve, in seed order."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "cg.out"
        command = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
            "--dump-after=functools_reduce", "--dump-instr=no", f"--callgrind-out-file={out}",
            sys.executable, __file__, "--child", "--root", str(root), "--positions", str(positions),
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True)
        found = []
        for index in range(1, positions + 1):
            for line in (Path(folder) / f"cg.out.{index}").read_text().splitlines():
                if line.startswith(("summary:", "totals:")):
                    found.append(int(line.split()[1]))
                    break
        return found


def summary(label: str, instructions: list[int], table_joker: list[bool]) -> str:
    def at(values: list[int], fraction: float) -> float:
        return values[min(len(values) - 1, int(fraction * len(values)))] / 1e6

    ordered = sorted(instructions)
    joker = sorted(count for count, has in zip(instructions, table_joker, strict=True) if has)
    slowest = sorted(range(len(instructions)), key=lambda seed: -instructions[seed])[:8]
    return (
        f"{label}: total {sum(instructions) / 1e6:,.0f} M, median {at(ordered, 0.5):.2f}, p99 {at(ordered, 0.99):.1f}, "
        f"max {ordered[-1] / 1e6:,.1f}, table-joker p99 {at(joker, 0.99):.1f} ({len(joker)} positions); slowest "
        + ", ".join(f"{seed} {instructions[seed] / 1e6:,.0f}" for seed in slowest)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose solver runs (default: this one)")
    parser.add_argument("--save", type=Path, help="write the counts (JSON) here")
    parser.add_argument("--against", type=Path, help="counts saved by --save, to compare with")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.root, args.positions)
        return
    sys.path.insert(0, str(ROOT))
    from bench.positions import random_position

    table_joker = [random_position(seed).table_jokers > 0 for seed in range(args.positions)]
    found = counts(args.root.resolve(), args.positions)
    if args.save:
        args.save.write_text(json.dumps(found))
    print(f"{args.positions} positions (seeds 0-{args.positions - 1}), millions of instructions, each solved once in order")
    print(summary("this run", found, table_joker))
    if args.against:
        before = json.loads(args.against.read_text())
        print(summary("against", before, table_joker))
        change = sorted(range(len(found)), key=lambda seed: found[seed] - before[seed])
        print("most fewer: " + ", ".join(f"{seed} {(found[seed] - before[seed]) / 1e6:+,.0f}" for seed in change[:8]))
        print("most more: " + ", ".join(f"{seed} {(found[seed] - before[seed]) / 1e6:+,.0f}" for seed in change[-8:]))


if __name__ == "__main__":
    main()
