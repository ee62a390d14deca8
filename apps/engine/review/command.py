"""`python -m apps.engine review FILE` and `python -m apps.engine hint --game SLUG --state FILE --seat N`
(SPEC 9): each prints one JSON object.

`review` reads a game record (docs/record-format.md) and prints every turn (`seat`, `played`, `best`,
`missed_tiles`, `missed_points`, ...) and a summary per seat. `hint` reads a game state (the engine's
`to_dict` form, as the site stores it) or a seat's view (`view_for`, as the site sends it), and prints
the best play for `--seat`, found from that seat's view only.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from apps.engine.command_input import CommandError, read_json
from apps.engine.errors import InvalidMove
from apps.engine.game import JSON, game_slugs, get_rules
from apps.engine.records import GameRecord
from apps.engine.review.report import hint, review


def review_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game record (JSON), or - for standard input")


def review_run(args: argparse.Namespace) -> JSON:
    return review(GameRecord.from_dict(read_json(args.file))).to_dict()


def hint_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, choices=game_slugs(), help="the game's slug")
    parser.add_argument("--state", required=True, metavar="FILE", help="a game state or a seat's view (JSON), or - for standard input")
    parser.add_argument("--seat", required=True, type=int, metavar="N", help="the seat to move (0-based)")


def hint_run(args: argparse.Namespace) -> JSON:
    data = read_json(args.state)
    if not isinstance(data, Mapping):
        raise CommandError(f"{args.state!r} must hold a JSON object: a game state or a seat's view")
    rules = get_rules(args.game)
    if "you" in data:  # a view already: it must be this seat's, of this game
        if data.get("you") != args.seat or data.get("game") != args.game:
            raise InvalidMove(
                f"{args.state!r} is the view of seat {data.get('you')!r} of {data.get('game')!r}, not seat {args.seat} of {args.game!r}",
                "hint_other_view",
                seat=args.seat,
                game=args.game,
            )
        view = dict(data)
    else:
        state = rules.from_dict(data)
        if not 0 <= args.seat < state.seats:
            raise InvalidMove(
                f"There is no seat {args.seat} at this {state.seats}-seat table", "no_such_seat", seat=args.seat, seats=state.seats
            )
        view = rules.view_for(state, args.seat)
    return {"game": args.game, "seat": args.seat, **hint(view).to_dict()}
