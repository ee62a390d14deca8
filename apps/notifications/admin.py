from django.contrib import admin

from apps.notifications.models import Notification, PushSettings, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "actor", "table_id", "created_at", "read_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "actor")
    date_hierarchy = "created_at"


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "language")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    readonly_fields = ("endpoint", "p256dh", "auth", "created_at")


@admin.register(PushSettings)
class PushSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "time_zone", "quiet_from", "quiet_to")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
