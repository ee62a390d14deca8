"""Bot accounts and tokens in the admin: who owns which, and revoking a token through the service (so
its open sockets close at once, as from the owner's page). Bans are the moderators' (apps/moderation/admin.py)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from apps.accounts.requests import SignedInRequest
from apps.bots import services
from apps.bots.models import AccessToken, BotAccount


class TokenInline(admin.TabularInline):
    model = AccessToken
    extra = 0
    can_delete = False
    fields = ("name", "prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # a token is made on the owner's page, where it is shown once


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "owner", "created_at")
    search_fields = ("user__username", "owner__username")
    raw_id_fields = ("user", "owner")
    readonly_fields = ("user", "created_at")
    inlines = [TokenInline]


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "bot", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "bot__user__username", "prefix")
    readonly_fields = ("bot", "name", "prefix", "digest", "created_at", "last_used_at", "revoked_at")
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Revoke the selected tokens (their sockets close at once)"))
    def revoke(self, request: SignedInRequest, queryset: QuerySet[AccessToken]) -> None:
        count = 0
        for token in queryset.filter(revoked_at__isnull=True):
            services.token_revoke(token_id=token.pk, by=request.user)
            count += 1
        self.message_user(request, ngettext("%(count)d token revoked.", "%(count)d tokens revoked.", count)
                          % {"count": count}, messages.SUCCESS)
