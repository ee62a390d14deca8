"""Follows, blocks and challenges in the Django admin, for moderators (SPEC 17): searchable by player,
read-only but for removal (a follow or block removed here is as the player's own unfollow or unblock), and
a pending challenge can be cancelled through the challenge service (its players are told)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

from apps.social import services
from apps.social.models import Block, Challenge, ChallengeInvitee, Follow, SocialSettings


class ReadOnly(admin.ModelAdmin):
    """Rows made by players: moderators look and remove, never write them by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Follow)
class FollowAdmin(ReadOnly):
    list_display = ("id", "follower", "followed", "created_at")
    search_fields = ("follower__username", "followed__username")
    list_select_related = ("follower", "followed")
    raw_id_fields = ("follower", "followed")
    date_hierarchy = "created_at"


@admin.register(Block)
class BlockAdmin(ReadOnly):
    list_display = ("id", "blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")
    raw_id_fields = ("blocker", "blocked")
    date_hierarchy = "created_at"


@admin.register(SocialSettings)
class SocialSettingsAdmin(ReadOnly):
    list_display = ("user", "challenges_from")
    list_filter = ("challenges_from",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


class InviteeInline(admin.TabularInline):
    model = ChallengeInvitee
    fields = ("user", "answer", "reason", "answered_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(ReadOnly):
    list_display = ("id", "challenger", "game", "seat_count", "turn_seconds", "match_length", "casual", "open", "status",
                    "created_at", "expires_at", "table_id")
    list_filter = ("status", "game", "open", "casual")
    search_fields = ("challenger__username", "invitees__user__username", "=table_id")
    list_select_related = ("challenger",)
    raw_id_fields = ("challenger",)
    date_hierarchy = "created_at"
    inlines = [InviteeInline]
    actions = ["cancel_challenges"]

    @admin.action(description=gettext_lazy("Cancel the selected pending challenges"))
    def cancel_challenges(self, request: HttpRequest, queryset: QuerySet[Challenge]) -> None:
        cancelled = 0
        for challenge_id in queryset.filter(status=Challenge.Status.PENDING).values_list("pk", flat=True):
            try:
                services.challenge_cancel(by=request.user, challenge_id=challenge_id)  # type: ignore[arg-type]  # the admin serves signed-in staff only
            except services.SocialError:
                continue  # it started, was answered or expired meanwhile
            cancelled += 1
            # Every moderator action is logged (SPEC 11).
            LogEntry.objects.log_actions(
                user_id=int(request.user.pk or 0), queryset=Challenge.objects.filter(pk=challenge_id),
                action_flag=CHANGE, change_message="cancelled", single_object=True,
            )
        self.message_user(
            request,
            ngettext("%(n)s challenge cancelled.", "%(n)s challenges cancelled.", cancelled) % {"n": cancelled},
            messages.SUCCESS,
        )
