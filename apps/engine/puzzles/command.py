"""`python -m apps.engine puzzles ...` (registered in `apps/engine/cli.py`):

    puzzles generate --game G --count N --seed S [--bots hard,hard] [--games M] [--from FILE] [--out FILE]
        writes up to N puzzles as JSON lines (to --out, or to stdout); with --out, prints a JSON summary
        (games, positions looked at, puzzles, share, CPU seconds, kinds). From --from FILE (game records:
        a JSON list of records, or one record a line) instead of self-play.
    puzzles check FILE
        rechecks every puzzle of FILE (JSON lines) and prints a JSON summary; exit status 1 when any fails.

The engine's `main` prints a command's JSON object; these two print their own output (JSON lines are not
one object, and a failed check prints its summary and still exits with 1), and stop with `SystemExit`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn, TextIO

from apps.engine.command_input import CommandError
from apps.engine.game import JSON
from apps.engine.puzzles.games import PUZZLE_GAMES
from apps.engine.puzzles.generate import GAMES_PER_PUZZLE, Tally, check, from_records, generate, self_play
from apps.engine.puzzles.record import puzzle_line, read_puzzles

DEFAULT_BOTS = {"tile-rummy": "hard,hard", "tile-rummy-rearrange": "hard,hard"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    make = actions.add_parser("generate", help="puzzles from bot self-play (or game records), as JSON lines")
    make.add_argument("--game", required=True, choices=sorted(PUZZLE_GAMES), help="the game's slug")
    make.add_argument("--count", type=int, default=10, help="how many puzzles")
    make.add_argument("--seed", type=int, default=0, help="the seed of every deal and bot decision")
    make.add_argument("--bots", default=None, help="self-play: one bot level per seat (default hard,hard)")
    make.add_argument(
        "--games",
        type=int,
        default=None,
        help=f"self-play: at most this many games (default {GAMES_PER_PUZZLE} a puzzle)",
    )
    make.add_argument(
        "--from",
        dest="records",
        default=None,
        metavar="FILE",
        help="game records (a JSON list, or one a line) instead of self-play",
    )
    make.add_argument("--out", default=None, metavar="FILE", help="write the puzzles here (default: stdout)")
    recheck = actions.add_parser("check", help="recheck every puzzle of a file against the exact search")
    recheck.add_argument("file", metavar="FILE", help="puzzles, one JSON object a line (- for standard input)")


def _lines(name: str) -> list[str]:
    try:
        return sys.stdin.read().splitlines() if name == "-" else Path(name).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise CommandError(f"Cannot read {name!r}: {error.strerror}") from None


def _records(name: str) -> Iterator[JSON]:
    text = "\n".join(_lines(name)).strip()
    try:
        if text.startswith("["):
            yield from json.loads(text)
        else:
            for line in text.splitlines():
                if line.strip():
                    yield json.loads(line)
    except json.JSONDecodeError as error:
        raise CommandError(f"{name!r} is not JSON: {error}") from None


def run_generate(args: argparse.Namespace, stdout: TextIO) -> JSON:
    count = int(args.count)
    if count < 1:
        raise CommandError(f"Ask for at least one puzzle, not {count}")
    tally = Tally()
    if args.records:
        candidates = from_records(_records(args.records))
    else:
        levels = [level.strip() for level in str(args.bots or DEFAULT_BOTS[args.game]).split(",") if level.strip()]
        games = int(args.games) if args.games is not None else GAMES_PER_PUZZLE * count
        candidates = self_play(args.game, levels, int(args.seed), games)
    out = stdout if args.out is None else Path(args.out).open("w", encoding="utf-8")
    try:
        for puzzle in generate(candidates, count, tally, args.game):
            out.write(puzzle_line(puzzle) + "\n")
            out.flush()
    finally:
        if out is not stdout:
            out.close()
    return {"game": args.game, "seed": int(args.seed), "out": args.out, **tally.to_dict()}


def run_check(args: argparse.Namespace) -> JSON:
    try:
        puzzles = list(read_puzzles(_lines(args.file)))
    except (KeyError, ValueError) as error:
        raise CommandError(f"{args.file!r} holds something that is not a puzzle: {error}") from None
    return check(puzzles)


def run(args: argparse.Namespace) -> NoReturn:
    """Print the action's output and stop: exit status 1 when a check fails, else 0."""
    if args.action == "generate":
        summary = run_generate(args, sys.stdout)
        if args.out is not None:
            print(json.dumps(summary))
        else:
            print(json.dumps(summary), file=sys.stderr)
        raise SystemExit(0)
    summary = run_check(args)
    print(json.dumps(summary))
    raise SystemExit(1 if summary["failed"] else 0)
