"""Moderation of players: search, filters, and bans with an expiry (through the same services as the
site, and recorded in the admin log)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from apps.accounts import services
from apps.accounts.models import User
from apps.moderation.models import ModerationAction
from apps.moderation.services import action_log

BAN_DURATIONS = [
    ("1", _("1 day")),
    ("3", _("3 days")),
    ("7", _("1 week")),
    ("30", _("30 days")),
    ("365", _("1 year")),
    ("until", _("Until the date below")),
]


class BanForm(forms.Form):
    duration = forms.ChoiceField(label=_("Ban for"), choices=BAN_DURATIONS, initial="7", widget=forms.RadioSelect)
    until = forms.DateTimeField(
        label=_("Until (UTC)"), required=False, help_text=_("Only with “Until the date below”. Format: 2026-12-31 18:00")
    )
    reason = forms.CharField(label=_("Reason"), max_length=200, help_text=_("Kept with the account and in the admin log."))

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("duration") == "until":
            until = data.get("until")
            if until is None:
                self.add_error("until", _("Give the date the ban ends."))
            elif until <= timezone.now():
                self.add_error("until", _("The end of a ban must be in the future."))
        return data

    def banned_until(self) -> datetime:
        duration = self.cleaned_data["duration"]
        if duration == "until":
            return self.cleaned_data["until"]
        return timezone.now() + timedelta(days=int(duration))


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
    list_display = ("username", "email", "is_guest", "banned", "last_seen", "date_joined", "is_staff")
    list_filter = ("is_guest", BannedFilter, "is_staff", "is_active", "date_joined")
    search_fields = ("username", "email")
    ordering = ("-date_joined",)
    # Bans go through the actions (a service, a log line with the reason), never by editing fields.
    readonly_fields = ("is_guest", "banned_until", "ban_reason", "last_seen", "last_login", "date_joined")
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Tile Rummy"), {"fields": ("is_guest", "banned_until", "ban_reason", "last_seen")}),
    )
    actions = ["ban_users", "unban_users"]

    @admin.display(boolean=True, description=_("banned"))
    def banned(self, user: User) -> bool:
        return user.is_banned

    @admin.action(description=_("Ban the selected users…"), permissions=["change"])
    def ban_users(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        targets = [user for user in queryset if user.pk != request.user.pk]
        form = BanForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            until = form.banned_until()
            reason = form.cleaned_data["reason"]
            for user in targets:
                services.user_ban(user_id=user.pk, until=until, reason=reason)
                self.log_change(request, user, f"Banned until {until:%Y-%m-%d %H:%M} UTC: {reason}")
                action_log(
                    by=request.user, action=ModerationAction.Kind.BAN, target_id=user.pk, reason=reason,
                    details={"until": until.isoformat()},
                )
            self.message_user(
                request,
                ngettext("%(count)d user banned.", "%(count)d users banned.", len(targets)) % {"count": len(targets)},
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Ban users"),
            "opts": self.model._meta,
            "form": form,
            "targets": targets,
            "skipped_self": len(targets) != len(queryset),
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "accounts/admin_ban.html", context)

    @admin.action(description=_("Lift the ban of the selected users"), permissions=["change"])
    def unban_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        lifted = 0
        for user in queryset.filter(banned_until__isnull=False):
            services.user_unban(user_id=user.pk)
            self.log_change(request, user, "Ban lifted")
            action_log(by=request.user, action=ModerationAction.Kind.UNBAN, target_id=user.pk)
            lifted += 1
        self.message_user(
            request, ngettext("%(count)d ban lifted.", "%(count)d bans lifted.", lifted) % {"count": lifted}, messages.SUCCESS
        )
