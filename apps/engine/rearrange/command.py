"""`python -m apps.engine solve` (SPEC 9): the best play of a player who has opened, as one JSON object:

    solve --game tile-rummy-rearrange --table "r4 J r6 | y7 b7 k7" --rack "r5 k8 k9"
    {"placed": ["r5", "k8", "k9"], "table": [["r4", "r5", "r6"], ...]}

The most rack tiles placed (ties: the most face value placed, a joker counting 30); `table` is every
table tile plus the placed ones, in legal sets. With nothing to place, `placed` is empty and `table` the
table as given. `--opening` asks for the best opening instead (at least 30 in new sets of rack tiles;
the table untouched). The work is `apps.engine.rearrange.solver`'s.
"""

from __future__ import annotations

import argparse

from apps.engine.errors import InvalidMove
from apps.engine.game import JSON
from apps.engine.rearrange.solver import solve, solve_opening
from apps.engine.tiles import copies_problem, parse_melds, parse_tiles

GAME = "tile-rummy-rearrange"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, choices=[GAME], help="the game's slug (only the Rearrange game has a solver)")
    parser.add_argument("--table", default="", metavar="MELDS", help='the sets on the table, like "r4 J r6 | y7 b7 k7"')
    parser.add_argument("--rack", required=True, metavar="TILES", help='the rack, like "r5 k8 k9 J"')
    parser.add_argument("--opening", action="store_true", help="the best opening (30 from the rack, table untouched)")


def run(args: argparse.Namespace) -> JSON:
    table = parse_melds(args.table)
    rack = parse_tiles(args.rack)
    if not rack:
        raise InvalidMove(f"{args.rack!r}: give the rack's tiles, like 'r5 k8 k9 J'", "solve_rack", rack=args.rack)
    too_many = copies_problem([*rack, *(tile for meld in table for tile in meld)])
    if too_many is not None:
        raise InvalidMove(
            f"--table {args.table!r} --rack {args.rack!r}: {too_many}",
            "solve_too_many",
            table=args.table,
            rack=args.rack,
            rule=too_many,
        )
    found = solve_opening(rack, table) if args.opening else solve(table, rack)
    result: JSON = {
        "placed": [str(tile) for tile in found.placed] if found else [],
        "table": [[str(tile) for tile in meld] for meld in (found.table if found else table)],
    }
    if args.opening:
        result["points"] = found.opening_points if found else 0
    return result
