"""How much searching the exact Rearrange solver needed for a position: a difficulty estimate that does not
depend on the machine (a puzzle file is the same on every run of the generator).

The solver (`apps.engine.rearrange.solver`) does not count its work, and a puzzle should not change it: so
`solve_counted` runs one solve with the strategy's `_Walk` swapped, for that one call, for a subclass
that remembers its instances, and reads afterwards how many (state, layer) move lists each walk cached:
one per state the search expanded (the search looks a state's moves up before it makes them). The swap
is process-wide for the length of the call: generation is one thread (the judge never counts); a lock
keeps two threads from interleaving swaps. If the solver's shape changes (no `_Walk` in the strategy),
the solve still runs and the count is 0.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from apps.engine.rearrange.solver import Solution, solve
from apps.engine.rearrange.solver import strategy as _strategy
from apps.engine.tiles import Tile

_LOCK = threading.Lock()


def solve_counted(table: Sequence[Sequence[Tile]], rack: Sequence[Tile], **options: Any) -> tuple[Solution | None, int]:
    """`solve(table, rack, **options)` and the number of search states its walks expanded."""
    original = getattr(_strategy, "_Walk", None)
    if original is None:
        return solve(table, rack, **options), 0
    walks: list[Any] = []

    class _Counted(original):  # type: ignore[misc, valid-type]  # the walk class, found by name at run time
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            walks.append(self)

    with _LOCK:
        _strategy._Walk = _Counted  # type: ignore[attr-defined]  # swapped in for counting, put back below
        try:
            found = solve(table, rack, **options)
        finally:
            _strategy._Walk = original  # type: ignore[attr-defined]  # see above
    return found, sum(len(getattr(walk, "cache", ())) for walk in walks)
