"""The chat and the reports in the Django admin: messages by table, match and author, with their
deletion; reports with their context, filterable, marked handled. Actions call the chat's services and
are written to the admin log."""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.chat import services
from apps.chat.models import ChatMessage, ChatMute, ModeratorMute, Report


def log_action(request: HttpRequest, obj: Model, message: str) -> None:
    user_id = request.user.pk
    assert user_id is not None  # the admin serves signed-in staff only
    LogEntry.objects.log_actions(
        user_id=user_id, queryset=[obj], action_flag=CHANGE, change_message=message, single_object=True
    )


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "table", "match", "author", "seat", "text", "phrase", "deleted_at", "deleted_by")
    list_filter = ("phrase", ("deleted_at", admin.EmptyFieldListFilter))
    search_fields = ("text", "author__username", "=table__id", "=match__id")
    readonly_fields = [f.name for f in ChatMessage._meta.fields]
    list_select_related = ("author", "deleted_by")
    raw_id_fields = ("table", "match", "author")
    date_hierarchy = "created_at"
    actions = ["delete_messages"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # a message is marked deleted, never removed: moderators see what was said

    @admin.action(description=gettext_lazy("Delete the selected messages from every screen (kept here, marked)"))
    def delete_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        done = 0
        for message in queryset:
            services.chat_delete(message_id=message.pk, by=request.user)
            log_action(request, message, _("Deleted the message"))
            done += 1
        self.message_user(request, ngettext("%(count)s message deleted.", "%(count)s messages deleted.", done)
                          % {"count": done}, messages.SUCCESS)


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ("viewer", "muted", "created_at")
    search_fields = ("viewer__username", "muted__username")
    raw_id_fields = ("viewer", "muted")


@admin.register(ModeratorMute)
class ModeratorMuteAdmin(admin.ModelAdmin):
    """The moderators' mutes of accounts' chat, read only: they are made and lifted by the actions of the
    account list (apps/moderation/admin.py), which log them."""

    list_display = ("user", "until", "by", "reason", "created_at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "by")
    readonly_fields = ("user", "until", "by", "reason", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "reporter", "reported", "reason", "table", "match", "message", "handled")
    list_filter = ("handled", "reason", "created_at")
    search_fields = ("reporter__username", "reported__username", "text", "=table__id")
    readonly_fields = ("reporter", "reported", "message", "table", "match", "reason", "text", "created_at",
                       "context_shown", "handled_by")
    exclude = ("context",)
    raw_id_fields = ("reporter", "reported", "message", "table", "match")
    list_select_related = ("reporter", "reported", "message")
    actions = ["mark_handled"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("context"))
    def context_shown(self, report: Report) -> str:
        lines = [f"{_('match')}: {report.context.get('match')} · {_('version')}: {report.context.get('version')}"]
        for message in report.context.get("messages", []):
            said = message.get("text") or f"[{message.get('phrase')}]"
            gone = f" ({_('deleted')})" if message.get("deleted") else ""
            lines.append(f"{message.get('at', '')[:19]} {message.get('name')}: {said}{gone}")
        return format_html("<pre>{}</pre>", "\n".join(lines) or json.dumps(report.context))

    def save_model(self, request: HttpRequest, obj: Report, form: object, change: bool) -> None:
        if obj.handled and obj.handled_by_id is None:
            obj.handled_by = request.user  # type: ignore[assignment]  # the admin's user is signed in, not anonymous
        super().save_model(request, obj, form, change)

    @admin.action(description=gettext_lazy("Mark the selected reports handled"))
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        done = queryset.filter(handled=False).update(handled=True, handled_by=request.user)
        self.message_user(request, ngettext("%(count)s report marked handled.", "%(count)s reports marked handled.", done)
                          % {"count": done}, messages.SUCCESS)
