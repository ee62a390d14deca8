"""Moderators see who waits in which pool, the seeks in the lobby, and the recent waits (SPEC 15)."""

from __future__ import annotations

from django.contrib import admin

from apps.pairing.models import PoolEntry, Seek, Wait


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "seats", "pace", "rated", "bot_fill", "rating", "provisional", "leaver",
                    "waves", "since", "seen_at", "table_id", "arrived")
    list_filter = ("game", "seats", "pace", "rated", "provisional", "leaver")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    ordering = ("game", "seats", "pace", "rated", "joined_at")


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "seats", "pace", "rated", "rating", "rating_min", "rating_max", "created_at", "seen_at")
    list_filter = ("game", "seats", "pace", "rated")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Wait)
class WaitAdmin(admin.ModelAdmin):
    list_display = ("pool", "seconds", "at")
    list_filter = ("pool",)
    date_hierarchy = "at"
