"""Moderator tools in the admin (SPEC 11).

- Bans with an expiry: the account list's actions "ban the selected users" (for a duration, or until a
  date, with a reason) and "lift the ban", through the accounts' services, recorded in the admin log and
  in the moderators' log.
- Each account's page shows the accounts it shares a network address or a browser with, its leaver rate
  and its rating history per opponent; the account list has a "linked" column and filter, and the
  actions "mark as booster" (barred from rated play, its rating gains voided) and "mute the chat for N
  hours" / "lift the chat mute" (SPEC 13: the account plays on, and says nothing at any table).
- Rated matches (the ratings' ledger) have the action "void": the match's rating changes are reversed,
  exactly once, and the players' later ratings recomputed.
- The log of every moderator action, read-only.

The account admin is the accounts app's own (apps/accounts/admin.py), extended here: the accounts app
sits below the tables, the ratings and this app, so the moderators' actions and what they show of the
others are added from here, above all of them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from apps.accounts import services as accounts
from apps.accounts.admin import UserAdmin
from apps.accounts.models import User
from apps.leaderboards.admin import ReadOnlyAdmin
from apps.leaderboards.models import AppliedMatch
from apps.leaderboards.selectors import opponent_history
from apps.moderation.models import ModerationAction, Sighting
from apps.moderation.selectors import linked_accounts, shares_with_another
from apps.moderation.services import (
    account_mark_booster,
    account_mute_chat,
    account_unmute_chat,
    action_log,
    match_void,
)
from apps.tables.selectors import leaver_record

#: How long a ban lasts, as the ban form offers it.
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
            until: datetime = self.cleaned_data["until"]
            return until
        return timezone.now() + timedelta(days=int(duration))


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept in the moderators' log."),
    )


class MuteForm(ReasonForm):
    hours = forms.IntegerField(label=_("Mute the chat for (hours)"), min_value=1, max_value=24 * 365, initial=24)

    field_order = ["hours", "reason"]


def reason_page(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, *, action: str, title: str, explanation: str,
    submit: str, targets: list[tuple[int, str]], skipped_self: bool = False,
) -> tuple[str | None, HttpResponse | None]:
    """The page an action shows first to ask for a reason: (the reason, None) once given, else (None, the
    page to show)."""
    data, page = form_page(model_admin, request, ReasonForm, action=action, title=title, explanation=explanation,
                           submit=submit, targets=targets, skipped_self=skipped_self)
    return (None, page) if data is None else (data["reason"], None)


def form_page(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, form_class: type[forms.Form], *, action: str,
    title: str, explanation: str, submit: str, targets: list[tuple[int, str]], skipped_self: bool = False,
) -> tuple[dict[str, Any] | None, HttpResponse | None]:
    """The page an action shows first to ask for its form (a reason, and what else it needs): (the form's
    values, None) once given, else (None, the page to show)."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        return form.cleaned_data, None
    opts = model_admin.model._meta
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "explanation": explanation,
        "submit": submit,
        "opts": opts,
        "form": form,
        "action": action,
        "targets": [{"pk": pk, "label": label} for pk, label in targets],
        "skipped_self": skipped_self,
        "changelist_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
    }
    return None, TemplateResponse(request, "moderation/admin_reason.html", context)


