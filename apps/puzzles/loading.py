"""Loading puzzles from the engine's JSON lines (`python -m apps.engine puzzles generate`) into the database:
the `load_puzzles` command and the migration that loads the starter set at install both come here.

A line is loaded when it reads as a puzzle of a game with puzzles and its stored solution is judged right
(`apps.engine.puzzles.judge`, under a millisecond); a bad line is reported with its file and number and
changes nothing. A puzzle already stored (the same `key`) is left as it is: loading twice adds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apps.engine.puzzles import judge
from apps.engine.puzzles.games import PUZZLE_GAMES
from apps.engine.puzzles.record import Puzzle as Record

#: The starter set that ships with the project (made by the engine's command), one file a game.
STARTER_DIR = Path(__file__).resolve().parents[1] / "engine" / "puzzles" / "starter"


def starter_files() -> list[Path]:
    return sorted(STARTER_DIR.glob("*.jsonl"))


@dataclass
class LoadResult:
    added: int = 0
    present: int = 0
    errors: list[str] = field(default_factory=list)


def read_line(text: str) -> Record:
    """The puzzle of one JSON line; ValueError saying what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    try:
        record = Record.from_dict(data)
    except KeyError as error:
        raise ValueError(f"the field {error.args[0]!r} is missing") from None
    except (TypeError, ValueError, AttributeError) as error:
        raise ValueError(str(error)) from None
    if record.game not in PUZZLE_GAMES:
        raise ValueError(f"{record.game!r} is not a game with puzzles ({', '.join(sorted(PUZZLE_GAMES))})")
    try:
        verdict = judge(
            record,
            record.solution.get("table") if record.game == "tile-rummy-rearrange" else record.solution.get("moves"),
        )
    except Exception as error:  # a malformed solution can fail in many ways: it is the line's fault
        raise ValueError(f"the stored solution cannot be read ({error})") from None
    if not verdict.right:
        raise ValueError(f"the stored solution does not reach the target: {verdict.reason}")
    return record


def fields_of(record: Record) -> dict[str, Any]:
    return {
        "key": record.id,
        "game": record.game,
        "kind": record.kind,
        "position": record.position,
        "target": dict(record.target),
        "solution": record.solution,
        "themes": f" {' '.join(record.themes)} " if record.themes else "",
        "difficulty": record.difficulty,
        "search": record.search,
        "source": record.source,
    }


def load_lines(lines: Iterable[str], *, model: Any, name: str = "<lines>") -> LoadResult:
    """Store the puzzles of `lines` (blank lines skipped) with the model `model` (the app's `Puzzle`, or
    the migration's historical one)."""
    result = LoadResult()
    found: dict[str, Record] = {}
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            record = read_line(text)
        except ValueError as error:
            result.errors.append(f"{name}, line {number}: {error}")
            continue
        found.setdefault(record.id, record)
    present = set(model.objects.filter(key__in=list(found)).values_list("key", flat=True))
    new = [model(**fields_of(record)) for key, record in found.items() if key not in present]
    # ignore_conflicts: a puzzle another loader stored in the meantime stays as it was (no duplicate).
    model.objects.bulk_create(new, ignore_conflicts=True, batch_size=500)
    result.added = len(new)
    result.present = len(present)
    return result


def load_files(paths: Iterable[Path], *, model: Any) -> LoadResult:
    total = LoadResult()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            one = load_lines(handle, model=model, name=str(path))
        total.added += one.added
        total.present += one.present
        total.errors += one.errors
    return total
