"""Reading puzzles: the next one for a player (near their rating), a theme's, a streak's, the day's, the
history, and whether a player may see a solution."""

from __future__ import annotations

import datetime
import random
from zoneinfo import ZoneInfo

from django.db.models import F, FloatField, QuerySet, Value
from django.db.models.functions import Abs
from django.utils import timezone

from apps.engine.puzzles.glicko2 import START_RATING
from apps.puzzles.models import Attempt, DailyPuzzle, Puzzle, PuzzleRating

#: The daily puzzle changes at midnight here (SPEC 18).
DAILY_ZONE = ZoneInfo("Europe/Bucharest")
#: The trainer picks at random among this many unplayed puzzles nearest the player's rating.
NEAR = 8
#: The games the trainer serves.
TRAINER_GAMES = ("tile-rummy-rearrange", "tile-rummy")


def today(now: datetime.datetime | None = None) -> datetime.date:
    """Today's date in Europe/Bucharest."""
    return (now or timezone.now()).astimezone(DAILY_ZONE).date()


def player_rating(user_id: int | None) -> float:
    if user_id is None:
        return START_RATING
    found = PuzzleRating.objects.filter(user_id=user_id).values_list("rating", flat=True).first()
    return START_RATING if found is None else found


def servable() -> QuerySet[Puzzle]:
    return Puzzle.objects.filter(game__in=TRAINER_GAMES)


def _unplayed(user_id: int | None, puzzles: QuerySet[Puzzle]) -> QuerySet[Puzzle]:
    if user_id is None:
        return puzzles
    return puzzles.exclude(attempts__user_id=user_id)


def next_puzzle(
    user_id: int | None, *, theme: str | None = None, exclude: int | None = None, rng: random.Random | None = None
) -> Puzzle | None:
    """A puzzle the player has not answered, among the NEAR nearest their puzzle rating (of `theme`, if
    given); when every one is answered, the one answered longest ago. None when there is none at all."""
    puzzles = servable()
    if theme:
        puzzles = puzzles.filter(themes__contains=f" {theme} ")
    if exclude is not None:
        puzzles = puzzles.exclude(pk=exclude)
    rating = player_rating(user_id)
    near = list(
        _unplayed(user_id, puzzles)
        .annotate(distance=Abs(F("rating") - Value(rating, output_field=FloatField())))
        .order_by("distance", "id")[:NEAR]
    )
    if near:
        return (rng or random.SystemRandom()).choice(near)
    if user_id is None:
        return None
    oldest = Attempt.objects.filter(user_id=user_id, puzzle__in=puzzles).order_by("created_at").first()
    return oldest.puzzle if oldest else None


def streak_puzzle(user_id: int | None, above: float | None) -> Puzzle | None:
    """The streak's next puzzle: the easiest unplayed puzzle rated above `above` (the last one's rating);
    the first starts 300 below the player's rating."""
    floor = player_rating(user_id) - 300 if above is None else above
    puzzles = _unplayed(user_id, servable()).filter(rating__gt=floor).order_by("rating", "id")
    found = puzzles.first()
    if found is None and above is None:
        found = _unplayed(user_id, servable()).order_by("-rating", "id").first()
    return found


def themes() -> list[tuple[str, int]]:
    """Every theme of the servable puzzles, with how many puzzles have it, most common first."""
    counts: dict[str, int] = {}
    for text in servable().values_list("themes", flat=True):
        for theme in text.split():
            counts[theme] = counts.get(theme, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def daily(day: datetime.date) -> DailyPuzzle | None:
    return DailyPuzzle.objects.select_related("puzzle").filter(date=day).first()


def daily_candidates() -> QuerySet[Puzzle]:
    """Puzzles that may be a day's puzzle: never one before, of a game the trainer serves; the
    well-rated first (the surest rating: lowest deviation, then the most played, then the hardest)."""
    return servable().filter(daily__isnull=True).order_by("deviation", "-plays", "-rating", "id")


def attempt_of(user_id: int | None, puzzle_id: int) -> Attempt | None:
    if user_id is None:
        return None
    return Attempt.objects.filter(user_id=user_id, puzzle_id=puzzle_id).first()


def history(user_id: int, limit: int = 100) -> list[Attempt]:
    return list(Attempt.objects.filter(user_id=user_id).select_related("puzzle").order_by("-created_at", "-id")[:limit])
