"""Making puzzles: positions from bot self-play (or from finished games' records), each seat's view at the
start of its turn offered to its game's puzzle finder (`games.py`), duplicates dropped by id. One puzzle
per seat per game at most: a seat's positions a few turns apart are mostly the same puzzle again.

Everything is seeded, as `simulate` is: game g of a run is dealt by `Random(f"{seed}:{g}")` and its bots
draw from `Random(f"{seed}:{g}:bots")`, so the same command writes the same puzzles (the search's
states are counted, not timed: `effort.py`).

`check` rechecks stored puzzles: each game's `recheck` (the exact search again, and the stored solution
through the judge).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from apps.engine.bots import get_bot
from apps.engine.bots.simulate import MAX_MOVES
from apps.engine.errors import EngineError
from apps.engine.game import JSON, Draw, Rules, get_rules
from apps.engine.puzzles.games import puzzle_game
from apps.engine.puzzles.record import Puzzle
from apps.engine.records import GameRecord

#: A run that finds nothing in this many games per puzzle asked for stops (a bound, not a target).
GAMES_PER_PUZZLE = 40


@dataclass(frozen=True, slots=True)
class Candidate:
    """A seat's view at some point of a game, whether it is the start of its turn, and where it is from."""

    view: JSON
    fresh: bool
    source: JSON


def _candidates(rules: Rules[Any], state: Any, moves: Iterable[tuple[int, Any]] | None, bots: Sequence[Any] | None,
                rng: random.Random | None, source: JSON) -> Iterator[Candidate]:  # fmt: skip
    """The views of the seat to move before each move, played by `bots` (self-play) or read from `moves`
    (a record's (seat, move) pairs). A view is fresh when the seat just got the turn or just drew."""
    last_seat: int | None = None
    last_move: Any = None
    recorded = iter(moves) if moves is not None else None
    for number in range(MAX_MOVES):
        seat = rules.to_move(state)
        if seat is None:
            return
        fresh = seat != last_seat or isinstance(last_move, Draw)
        view = rules.view_for(state, seat)
        yield Candidate(view, fresh, {**source, "move": number, "seat": seat})
        if recorded is not None:
            step = next(recorded, None)
            if step is None:
                return
            seat, move = step
            move = rules.parse_move(move) if isinstance(move, str) else move
        else:
            assert bots is not None and rng is not None
            move = bots[seat].next_move(view, rng)
        state = rules.apply(state, seat, move)
        last_seat, last_move = seat, move


def self_play(slug: str, levels: Sequence[str], seed: int, games: int | None = None) -> Iterator[Candidate]:
    """Candidates from bot-only games (`levels`: one bot level per seat), game after game."""
    rules = get_rules(slug)
    bots = [get_bot(slug, level) for level in levels]
    game = 0
    while games is None or game < games:
        state = rules.new_game(len(levels), random.Random(f"{seed}:{game}"))
        source = {"from": "self-play", "bots": ",".join(levels), "seed": seed, "game": game}
        yield from _candidates(rules, state, None, bots, random.Random(f"{seed}:{game}:bots"), source)
        game += 1


def from_records(records: Iterable[JSON]) -> Iterator[Candidate]:
    """Candidates from finished games' records (the record format of `records.py`)."""
    for index, data in enumerate(records):
        record = GameRecord.from_dict(data)
        rules = get_rules(record.game)
        state = rules.from_deal(record.deal)
        source = {
            "from": "record",
            "record": index,
            **({"table": data["info"]["table"]} if "table" in data.get("info", {}) else {}),
        }
        yield from _candidates(rules, state, ((move.seat, move.move) for move in record.moves), None, None, source)


@dataclass(slots=True)
class Tally:
    """What a run looked at: games, fresh views offered, puzzles made. (The engine reads no clock: the
    bench times a run, `bench/puzzles.py`.)"""

    games: int = 0
    positions: int = 0
    puzzles: int = 0
    duplicates: int = 0
    kinds: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> JSON:
        return {
            "games": self.games,
            "positions": self.positions,
            "puzzles": self.puzzles,
            "duplicates": self.duplicates,
            "share": round(self.puzzles / self.positions, 4) if self.positions else 0.0,
            "kinds": dict(sorted(self.kinds.items())),
        }


def generate(
    candidates: Iterable[Candidate], count: int, tally: Tally | None = None, game: str | None = None
) -> Iterator[Puzzle]:
    """Up to `count` new puzzles from `candidates` (of `game` only, when given), in the order found."""
    tally = tally if tally is not None else Tally()
    seen: set[str] = set()
    done: set[tuple[object, object, object]] = set()  # (game, record, seat): one puzzle each, for variety
    last_game: object = None
    for candidate in candidates:
        if tally.puzzles >= count:
            return
        slug = candidate.view["game"]
        key = (candidate.source.get("game"), candidate.source.get("record"))
        if key != last_game:
            tally.games += 1
            last_game = key
        if game is not None and slug != game or not candidate.fresh:
            continue
        tally.positions += 1
        who = (*key, candidate.source.get("seat"))
        if who in done:
            continue
        puzzle = puzzle_game(slug).find_in_view(candidate.view, True, candidate.source)
        if puzzle is None:
            continue
        share = puzzle_game(slug).max_share.get(puzzle.kind)
        if share is not None and tally.kinds.get(puzzle.kind, 0) >= math.ceil(share * count):
            continue
        if puzzle.id in seen:
            tally.duplicates += 1
            continue
        seen.add(puzzle.id)
        done.add(who)
        tally.puzzles += 1
        tally.kinds[puzzle.kind] = tally.kinds.get(puzzle.kind, 0) + 1
        yield puzzle


def check(puzzles: Iterable[Puzzle]) -> JSON:
    """Recheck every puzzle: a summary with the failures (id and what is wrong)."""
    checked = 0
    failures: list[JSON] = []
    seen: set[str] = set()
    for puzzle in puzzles:
        checked += 1
        try:
            problem = puzzle_game(puzzle.game).recheck(puzzle)
        except (EngineError, KeyError, ValueError) as error:
            problem = f"{type(error).__name__}: {error}"
        if problem is None and puzzle.id in seen:
            problem = "a duplicate of an earlier puzzle"
        seen.add(puzzle.id)
        if problem is not None:
            failures.append({"id": puzzle.id, "problem": problem})
    return {"checked": checked, "ok": checked - len(failures), "failed": len(failures), "failures": failures}
