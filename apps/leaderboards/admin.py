"""Ratings in the admin: searchable and filterable, read-only (only the rating service writes them)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from apps.leaderboards.models import Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "rating", "matches", "provisional", "peak", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
    ordering = ("game", "-rating")

    @admin.display(boolean=True)
    def provisional(self, rating: Rating) -> bool:
        return rating.provisional


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "match", "user", "game", "place", "before", "after", "delta")
    list_filter = ("game", "created_at")
    search_fields = ("user__username", "=match__id")
    list_select_related = ("user", "match")
    date_hierarchy = "created_at"
