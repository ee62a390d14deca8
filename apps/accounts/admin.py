"""The users in the admin: search, filters, and who each is (guest, ban, last seen). Bans are read-only
here; the moderators' actions (ban, lift, booster, chat mute) are added by apps/moderation/admin.py,
which extends this admin from above (the accounts app names no app above it)."""

from __future__ import annotations

from typing import ClassVar

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import User


class BannedFilter(admin.SimpleListFilter):
    title = _("ban")
    parameter_name = "banned"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[User]) -> list[tuple[str, str]]:
        return [("yes", gettext("Banned now")), ("no", gettext("Not banned"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        now = timezone.now()
        if self.value() == "yes":
            return queryset.filter(banned_until__gt=now)
        if self.value() == "no":
            return queryset.exclude(banned_until__gt=now)
        return queryset


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    # Typed as any such tuple, not as these: the moderators' admin (apps/moderation/admin.py) extends them.
    list_display: tuple[str, ...] = ("username", "email", "is_guest", "banned", "last_seen", "date_joined", "is_staff")
    list_filter: ClassVar[tuple[str | type[admin.ListFilter], ...]] = (
        "is_guest", BannedFilter, "is_staff", "is_active", "date_joined"
    )
    search_fields = ("username", "email")
    ordering = ("-date_joined",)
    # Bans go through the moderators' actions (a service, a log line with the reason), never by editing fields.
    readonly_fields: ClassVar[tuple[str, ...]] = (
        "is_guest", "banned_until", "ban_reason", "last_seen", "last_login", "date_joined"
    )
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Tile Rummy"), {"fields": ("is_guest", "banned_until", "ban_reason", "last_seen")}),
    )

    @admin.display(boolean=True, description=_("banned"))
    def banned(self, user: User) -> bool:
        return user.is_banned
