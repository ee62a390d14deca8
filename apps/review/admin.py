from django.contrib import admin

from apps.review.models import GameReview, HintUse


@admin.register(GameReview)
class GameReviewAdmin(admin.ModelAdmin):
    list_display = ("game", "status", "attempts", "created_at", "finished_at")
    list_filter = ("status",)
    readonly_fields = ("game", "status", "data", "error", "attempts", "created_at", "finished_at")


@admin.register(HintUse)
class HintUseAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "user", "number", "move", "created_at")
    readonly_fields = ("game", "seat", "user", "number", "move", "version", "created_at")
