"""Moderation of tables in the Django admin. Actions call the same services as the site, and every one
is written to the admin log (LogEntry)."""

from __future__ import annotations

from typing import Any, cast

from django.apps import AppConfig
from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.admin.utils import unquote
from django.contrib.auth.models import Permission, PermissionsMixin
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model, QuerySet
from django.db.models.signals import post_migrate
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.accounts.requests import SignedInRequest
from apps.tables import services
from apps.tables.models import Game, Match, MatchPlayer, MoveLog, Seat, Table

#: Who may see a game in progress's hidden information in the admin: every rack, the pile, the deal and the
#: prepared play (issue 40). "View game" alone shows the rest. Made by migration 0009.
VIEW_HIDDEN = "view_hidden"
VIEW_HIDDEN_NAME = "Can view the hidden information of a game in progress"
#: The fields of a game that hold hidden information while it runs.
HIDDEN_FIELDS = ("state", "deal", "draft")


def ensure_view_hidden(sender: AppConfig, **kwargs: Any) -> None:
    """Make the permission again after every migrate and flush, as Django makes its default ones (a test
    database's flush empties auth_permission; the migration alone would leave it gone)."""
    if sender.label != "tables":
        return
    using = kwargs.get("using", "default")
    content_type = ContentType.objects.db_manager(using).get_for_model(Game, for_concrete_model=True)
    Permission.objects.db_manager(using).get_or_create(
        content_type=content_type, codename=VIEW_HIDDEN, defaults={"name": VIEW_HIDDEN_NAME}
    )


post_migrate.connect(ensure_view_hidden, dispatch_uid="tables.ensure_view_hidden")


def log_action(request: HttpRequest, obj: Model, message: str) -> None:
    user_id = request.user.pk
    assert user_id is not None  # the admin serves signed-in staff only
    LogEntry.objects.log_actions(
        user_id=user_id, queryset=[obj], action_flag=CHANGE, change_message=message, single_object=True
    )


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "joined_at", "left_match", "rematch")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "seat_count", "match_length", "turn_seconds", "private", "rated", "host", "created_at")
    list_filter = ("status", "game", "private", "rated", "match_length")
    search_fields = ("id", "host__username", "seats__user__username")
    readonly_fields = [f.name for f in Table._meta.fields]
    inlines = [SeatInline]
    actions = ["close_tables"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=gettext_lazy("Close the selected tables (a match in progress is abandoned, unrated)"))
    def close_tables(self, request: SignedInRequest, queryset: QuerySet[Table]) -> None:
        closed = 0
        for table in queryset:
            try:
                services.table_close(table_id=table.pk, by=request.user, reason="moderator")
            except services.TableError as error:
                self.message_user(request, f"#{table.pk}: {error}", messages.WARNING)
                continue
            log_action(request, table, _("Closed the table"))
            closed += 1
        message = ngettext("%(count)s table closed.", "%(count)s tables closed.", closed) % {"count": closed}
        self.message_user(request, message, messages.SUCCESS)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "index", "user", "bot_level", "left_match")
    list_filter = ("bot_level", "left_match", "table__status")
    search_fields = ("user__username", "table__id")
    readonly_fields = [f.name for f in Seat._meta.fields]
    actions = ["kick"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=gettext_lazy("Kick the selected seats (during a match: out of it)"))
    def kick(self, request: SignedInRequest, queryset: QuerySet[Seat]) -> None:
        for seat in queryset.select_related("table"):
            try:
                services.seat_kick(table_id=seat.table_id, seat_index=seat.index, by=request.user)
            except services.TableError as error:
                self.message_user(request, f"{seat}: {error}", messages.WARNING)
                continue
            log_action(request, seat.table, _("Kicked seat %(index)s (%(name)s)") % {"index": seat.index, "name": seat.display_name})
            self.message_user(request, _("Kicked %(seat)s.") % {"seat": seat}, messages.SUCCESS)


class MatchPlayerInline(admin.TabularInline):
    model = MatchPlayer
    extra = 0
    readonly_fields = ("seat", "user", "bot_level", "name", "points", "place", "left")
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "game", "rated", "aborted", "started_at", "finished_at")
    list_filter = ("game", "rated", "aborted")
    search_fields = ("id", "table__id", "players__user__username", "players__name")
    readonly_fields = [f.name for f in Match._meta.fields]
    inlines = [MatchPlayerInline]
    date_hierarchy = "started_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "number", "turn", "started_at", "finished_at")
    search_fields = ("id", "match__id")
    readonly_fields = [f.name for f in Game._meta.fields]
    # The state and the deal hold every rack and the pile: never edited, and while the game runs shown only
    # to who holds tables.view_hidden, each time logged (LogEntry, like every moderation in this admin).

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @staticmethod
    def running(game: Game | None) -> bool:
        """A game whose hidden fields are secret: in progress (a finished one's are in its record)."""
        return game is not None and game.finished_at is None and game.result is None

    def hides(self, request: HttpRequest, game: Game | None) -> bool:
        return self.running(game) and not cast(PermissionsMixin, request.user).has_perm(f"tables.{VIEW_HIDDEN}")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        if self.hides(request, obj):
            return [field for field in fields if field not in HIDDEN_FIELDS]
        return fields

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        game = self.get_object(request, unquote(object_id))
        shown = response.status_code == 200 and request.method == "GET"
        if shown and game is not None and self.running(game) and not self.hides(request, game):
            log_action(request, game, _("Viewed the hidden information (racks, pile) of the game in progress"))
        return response


@admin.register(MoveLog)
class MoveLogAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "move", "actor", "at")
    list_filter = ("actor",)
    search_fields = ("game__id",)
    readonly_fields = [f.name for f in MoveLog._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
