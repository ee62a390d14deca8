"""A puzzle as it is stored (one JSON object a line), and a verdict on an answer.

A puzzle is a position of one game, one goal (`kind`) with its `target`, one solution that reaches it
(any legal play that reaches the target is right: `judge`), the themes of that solution, and a difficulty
estimate from the search that made it. Its `id` is a hash of the game, the goal and the position, so the
same position found twice (or by two runs of the generator) is the same puzzle.

    {"id": "r-3f9c0a1b2c4d", "game": "tile-rummy-rearrange", "kind": "most-tiles",
     "goal": "Place as many tiles from your rack as you can (the best play places 5)",
     "position": {"table": ["r3 r4 r5 r6", ...], "rack": "r7 y7 ..."},
     "target": {"tiles": 5}, "solution": {"table": [...]}, "themes": ["split-run"],
     "difficulty": 1640, "search": {...}, "source": {...}}

`position`, `solution` and `search` are each game's own (`rearrange.py`, `house.py`); `target` names its
unit: `tiles` (tiles placed from the rack, net of jokers taken back) or, for an opening, `points`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from apps.engine.game import JSON

#: The id's prefix per game: short, and it says which game a puzzle is at a glance.
ID_PREFIX = {"tile-rummy": "h", "tile-rummy-rearrange": "r"}


def puzzle_id(game: str, kind: str, position: JSON) -> str:
    """A stable id: the game's letter and the first 12 hex digits of SHA-256 over the game, the goal and
    the position's canonical JSON (keys sorted, no spaces)."""
    text = json.dumps([game, kind, position], sort_keys=True, separators=(",", ":"))
    return f"{ID_PREFIX.get(game, 'p')}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


@dataclass(frozen=True, slots=True)
class Puzzle:
    game: str
    kind: str
    goal: str
    position: JSON
    target: dict[str, int]
    solution: JSON
    themes: tuple[str, ...] = ()
    difficulty: int = 1500
    search: JSON = field(default_factory=dict)
    source: JSON = field(default_factory=dict)

    @property
    def id(self) -> str:
        return puzzle_id(self.game, self.kind, self.position)

    @property
    def unit(self) -> str:
        """What the target counts: "tiles" or "points"."""
        return next(iter(self.target))

    @property
    def goal_value(self) -> int:
        return self.target[self.unit]

    def to_dict(self) -> JSON:
        return {
            "id": self.id,
            "game": self.game,
            "kind": self.kind,
            "goal": self.goal,
            "position": self.position,
            "target": dict(self.target),
            "solution": self.solution,
            "themes": list(self.themes),
            "difficulty": self.difficulty,
            "search": self.search,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: JSON) -> Puzzle:
        """The puzzle of `data` (KeyError / ValueError when a field is missing or malformed; an `id` that
        is not the hash of the position is refused: the position was edited)."""
        target = {str(key): int(value) for key, value in dict(data["target"]).items()}
        if len(target) != 1:
            raise ValueError(f"A puzzle's target names one unit, not {sorted(target)}")
        puzzle = cls(
            game=str(data["game"]),
            kind=str(data["kind"]),
            goal=str(data["goal"]),
            position=data["position"],
            target=target,
            solution=data["solution"],
            themes=tuple(str(theme) for theme in data.get("themes", ())),
            difficulty=int(data.get("difficulty", 1500)),
            search=dict(data.get("search", {})),
            source=dict(data.get("source", {})),
        )
        stored = data.get("id")
        if stored is not None and stored != puzzle.id:
            raise ValueError(f"Puzzle {stored!r} has another position than its id says ({puzzle.id!r})")
        return puzzle


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one answer. `right`: the play is legal and reaches the target; `short_by`: how far
    it falls short, in the target's unit (0 when right); `legal`: the game's own check accepted every
    move; `reason`: in English, why it is not right (the engine's message for an illegal play), with
    `code` the engine's message code when the engine refused it (the site translates by code)."""

    right: bool
    short_by: int
    reason: str = ""
    legal: bool = True
    reached: int = 0
    unit: str = "tiles"
    code: str | None = None

    def to_dict(self) -> JSON:
        return {
            "right": self.right,
            "short_by": self.short_by,
            "reason": self.reason,
            "legal": self.legal,
            "reached": self.reached,
            "unit": self.unit,
            "code": self.code,
        }


def read_puzzles(lines: Iterable[str]) -> Iterator[Puzzle]:
    """The puzzles of JSON lines (blank lines skipped)."""
    for line in lines:
        if line.strip():
            yield Puzzle.from_dict(json.loads(line))


def puzzle_line(puzzle: Puzzle) -> str:
    """One puzzle as one JSON line (no newline)."""
    return json.dumps(puzzle.to_dict(), separators=(", ", ": "))


def as_json(value: Any) -> JSON:
    """`value` through a JSON round trip (tuples become lists): what a stored puzzle holds."""
    loaded: JSON = json.loads(json.dumps(value))
    return loaded
