"""Puzzles for the site's tests: the engine's own test position (tests/engine/test_puzzles.py: a group lends
its y5 to a new run and the rack's r5 takes its place; the best play places 4 of r5 y4 y6 y7 k9) stored
as a row, and the starter set loaded as at install (tests that flush the database lose the migration's
rows, so each test that needs them loads them itself)."""

from __future__ import annotations

import pytest

from apps.engine.puzzles.rearrange import find
from apps.engine.tiles import parse_melds, parse_tiles
from apps.puzzles.loading import fields_of, load_files, starter_files
from apps.puzzles.models import Puzzle

#: The lend-a-tile puzzle's plays (tests/engine/test_puzzles.py).
RIGHT_OTHER = "r2 r3 r4 | r5 r6 r7 | y4 y5 y6 y7 | r5 b5 k5"  # reaches 4, not the stored solution
SHORT_ONE = "r2 r3 r4 r5 r6 r7 | y4 y5 y6 | r5 b5 k5"  # legal, places 3
ILLEGAL = "r2 r3 r4 r5 r6 | y4 y5 y6 y7 | r5 b5 k5"  # r7 left the table


@pytest.fixture
def lend(db: None) -> Puzzle:
    record = find(parse_melds("r2 r3 r4 r5 r6 r7 | b5 y5 k5"), parse_tiles("r5 y4 y6 y7 k9"))
    assert record is not None
    puzzle, _ = Puzzle.objects.get_or_create(key=record.id, defaults=fields_of(record))
    return puzzle


@pytest.fixture
def starter(db: None) -> int:
    load_files(starter_files(), model=Puzzle)
    return Puzzle.objects.count()
