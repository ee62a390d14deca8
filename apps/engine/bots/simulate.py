"""Bot-only games for benchmarks (SPEC 9 `simulate`): `python -m apps.engine simulate --game SLUG
--bots hard,easy --games N --seed S`.

The games are luck-heavy, so they are mirror-paired: each deal is played once per rotation of the bots
around the table (with two bots: twice, seats swapped), and every bot plays every hand of the deal. Entrant
i is the i-th bot named in `--bots`; its wins count shared first places as a fraction (half, with two).

Everything is seeded: deal d is shuffled by `Random(f"{seed}:{d}")` and the bots of its rotation r draw
from `Random(f"{seed}:{d}:{r}")`, so the same command prints the same figures (times apart).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from apps.engine.bots import Bot, get_bot
from apps.engine.errors import EngineError, InvalidMove
from apps.engine.game import JSON, GameResult, Rules, game_slugs, get_rules

#: A game longer than this many moves is a bot that cannot finish: an error, not a result.
MAX_MOVES = 20000


@dataclass(slots=True)
class _Tally:
    """What the simulation gathers, per entrant and per bot level."""

    entrants: int
    wins: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    games: int = 0
    turns: int = 0
    seconds: float = 0.0
    move_seconds: dict[str, list[float]] = field(default_factory=dict)
    move_cpu: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.entrants
        self.scores = [0] * self.entrants


@dataclass(frozen=True, slots=True)
class PlayedGame:
    result: GameResult
    turns: int
    moves: int


def play_game(
    rules: Rules[Any],
    state: Any,
    bots: Sequence[Bot],
    rng: random.Random,
    move_seconds: dict[str, list[float]] | None = None,
    move_cpu: dict[str, list[float]] | None = None,
) -> PlayedGame:
    """Play `state` to its end, `bots[seat]` moving for each seat from its own view only. Each bot's
    thinking time goes to `move_seconds[level]` when given (wall clock), its CPU time to `move_cpu`."""
    turns = 0
    moves = 0
    last: int | None = None
    clock = time.perf_counter
    cpu = time.process_time
    while (seat := rules.to_move(state)) is not None:
        bot = bots[seat]
        view = rules.view_for(state, seat)
        started, started_cpu = clock(), cpu()
        move = bot.next_move(view, rng)
        if move_seconds is not None:
            move_seconds.setdefault(bot.level, []).append(clock() - started)
        if move_cpu is not None:
            move_cpu.setdefault(bot.level, []).append(cpu() - started_cpu)
        try:
            state = rules.apply(state, seat, move)
        except EngineError as error:
            raise EngineError(
                f"The {bot.level} bot in seat {seat} played an illegal move {str(move)!r}: {error}",
                "bot_illegal_move",
                level=bot.level,
                seat=seat,
                move=str(move),
                error=error,
            ) from error
        moves += 1
        if seat != last:
            turns += 1
            last = seat
        if moves > MAX_MOVES:
            raise EngineError(f"A game of {rules.slug} went past {MAX_MOVES} moves: a bot cannot finish it", "bot_endless_game", game=rules.slug, moves=MAX_MOVES)
    result = rules.result(state)
    assert result is not None
    return PlayedGame(result, turns, moves)


def winners_share(scores: Sequence[int]) -> list[float]:
    """Each seat's share of the win: 1 for the best score, split equally between equal best scores."""
    best = max(scores)
    winners = [seat for seat, points in enumerate(scores) if points == best]
    return [1 / len(winners) if seat in winners else 0.0 for seat in range(len(scores))]


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of `values` (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(fraction * len(ordered) + 0.999999) - 1))
    return ordered[index]


def simulate(slug: str, levels: Sequence[str], games: int, seed: int) -> JSON:
    """Play at least `games` bot-only games (rounded up to whole mirrored deals) and summarise them."""
    rules = get_rules(slug)
    seats = len(levels)
    if not rules.min_seats <= seats <= rules.max_seats:
        raise InvalidMove(
            f"{rules.name} is played by {rules.min_seats}-{rules.max_seats} players: name that many bots, not {seats}",
            "simulate_seats",
            game=rules.slug,
            low=rules.min_seats,
            high=rules.max_seats,
            seats=seats,
        )
    if games < 1:
        raise InvalidMove(f"Simulate at least one game, not {games}", "simulate_games", games=games)
    bots = [get_bot(slug, level) for level in levels]
    deals = -(-games // seats)
    tally = _Tally(seats)
    for deal in range(deals):
        for rotation in range(seats):
            # Entrant i sits at seat (i + rotation) % seats.
            at_seat = [bots[(seat - rotation) % seats] for seat in range(seats)]
            state = rules.new_game(seats, random.Random(f"{seed}:{deal}"))
            started = time.perf_counter()
            played = play_game(rules, state, at_seat, random.Random(f"{seed}:{deal}:{rotation}"), tally.move_seconds, tally.move_cpu)
            tally.seconds += time.perf_counter() - started
            shares = winners_share(played.result.scores)
            for entrant in range(seats):
                seat = (entrant + rotation) % seats
                tally.wins[entrant] += shares[seat]
                tally.scores[entrant] += played.result.scores[seat]
            tally.games += 1
            tally.turns += played.turns
    return _summary(slug, levels, seed, deals, tally)


def _summary(slug: str, levels: Sequence[str], seed: int, deals: int, tally: _Tally) -> JSON:
    games = tally.games
    return {
        "game": slug,
        "bots": list(levels),
        "seed": seed,
        "games": games,
        "deals": deals,
        "seats": [
            {
                "seat": entrant,
                "bot": level,
                "wins": tally.wins[entrant],
                "win_rate": round(tally.wins[entrant] / games, 4),
                "mean_score": round(tally.scores[entrant] / games, 2),
            }
            for entrant, level in enumerate(levels)
        ],
        "mean_turns": round(tally.turns / games, 2),
        "seconds_per_game": round(tally.seconds / games, 5),
        "games_per_second": round(games / tally.seconds, 2) if tally.seconds else None,
        "move_ms": {
            level: {
                "moves": len(times),
                "p50": round(percentile(times, 0.50) * 1000, 3),
                "p99": round(percentile(times, 0.99) * 1000, 3),
                "max": round(max(times) * 1000, 3),
            }
            for level, times in sorted(tally.move_seconds.items())
        },
        "move_cpu_ms": {
            level: {
                "p50": round(percentile(times, 0.50) * 1000, 3),
                "p99": round(percentile(times, 0.99) * 1000, 3),
                "max": round(max(times) * 1000, 3),
            }
            for level, times in sorted(tally.move_cpu.items())
        },
    }


# --- the command line (registered in apps/engine/cli.py) ------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, choices=game_slugs(), help="the game's slug")
    parser.add_argument("--bots", required=True, help="one bot level per seat, comma separated: hard,easy")
    parser.add_argument("--games", type=int, default=100, help="games to play (rounded up to whole mirrored deals)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of every deal and every bot decision")


def run(args: argparse.Namespace) -> JSON:
    levels = [level.strip() for level in str(args.bots).split(",") if level.strip()]
    return simulate(args.game, levels, int(args.games), int(args.seed))
