"""Moderators run arenas here: create, edit, cancel, stop, and remove a player (SPEC 16)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from apps.tournaments import services
from apps.tournaments.models import Entry, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "points", "streak", "matches", "paused", "removed")
    readonly_fields = ("user", "points", "streak", "matches", "paused", "removed")
    can_delete = False
    ordering = ("-points",)
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "seats", "turn_seconds", "minutes", "rated", "status", "starts_at")
    list_filter = ("status", "game", "rated")
    search_fields = ("name",)
    readonly_fields = ("status", "finished_at", "calendar_key", "reminded", "version", "winner", "podium", "created_at")
    inlines = [EntryInline]
    actions = ["cancel", "stop"]

    @admin.action(description=_("Cancel the selected tournaments"))
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            services.tournament_cancel(tournament_id=tournament.pk)
        messages.success(request, _("Cancelled."))

    @admin.action(description=_("Stop the selected tournaments now (the podium is kept)"))
    def stop(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            services.tournament_stop(tournament_id=tournament.pk)
        messages.success(request, _("Stopped."))


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("tournament", "user", "points", "matches", "paused", "removed")
    list_filter = ("removed", "paused")
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("tournament", "user")
    readonly_fields = ("points", "streak", "matches", "wins", "perf_sum", "perf_count", "reached_at", "marks", "last_table")
    actions = ["remove_player"]

    @admin.action(description=_("Remove the selected players from their tournament"))
    def remove_player(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset:
            services.tournament_remove_player(tournament_id=entry.tournament_id, user_id=entry.user_id)
        messages.success(request, _("Removed."))
