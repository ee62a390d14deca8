"""Puzzles from the exact search (SPEC 18, issue 46): positions from bot self-play or finished games where
one clear goal is hard to see, proved by the engine, with a judge that accepts any play reaching the goal.

    puzzle = Puzzle.from_dict(json.loads(line))     # one JSON line (`record.py`)
    verdict = judge(puzzle, "r1 r2 r3 | y4 b4 k4")  # Verdict(right, short_by, reason, legal, ...)
    recheck(puzzle)                                 # None, or what no longer holds
    python -m apps.engine puzzles generate --game tile-rummy-rearrange --count 10 --seed 1
    python -m apps.engine puzzles check apps/engine/puzzles/starter/tile-rummy-rearrange.jsonl

| module | what |
|---|---|
| `record.py` | `Puzzle` (JSON lines, a stable id from the position) and `Verdict` |
| `effort.py` | the solver's search states for a position (a difficulty that does not depend on the machine) |
| `rearrange.py` | Rearrange puzzles: most tiles / go out, the solver's maximum, a tidy solution, themes, the judge |
| `house.py` | house-game puzzles: open with 45 / go out / take the joker, the turn's exact search, the judge |
| `games.py` | the games with puzzles, by slug; `judge` and `recheck` for any puzzle |
| `generate.py` | positions from self-play or records, `generate`, `check` |
| `command.py` | the `puzzles` sub-command |
| `glicko2.py` | Glicko-2 ratings for players and puzzles (1500 start) |
| `starter/` | the starter set the command made, one file a game |
"""

from apps.engine.puzzles.games import judge, recheck
from apps.engine.puzzles.record import Puzzle, Verdict

__all__ = ["Puzzle", "Verdict", "judge", "recheck"]
