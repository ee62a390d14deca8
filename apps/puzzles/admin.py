from __future__ import annotations

from django.contrib import admin

from apps.puzzles.models import Attempt, DailyPuzzle, Puzzle, PuzzleRating


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("id", "key", "game", "kind", "themes", "difficulty", "rating", "deviation", "plays", "solved")
    list_filter = ("game", "kind")
    search_fields = ("key", "themes")
    readonly_fields = ("key", "position", "target", "solution", "search", "source", "created_at")


@admin.register(PuzzleRating)
class PuzzleRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "rating", "deviation", "rated", "best_streak", "updated_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("user", "puzzle", "right", "short_by", "gave_up", "rating_before", "rating_after", "created_at")
    list_filter = ("right", "gave_up")
    raw_id_fields = ("user", "puzzle")


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(admin.ModelAdmin):
    list_display = ("date", "puzzle", "created_at")
    raw_id_fields = ("puzzle",)
