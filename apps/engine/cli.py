"""`python -m apps.engine`: the engine's command line (SPEC 9). Each sub-command prints one JSON object on
stdout; bad input gets a clear message on stderr and a non-zero exit status.

Sub-commands register themselves in `COMMANDS` (name -> (add_arguments, run)), so `solve` and `simulate`
can be added in their own modules without touching this one's logic.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from apps.engine.bots import simulate
from apps.engine.command_input import CommandError, read_json
from apps.engine.errors import EngineError
from apps.engine.game import JSON, game_slugs, get_rules
from apps.engine.puzzles import command as puzzles_command
from apps.engine.rearrange import command as rearrange_command
from apps.engine.records import GameRecord, replay
from apps.engine.review import command as review_command
from apps.engine.tiles import parse_tiles

Run = Callable[[argparse.Namespace], JSON]
AddArguments = Callable[[argparse.ArgumentParser], None]


def _add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, choices=game_slugs(), help="the game's slug")


def _meld_arguments(parser: argparse.ArgumentParser) -> None:
    _add_game(parser)
    parser.add_argument("tiles", nargs="+", metavar="TILE", help="the meld's tiles in table order, like r12 r13 r1")


def _meld(args: argparse.Namespace) -> JSON:
    rules = get_rules(args.game)
    tiles = parse_tiles(" ".join(args.tiles))
    return rules.meld_check(tiles).to_dict()


def _replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game record (JSON), or - for standard input")


def _replay(args: argparse.Namespace) -> JSON:
    record = GameRecord.from_dict(read_json(args.file))
    replayed = replay(record)
    result = replayed.result
    return {
        "game": record.game,
        "moves": len(record.moves),
        "over": result is not None,
        "reason": None if result is None else result.reason,
        "winner": None if result is None else result.winner,
        "scores": None if result is None else list(result.scores),
        "seats": None if result is None else [seat.to_dict() for seat in result.seats],
        "fair": None if replayed.fair is None else replayed.fair.to_dict(),
    }


COMMANDS: dict[str, tuple[str, AddArguments, Run]] = {
    "meld": ("is this one meld legal in that game, and what is it worth", _meld_arguments, _meld),
    "replay": (
        "check every move of a game record and print the final scores (and whether its fair deal verifies)",
        _replay_arguments,
        _replay,
    ),
    "simulate": ("bot-only games: wins, mean scores, turns, seconds per game, move times", simulate.add_arguments, simulate.run),
    "solve": ("the best play of the Rearrange game from a table and a rack", rearrange_command.add_arguments, rearrange_command.run),
    "review": ("every turn of a game record: what was played and the best play from the seat's view", review_command.review_arguments, review_command.review_run),
    "hint": ("the best play for a seat to move, from its view only", review_command.hint_arguments, review_command.hint_run),
    "puzzles": ("make puzzles from self-play (generate) or recheck a file of them (check)", puzzles_command.add_arguments, puzzles_command.run),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m apps.engine", description="The Tile Rummy rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (summary, add_arguments, run) in COMMANDS.items():
        command = commands.add_parser(name, help=summary, description=summary)
        add_arguments(command)
        command.set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        output = args.run(args)
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except EngineError as error:  # bad notation, an unknown game, a record whose moves do not check
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(output))
    return 0
