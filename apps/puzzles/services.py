"""The write path of puzzles: judging an answer and rating it (once per player and puzzle), giving up,
moving a streak on, and choosing the day's puzzle (once per date, even with two workers at once)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from apps.engine.puzzles import Verdict, judge
from apps.engine.puzzles.glicko2 import attempt as glicko_attempt
from apps.engine.puzzles.record import Puzzle as Record
from apps.puzzles import selectors
from apps.puzzles.models import Attempt, DailyPuzzle, Puzzle, PuzzleRating

#: The longest answer the server reads (a Rearrange table of 106 tiles in notation is under 500 characters).
MAX_ANSWER = 2000


class AnswerRefused(ValueError):
    """The answer cannot be judged (too long, or not text): nothing was recorded."""


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    #: This answer was the player's rated one (the first for this puzzle); later ones change nothing.
    rated: bool
    rating_before: float
    rating_after: float
    puzzle_rating: float


def record_of(puzzle: Puzzle) -> Record:
    """The engine's puzzle of a row (for the judge)."""
    return Record(
        game=puzzle.game, kind=puzzle.kind, goal="", position=puzzle.position, target=dict(puzzle.target),
        solution=puzzle.solution, themes=tuple(puzzle.theme_list), difficulty=puzzle.difficulty,
    )  # fmt: skip


def _rate(
    *, user_id: int, puzzle_id: int, verdict: Verdict, gave_up: bool, answer: str, seconds: int | None
) -> Outcome:
    """Record the player's first answer to the puzzle and move both ratings, in one transaction: the
    player's rating row is locked first, so two answers at once (two tabs) queue, and the attempt's
    unique (user, puzzle) makes the second one a repeat that changes nothing."""
    with transaction.atomic():
        PuzzleRating.objects.get_or_create(user_id=user_id)
        player = PuzzleRating.objects.select_for_update().get(user_id=user_id)
        if Attempt.objects.filter(user_id=user_id, puzzle_id=puzzle_id).exists():
            puzzle_rating = Puzzle.objects.values_list("rating", flat=True).get(pk=puzzle_id)
            return Outcome(verdict, False, player.rating, player.rating, puzzle_rating)
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        new_player, new_puzzle = glicko_attempt(player.glicko, puzzle.glicko, verdict.right)
        Attempt.objects.create(
            user_id=user_id, puzzle=puzzle, right=verdict.right, short_by=verdict.short_by, gave_up=gave_up,
            answer=answer[:MAX_ANSWER], rating_before=player.rating, rating_after=new_player.rating,
            puzzle_rating_before=puzzle.rating, seconds=seconds,
        )  # fmt: skip
        before = player.rating
        player.rating, player.deviation, player.volatility = (
            new_player.rating,
            new_player.deviation,
            new_player.volatility,
        )
        player.rated += 1
        player.save()
        puzzle.rating, puzzle.deviation, puzzle.volatility = (
            new_puzzle.rating,
            new_puzzle.deviation,
            new_puzzle.volatility,
        )
        puzzle.plays += 1
        puzzle.solved += verdict.right
        puzzle.save(update_fields=["rating", "deviation", "volatility", "plays", "solved"])
        return Outcome(verdict, True, before, player.rating, puzzle.rating)


def puzzle_answer(*, user_id: int, puzzle_id: int, answer: object, seconds: int | None = None) -> Outcome:
    """Judge `answer` (the game's play: for Rearrange the whole table as the player leaves it, in
    notation) with the engine, outside any lock, then rate it if it is the player's first."""
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER:
        raise AnswerRefused(f"An answer is the play in notation, at most {MAX_ANSWER} characters")
    puzzle = Puzzle.objects.get(pk=puzzle_id)
    verdict = judge(record_of(puzzle), answer)
    return _rate(user_id=user_id, puzzle_id=puzzle_id, verdict=verdict, gave_up=False, answer=answer, seconds=seconds)


def puzzle_give_up(*, user_id: int, puzzle_id: int) -> Outcome:
    """The player gives up: a miss (rated if it is their first answer), and the solution may be shown."""
    puzzle = Puzzle.objects.get(pk=puzzle_id)
    verdict = Verdict(False, puzzle.goal_value, "Gave up", reached=0, unit=next(iter(puzzle.target)))
    return _rate(user_id=user_id, puzzle_id=puzzle_id, verdict=verdict, gave_up=True, answer="", seconds=None)


def streak_end(*, user_id: int, streak: int) -> None:
    """A streak ended at `streak` right answers in a row: keep it if it is the player's best."""
    with transaction.atomic():
        PuzzleRating.objects.get_or_create(user_id=user_id)
        player = PuzzleRating.objects.select_for_update().get(user_id=user_id)
        if streak > player.best_streak:
            player.best_streak = streak
            player.save(update_fields=["best_streak", "updated_at"])


def daily_choose(day: datetime.date, *, tries: int = 5) -> DailyPuzzle | None:
    """The puzzle of `day`, choosing it if it has none: the first of `selectors.daily_candidates` (never a
    day's puzzle before). The date is unique, so two workers (or requests) choosing at once make one
    row: the loser reads the winner's. None when no puzzle is left to choose."""
    for _ in range(tries):
        chosen = selectors.daily(day)
        if chosen is not None:
            return chosen
        candidate = selectors.daily_candidates().first()
        if candidate is None:
            return None
        try:
            with transaction.atomic():
                return DailyPuzzle.objects.create(date=day, puzzle=candidate)
        except IntegrityError:
            continue  # the day was taken (read it on the next pass), or the puzzle by another day: choose again
    return selectors.daily(day)
