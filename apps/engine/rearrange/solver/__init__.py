"""An exact solver for the Rearrange game (SPEC 4, SPEC 9 `solve`): which rack tiles can go on the table
this turn, and the whole new table that holds them.

    solve(table, rack)          the best play of a player who has opened: the most rack tiles placed
                                (ties: the highest face value placed, a joker counting 30), rearranging
                                the whole table; every table tile stays on the table.
    solve_opening(rack, table)  the best opening: new sets of rack tiles only, worth at least 30, the
                                table untouched.

Both take `weights` (what placing one tile of a face is worth to the caller; the default counts tiles
first, then face value) and `keep` (rack tiles that must stay on the rack), so a bot can ask for the best
play under its own preferences or the best play that holds certain tiles back, at the price of one solve.

Every returned play passes the game's own check (`apps.engine.rearrange.validate.check_play`), the
freed-joker rule included: a joker on the table either keeps standing for (one of) the tile(s) it stood
for, or it is freed, which needs a tile it stood for from the rack and a new set holding the joker and at
least two other rack tiles.

The method is the dynamic programme over the numbers 1..13 with per-colour open-run states of van Rijn,
Takes and Vis ("The complexity of Rummikub problems", 2015), extended to jokers and to the freed-joker rule,
and exact: it explores every way of building the table, up to interchangeable choices.

- The table is built number by number, colour by colour (52 cells, then a group step per number). At a
  cell, the tiles of that face (table tiles: all of them; rack tiles: any number) extend the colour's open
  runs, start new runs, or wait in the number's group pool; jokers placed in runs are extra tiles of the
  face. At the group step the pool (plus jokers) must split into legal groups.
- A colour's open runs are a sorted tuple of run codes: a plain run's length capped at 3 (3 = already a
  legal run, may end any time), or a "designated" run, one that will hold a freed joker, with how many
  rack tiles it has so far (capped at 2) and whether the joker is in it. A run is designated at its first
  rack tile or freed joker (without loss of generality: a longer lead of table tiles would be a run of
  its own); a freed joker's group instead makes its number "host" it, and only there does the group pool
  tell rack tiles from table tiles.
- A table joker is either kept (then it is a table tile of a face it stood for, placed at that number)
  or freed (then it is a joker that must be placed, in a designated run or a hosted group with two rack
  tiles, and a rack tile it stood for must be placed at its number). Both choices start the search.
- The state is one int (bit fields: each colour's run tuple id, the group pool, jokers left, pending joker
  duties, opening points); a layer is a dict state -> best value, with back pointers. Moves per cell are
  generated once per (run tuple, tiles, jokers) and cached for the process, as tuples of ints (the
  garbage collector has nothing to look at in them).
- Pruning that keeps the best play: a legal open run is never ended in the same cell where a plain run of
  that colour starts (extending it reaches every future the restart reaches); runs that cannot reach
  length 3 are never made; a state whose runs are dominated by another's, identical otherwise and worth
  as much, is dropped; a rack joker is kept in hand (and added to the finished table) unless placing it
  earlier pays; rack tiles that no set could hold are left out; a joker never takes a spot a rack tile of
  that face could take; a designated run counts only the rack tiles it could still reach (through
  numbers with a tile of its colour, or jokers in gaps).
- The order of work (`_solve`): a depth-first walk for a play that places everything (quick on a big
  table, where the full search is slowest), in rounds; when its first two settle nothing, the walk of
  the mirrored problem (every number n as 14 - n: runs read backwards are runs) races it a round each, and
  the rest goes on in the direction whose walk settled first (the cost of the search differs between the
  two directions by up to ten times, either way round, on some positions); then searches with growing
  budgets of weight left unplaced (a search whose best play leaves no more than its budget has found the
  best play; so has one whose best play leaves less than any play it left out must leave, at least as
  many tiles as it takes to pass the budget). When a table joker may be freed, a search without that
  (and without rack jokers; from two tiles' budget when the walk gave up) gives a first play: the full
  search looks only at plays that leave less (one tight budget, then that one; the tight one allows up
  to two tiles fewer than the first play leaves, two tiles at most), and without rack jokers it leaves
  out the fate that keeps every joker, which the first play covers.
  When the walk has proved that no play places everything, every play leaves at least the lightest
  numbered rack tile: a first play leaving no more is the best, and one leaving two tiles at most is
  first challenged by a place-everything walk of the rack less a lightest tile (one per such face),
  whose play, if it finds one, is the best. Of two jokers at one number, one kept and one freed, a
  fate whose every play the other way round also allows is left out; of two table jokers, "keep the
  first, free the second" and the other way round share one start until the first number either joker
  stands at (nothing before it tells them apart), where it splits into both.

The package, one idea a module (each imports only those above it):

| module | what |
|---|---|
| `model.py` | the objective, `Solution`, item kinds, run codes, the state's bit fields |
| `cells.py` | a cell's options: every way to use its tiles given the colour's open runs |
| `groups.py` | the group step: a number's pool split into legal groups |
| `moves.py` | a cell's moves built from its options, and the process-wide caches |
| `search.py` | `_Walk`: the forward pass with budgets, the place-everything walk, dominance |
| `build.py` | the new table rebuilt from a search's plans (one a layer) |
| `mirror.py` | the problem with its numbers mirrored, and a play of it read back |
| `strategy.py` | the order of work of one solve |
| `play.py` | `solve` and `solve_opening`: problems from tiles |
"""

from apps.engine.rearrange.solver.model import TILE_WEIGHT, Solution, default_weight
from apps.engine.rearrange.solver.play import solve, solve_opening

__all__ = ["TILE_WEIGHT", "Solution", "default_weight", "solve", "solve_opening"]
