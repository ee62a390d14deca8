"""Puzzles of the Rearrange game (`tile-rummy-rearrange`): a table and the rack of a player who has opened;
"place as many tiles as you can" (`most-tiles`), or "go out this turn" (`go-out`, when the most is the
whole rack), with the exact solver's maximum (`solve`) as the target.

Which positions make a puzzle (the heuristic of "one clear goal that is hard to see"):

- the player opened on an earlier turn (the whole table is theirs to rebuild);
- the best play places at least `MIN_TARGET` tiles;
- the rack holds at most `MAX_RACK` tiles;
- the best play rebuilds a set of the table or frees a table joker (plain lay-offs and new sets are not
  the puzzle this game is about);
- the casual play falls short of it by at least `MIN_GAP` tiles. The casual play is the Easy bot's: its
  own new sets from the rack, then single tiles added at the ends of sets on the table
  (`rearrange.bots.easy`), never a rebuilt table. A position where that already reaches the best is
  a chore, not a puzzle.

The stored solution is the solver's best play made tidy (`tidy`: the table's sets it need not touch are
left as they were), and themes are read off it against the table it started from: `freed-joker` (the target
needs a table joker freed: the best play that keeps every table joker places fewer), `rack-joker` (the
solution lays a joker from the rack), `split-run` (a run on the table does not stay within one set),
`split-group` / `four-set-rebuilt` (a group of three / four is broken up), `deep-rebuild` (three or more
of the table's sets change), `go-out`.

The difficulty estimate (on the puzzles' rating scale, where every puzzle starts at 1500) grows with the
casual play's shortfall, the number of table sets rebuilt, a freed joker and the solver's search states
(`effort.py`): `1100 + 120 x gap + 60 x rebuilt sets + 150 x freed joker + 60 x log2(states / 200)`,
clamped to 800-2600. It only orders puzzles until players' answers rate them (Glicko-2, `glicko2.py`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from apps.engine.errors import EngineError
from apps.engine.game import JSON
from apps.engine.puzzles.effort import solve_counted
from apps.engine.puzzles.record import Puzzle, Verdict
from apps.engine.rearrange.bots.easy import add_single_tiles, rack_sets
from apps.engine.rearrange.melds import read_meld
from apps.engine.rearrange.solver import solve
from apps.engine.rearrange.validate import check_play
from apps.engine.tiles import Tile, format_tiles, parse_melds, parse_tiles

GAME = "tile-rummy-rearrange"
MIN_TARGET = 3
MIN_GAP = 2
MAX_RACK = 12  # a longer rack's "most tiles" is bookkeeping more than a puzzle

Faces = tuple[Tile, ...]
Table = tuple[Faces, ...]


def casual_tiles(table: Sequence[Faces], rack: Sequence[Tile]) -> int:
    """How many tiles the casual play places: the rack's own sets, then single tiles at the ends of sets."""
    new_sets = rack_sets(rack)
    rest = list(rack)
    for meld in new_sets:
        for tile in meld:
            rest.remove(tile)
    _, left = add_single_tiles(table, rest)
    return len(rack) - len(left)


def _contains(meld: Faces, part: Faces) -> bool:
    return not Counter(part) - Counter(meld)


def themes_of(table: Table, rack: Faces, solution: Table, freed: bool) -> tuple[str, ...]:
    """The themes of a solution (see the module's note)."""
    found: list[str] = []
    if freed:
        found.append("freed-joker")
    placed = Counter(tile for meld in solution for tile in meld) - Counter(tile for meld in table for tile in meld)
    if placed[Tile(None, None)]:
        found.append("rack-joker")
    changed = [meld for meld in table if not any(_contains(new, meld) for new in solution)]
    kinds = [read_meld(meld) for meld in changed]
    if any(meld.kind == "run" for meld in kinds):
        found.append("split-run")
    if any(meld.kind == "set" and len(meld.tiles) == 3 for meld in kinds):
        found.append("split-group")
    if any(meld.kind == "set" and len(meld.tiles) == 4 for meld in kinds):
        found.append("four-set-rebuilt")
    if len(changed) >= 3:
        found.append("deep-rebuild")
    if sum(placed.values()) == len(rack):
        found.append("go-out")
    return tuple(found)


def tidy(table: Table, rack: Faces, target: int) -> tuple[Table, Faces]:
    """A best play that leaves as much of the table as it was as it can: the solver rebuilds the whole
    table its own way, so each set of the table in turn is set aside (kept as it is) when the rest of the
    table and the rack still place `target` tiles without it. Returns the new table (the sets set aside
    first, in table order) and the tiles placed. One solve per table set: only for positions that make a
    puzzle. (Greedy, in table order: it keeps a maximal set of sets, not always the most.)"""
    kept: list[Faces] = []
    rest = list(table)
    best = solve(table, rack)
    assert best is not None and len(best.placed) == target
    for meld in table:
        rest.remove(meld)
        found = solve(rest, rack)
        if found is not None and len(found.placed) >= target:
            kept.append(meld)
            best = found
        else:
            rest.append(meld)
    return (*kept, *best.table), best.placed


def _rebuilt(table: Table, solution: Table) -> int:
    return sum(1 for meld in table if not any(_contains(new, meld) for new in solution))


def difficulty(gap: int, rebuilt: int, freed: bool, states: int) -> int:
    """The difficulty estimate of the module's note."""
    raw = 1100 + 120 * gap + 60 * rebuilt + 150 * freed + 60 * math.log2(max(states, 1) / 200)
    return int(min(2600, max(800, round(raw))))


