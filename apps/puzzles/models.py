"""Puzzles (SPEC 18): the positions the engine proved (`apps/engine/puzzles`), each player's puzzle rating,
every answer, and the day's puzzle.

A puzzle's `key` is the engine's id (a hash of the game, the goal and the position), unique: loading the
same file twice, or the same position found by two runs, makes one row. Ratings are Glicko-2
(`apps.engine.puzzles.glicko2`), rated once per player and puzzle: the first answer (or giving up) is
the player's `Attempt`, unique per (user, puzzle); later tries are judged but change nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.engine.puzzles.glicko2 import START_DEVIATION, START_RATING, START_VOLATILITY, Rating


class Puzzle(models.Model):
    key = models.CharField(_("key"), max_length=40, unique=True)
    game = models.CharField(_("game"), max_length=40, db_index=True)
    kind = models.CharField(_("goal"), max_length=20)
    position = models.JSONField(_("position"))
    target = models.JSONField(_("target"))
    # Never shown before the player answers or gives up (views.solution checks the attempt).
    solution = models.JSONField(_("solution"))
    # The themes, space separated with a space at each end (" freed-joker split-run "), so one theme is
    # a `contains` lookup on every database (SQLite has no JSON containment).
    themes = models.CharField(_("themes"), max_length=200, blank=True, default="")
    difficulty = models.IntegerField(_("difficulty estimate"), default=1500)
    search = models.JSONField(_("search"), default=dict, blank=True)
    source = models.JSONField(_("source"), default=dict, blank=True)
    rating = models.FloatField(_("rating"), default=START_RATING, db_index=True)
    deviation = models.FloatField(_("rating deviation"), default=START_DEVIATION)
    volatility = models.FloatField(_("volatility"), default=START_VOLATILITY)
    plays = models.PositiveIntegerField(_("plays"), default=0)
    solved = models.PositiveIntegerField(_("solved"), default=0)
    created_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        ordering = ["id"]

    def __str__(self) -> str:
        return self.key

    @property
    def theme_list(self) -> list[str]:
        return self.themes.split()

    @property
    def goal_value(self) -> int:
        return int(next(iter(self.target.values())))

    @property
    def glicko(self) -> Rating:
        return Rating(self.rating, self.deviation, self.volatility)


class PuzzleRating(models.Model):
    """A player's puzzle rating (Glicko-2, 1500 to start) and best streak."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating")
    rating = models.FloatField(_("rating"), default=START_RATING)
    deviation = models.FloatField(_("rating deviation"), default=START_DEVIATION)
    volatility = models.FloatField(_("volatility"), default=START_VOLATILITY)
    rated = models.PositiveIntegerField(_("puzzles rated"), default=0)
    best_streak = models.PositiveIntegerField(_("best streak"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("puzzle rating")
        verbose_name_plural = _("puzzle ratings")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating:.0f}"

    @property
    def glicko(self) -> Rating:
        return Rating(self.rating, self.deviation, self.volatility)


class Attempt(models.Model):
    """A player's first answer to a puzzle (the rated one): right, or short by `short_by`, or given up."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    right = models.BooleanField(_("right"), default=False)
    short_by = models.PositiveIntegerField(_("short by"), default=0)
    gave_up = models.BooleanField(_("gave up"), default=False)
    answer = models.TextField(_("answer"), blank=True, default="")
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    puzzle_rating_before = models.FloatField(_("puzzle rating before"))
    seconds = models.PositiveIntegerField(_("seconds"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("attempt")
        verbose_name_plural = _("attempts")
        constraints = [models.UniqueConstraint(fields=["user", "puzzle"], name="puzzles_attempt_once")]
        indexes = [models.Index(fields=["user", "-created_at"], name="puzzles_attempt_history")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.puzzle_id} {'right' if self.right else 'missed'}"


class DailyPuzzle(models.Model):
    """The day's puzzle (a date in Europe/Bucharest): one a day, and never the same puzzle twice."""

    date = models.DateField(_("date"), unique=True)
    puzzle = models.OneToOneField(Puzzle, on_delete=models.PROTECT, related_name="daily")
    created_at = models.DateTimeField(_("chosen at"), auto_now_add=True)

    class Meta:
        verbose_name = _("daily puzzle")
        verbose_name_plural = _("daily puzzles")
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"{self.date}: {self.puzzle_id}"