def _table(headers: list[str], rows: list[tuple[Any, ...]], empty: str) -> SafeString:
    if not rows:
        return format_html("<p>{}</p>", empty)
    head = format_html_join("", "<th>{}</th>", ((header,) for header in headers))
    body = format_html_join(
        "", "<tr>{}</tr>", ((format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows)
    )
    return format_html("<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", head, body)


def _account_link(user_id: int, username: str) -> SafeString:
    return format_html('<a href="{}">{}</a>', reverse("admin:accounts_user_change", args=[user_id]), username)


class LinkedFilter(admin.SimpleListFilter):
    title = _("linked accounts")
    parameter_name = "linked"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[User]) -> list[tuple[str, str]]:
        return [("yes", gettext("Shares an address or a browser")), ("no", gettext("Shares neither"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(shares_with_another())
        if self.value() == "no":
            return queryset.exclude(shares_with_another())
        return queryset


class BoosterFilter(admin.SimpleListFilter):
    title = _("booster")
    parameter_name = "booster"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[User]) -> list[tuple[str, str]]:
        return [("yes", gettext("Marked as booster")), ("no", gettext("Not marked"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(booster_since__isnull=False)
        if self.value() == "no":
            return queryset.filter(booster_since__isnull=True)
        return queryset


class ModeratedUserAdmin(UserAdmin):
    list_display = (*UserAdmin.list_display, "linked")
    list_filter = (*UserAdmin.list_filter, LinkedFilter, BoosterFilter)
    readonly_fields = (*UserAdmin.readonly_fields, "booster_since", "linked_accounts", "leaver_rate", "opponents")
    fieldsets = (
        *UserAdmin.fieldsets,
        (_("Moderation"), {"fields": ("booster_since", "leaver_rate", "linked_accounts", "opponents")}),
    )
    actions = ["ban_users", "unban_users", "mark_boosters", "mute_chat", "unmute_chat"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        users: QuerySet[User] = super().get_queryset(request)
        return users.annotate(shares=shares_with_another())

    @admin.display(boolean=True, description=_("linked"), ordering="shares")
    def linked(self, user: User) -> bool:
        return bool(getattr(user, "shares", False))

    @admin.display(description=_("accounts sharing an address or a browser"))
    def linked_accounts(self, user: User) -> SafeString:
        kinds = dict(Sighting.Kind.choices)
        rows = [
            (_account_link(link.user_id, link.username), kinds.get(link.kind, link.kind), link.value,
             date_format(link.last_seen))
            for link in linked_accounts(user.pk)
        ]
        return _table(
            [gettext("Account"), gettext("Shares"), gettext("Value"), gettext("Last seen there")], rows,
            gettext("No other account was seen from this account's addresses or browsers."),
        )

    @admin.display(description=_("leaver rate"))
    def leaver_rate(self, user: User) -> str:
        record = leaver_record(user.pk)
        if record.rate is None:
            return gettext("No finished match yet.")
        return ngettext(
            "Left %(left)d of %(played)d finished match (%(rate).0f%%).",
            "Left %(left)d of %(played)d finished matches (%(rate).0f%%).",
            record.played,
        ) % {"left": record.left, "played": record.played, "rate": 100 * record.rate}

    @admin.display(description=_("rating history per opponent"))
    def opponents(self, user: User) -> SafeString:
        rows = [
            (_account_link(record.user_id, record.username), record.matches, f"{record.change:+d}",
             f"{record.opponent_change:+d}", date_format(record.last, "DATETIME_FORMAT"))
            for record in opponent_history(user.pk)
        ]
        return _table(
            [gettext("Opponent"), gettext("Rated matches together"), gettext("This account's rating change"),
             gettext("The opponent's rating change"), gettext("Last")],
            rows, gettext("No rated match yet."),
        )

    @admin.action(description=_("Ban the selected users…"), permissions=["change"])
    def ban_users(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        targets = [user for user in queryset if user.pk != request.user.pk]
        form = BanForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            until = form.banned_until()
            reason = form.cleaned_data["reason"]
            for user in targets:
                accounts.user_ban(user_id=user.pk, until=until, reason=reason)
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
        return TemplateResponse(request, "moderation/admin_ban.html", context)

    @admin.action(description=_("Lift the ban of the selected users"), permissions=["change"])
    def unban_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        lifted = 0
        for user in queryset.filter(banned_until__isnull=False):
            accounts.user_unban(user_id=user.pk)
            self.log_change(request, user, "Ban lifted")
            action_log(by=request.user, action=ModerationAction.Kind.UNBAN, target_id=user.pk)
            lifted += 1
        self.message_user(
            request, ngettext("%(count)d ban lifted.", "%(count)d bans lifted.", lifted) % {"count": lifted}, messages.SUCCESS
        )

    @admin.action(description=_("Mark the selected users as boosters (no rated play; gains voided)…"),
                  permissions=["change"])
    def mark_boosters(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        targets = [user for user in queryset if user.pk != request.user.pk]
        reason, page = reason_page(
            self, request, action="mark_boosters", title=gettext("Mark as boosters"),
            explanation=gettext(
                "A booster can no longer play rated matches, and every rated match in which they gained "
                "points is voided: those changes are reversed and the later ratings recomputed."
            ),
            submit=gettext("Mark as boosters"), targets=[(user.pk, user.username) for user in targets],
            skipped_self=len(targets) != len(queryset),
        )
        if page is not None:
            return page
        voided = 0
        for user in targets:
            voided += len(account_mark_booster(user_id=user.pk, by=request.user, reason=reason or "").voided)
        self.message_user(
            request,
            ngettext("%(count)d user marked as booster.", "%(count)d users marked as boosters.", len(targets))
            % {"count": len(targets)} + " "
            + ngettext("%(count)d rated match voided.", "%(count)d rated matches voided.", voided) % {"count": voided},
            messages.SUCCESS,
        )
        return None


    @admin.action(description=_("Mute the chat of the selected users for some hours…"), permissions=["change"])
    def mute_chat(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        targets = [user for user in queryset if user.pk != request.user.pk]
        data, page = form_page(
            self, request, MuteForm, action="mute_chat", title=gettext("Mute the chat"),
            explanation=gettext(
                "A muted account plays on, but nothing it writes or sends as a quick phrase reaches any table "
                "until the mute ends; it is told so, with the end."
            ),
            submit=gettext("Mute the chat"), targets=[(user.pk, user.username) for user in targets],
            skipped_self=len(targets) != len(queryset),
        )
        if data is None:
            return page
        until = timezone.now() + timedelta(hours=data["hours"])
        for user in targets:
            account_mute_chat(user_id=user.pk, until=until, by=request.user, reason=data["reason"])
            self.log_change(request, user, f"Chat muted until {until:%Y-%m-%d %H:%M} UTC: {data['reason']}")
        self.message_user(
            request,
            ngettext("%(count)d user's chat muted.", "%(count)d users' chat muted.", len(targets)) % {"count": len(targets)},
            messages.SUCCESS,
        )
        return None

    @admin.action(description=_("Lift the chat mute of the selected users"), permissions=["change"])
    def unmute_chat(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        lifted = 0
        for user in queryset:
            if account_unmute_chat(user_id=user.pk, by=request.user):
                self.log_change(request, user, "Chat mute lifted")
                lifted += 1
        self.message_user(
            request, ngettext("%(count)d chat mute lifted.", "%(count)d chat mutes lifted.", lifted) % {"count": lifted},
            messages.SUCCESS,
        )


admin.site.unregister(User)
admin.site.register(User, ModeratedUserAdmin)


@admin.register(AppliedMatch)
class RatedMatchAdmin(ReadOnlyAdmin):
    """The ratings' ledger as moderators see it: each rated match applied, its changes, and "void"."""

    list_display = ("id", "rated_match", "applied_at", "rated", "voided_at", "changes")
    list_filter = ("rated", ("voided_at", admin.EmptyFieldListFilter), "applied_at")
    search_fields = ("=match__id",)
    ordering = ("-applied_at", "-id")
    actions = ["void_matches"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[AppliedMatch]:
        return super().get_queryset(request).prefetch_related("match__rating_changes__user")

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return obj is None and bool(request.user.is_staff and request.user.has_perm("leaderboards.change_appliedmatch"))

    @admin.display(description=_("match"), ordering="match_id")
    def rated_match(self, applied: AppliedMatch) -> SafeString:
        url = reverse("admin:tables_match_change", args=[applied.match_id])
        return format_html('<a href="{}">{}</a>', url, gettext("Match %(id)d") % {"id": applied.match_id})

    @admin.display(description=_("rating changes"))
    def changes(self, applied: AppliedMatch) -> str:
        return ", ".join(f"{change.user.username} {change.delta:+d}" for change in applied.match.rating_changes.all())

    @admin.action(description=_("Void the selected rated matches (reverse their rating changes)…"),
                  permissions=["change"])
    def void_matches(self, request: HttpRequest, queryset: QuerySet[AppliedMatch]) -> HttpResponse | None:
        targets = list(queryset.order_by("match_id"))
        reason, page = reason_page(
            self, request, action="void_matches", title=gettext("Void rated matches"),
            explanation=gettext(
                "Voiding a match reverses the rating changes it made, once, and recomputes the later "
                "ratings of its players as if it had not been played."
            ),
            submit=gettext("Void"),
            targets=[(applied.pk, gettext("Match %(id)d") % {"id": applied.match_id}) for applied in targets],
        )
        if page is not None:
            return page
        voided = sum(match_void(match_id=applied.match_id, by=request.user, reason=reason or "") is not None
                     for applied in targets)
        already = len(targets) - voided
        message = ngettext("%(count)d match voided.", "%(count)d matches voided.", voided) % {"count": voided}
        if already:
            message += " " + ngettext(
                "%(count)d was voided already.", "%(count)d were voided already.", already
            ) % {"count": already}
        self.message_user(request, message, messages.SUCCESS)
        return None


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = ("at", "by", "action", "target", "match_id", "reason")
    list_filter = ("action", "at")
    search_fields = ("by__username", "target__username", "=match__id", "reason")
    list_select_related = ("by", "target")
    date_hierarchy = "at"
    readonly_fields = ("at", "by", "action", "target", "match", "reason", "details")


@admin.register(Sighting)
class SightingAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "value", "first_seen", "last_seen")
    list_filter = ("kind", "last_seen")
    search_fields = ("user__username", "=value")
    list_select_related = ("user",)