def position_json(table: Sequence[Sequence[Tile]], rack: Sequence[Tile]) -> JSON:
    return {
        "table": [format_tiles(meld) for meld in table],
        "rack": format_tiles(sorted(rack, key=lambda tile: tile.key)),
    }


def read_position(position: JSON) -> tuple[Table, Faces]:
    table = tuple(tuple(parse_tiles(meld)) for meld in position["table"])
    return table, tuple(parse_tiles(position["rack"]))


def find(table: Sequence[Sequence[Tile]], rack: Sequence[Tile], source: JSON | None = None) -> Puzzle | None:
    """The puzzle of a position of a player who has opened, or None when it does not make one."""
    table_t: Table = tuple(tuple(meld) for meld in table)
    rack_t: Faces = tuple(sorted(rack, key=lambda tile: tile.key))
    if not MIN_TARGET <= len(rack_t) <= MAX_RACK:
        return None
    casual = casual_tiles(table_t, rack_t)
    if len(rack_t) - casual < MIN_GAP:
        return None  # the casual play already leaves too little to find
    best, states = solve_counted(table_t, rack_t)
    if best is None:
        return None
    target = len(best.placed)
    gap = target - casual
    if target < MIN_TARGET or gap < MIN_GAP:
        return None
    freed = False
    if any(tile.is_joker for meld in table_t for tile in meld):
        kept = solve(table_t, rack_t, free_jokers=False)
        freed = kept is None or len(kept.placed) < target
    new_table, placed = tidy(table_t, rack_t, target)
    rebuilt = _rebuilt(table_t, new_table)
    if not rebuilt and not freed:
        return None
    themes = themes_of(table_t, rack_t, new_table, freed)
    going_out = target == len(rack_t)
    kind = "go-out" if going_out else "most-tiles"
    goal = (
        "Go out this turn: place every tile of your rack"
        if going_out
        else f"Place as many tiles from your rack as you can (the best play places {target})"
    )
    return Puzzle(
        game=GAME,
        kind=kind,
        goal=goal,
        position=position_json(table_t, rack_t),
        target={"tiles": target},
        solution={"table": [format_tiles(meld) for meld in new_table], "placed": format_tiles(placed)},
        themes=themes,
        difficulty=difficulty(gap, rebuilt, freed, states),
        search={"states": states, "casual": casual, "rebuilt": rebuilt},
        source=dict(source or {}),
    )


def _table_of(play: object) -> Table:
    """A proposed final table: "r1 r2 r3 | y4 b4 k4" (a leading "play" is allowed), a list of sets written
    as strings, or a list of lists of faces. Raises EngineError (InvalidMove) on bad notation, and
    ValueError on anything else."""
    if isinstance(play, str):
        text = play.strip()
        if text.startswith("play"):
            text = text[4:]
        return tuple(tuple(meld) for meld in parse_melds(text))
    if isinstance(play, dict) and "table" in play:
        return _table_of(play["table"])
    if isinstance(play, (list, tuple)):
        melds: list[Faces] = []
        for meld in play:
            if isinstance(meld, str):
                melds.append(tuple(parse_tiles(meld)))
            elif isinstance(meld, (list, tuple)) and all(isinstance(face, str) for face in meld):
                melds.append(tuple(Tile.parse(face) for face in meld))
            else:
                raise ValueError(f"A set is written as tiles, not {meld!r}")
        return tuple(melds)
    raise ValueError(f"A play is the whole table as you leave it, not {play!r}")


def judge(puzzle: Puzzle, play: object) -> Verdict:
    """Right when the game's own End-turn check (`check_play`) accepts the table `play` and it places at
    least the target's tiles; short by how many fewer; refused (not legal) with the check's reason."""
    target = puzzle.goal_value
    table, rack = read_position(puzzle.position)
    try:
        proposed = _table_of(play)
        checked = check_play(table, rack, proposed, opened=True)
    except EngineError as error:
        return Verdict(False, target, str(error), legal=False, code=error.message_code)
    except ValueError as error:
        return Verdict(False, target, str(error), legal=False)
    placed = len(checked.placed)
    if placed >= target:
        return Verdict(True, 0, reached=placed)
    missing = target - placed
    return Verdict(
        False,
        missing,
        f"Legal, but it places {placed} tile{'s' * (placed != 1)}: the best play places {target}",
        reached=placed,
    )


def recheck(puzzle: Puzzle) -> str | None:
    """None when the exact solver still gives the puzzle's target and its solution is judged right; else
    what is wrong."""
    table, rack = read_position(puzzle.position)
    best = solve(table, rack)
    most = 0 if best is None else len(best.placed)
    if most != puzzle.goal_value:
        return f"the solver's best play places {most} tiles, the target says {puzzle.goal_value}"
    if puzzle.kind == "go-out" and most != len(rack):
        return "a go-out puzzle whose best play keeps tiles"
    verdict = judge(puzzle, puzzle.solution["table"])
    if not verdict.right:
        return f"the stored solution is not right: {verdict.reason}"
    return None


def find_in_view(view: JSON, fresh: bool, source: JSON | None = None) -> Puzzle | None:
    """The puzzle of a seat's view at the start of its turn (`fresh`), if it makes one."""
    seat = view.get("you")
    if not fresh or seat is None or "rack" not in view or not view["players"][seat]["opened"]:
        return None
    table = [parse_tiles(" ".join(meld["tiles"])) for meld in view["table"]]
    return find(table, parse_tiles(" ".join(view["rack"])), source)
