"""Pages of the tables: the lobby, a table, a match and its game records."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.catalog.data import CATALOG
from apps.tables import services
from apps.tables.forms import OpenTableForm
from apps.tables.models import Game, Match, MatchPlayer, Table
from apps.tables.records import game_record
from apps.tables.snapshot import frame_for, lobby_tables, table_payload


def lobby(request: HttpRequest) -> HttpResponse:
    form = OpenTableForm()
    return render(request, "tables/lobby.html", {"games": CATALOG, "tables": lobby_tables(), "form": form})


@login_required
@require_POST
def open_table(request: HttpRequest) -> HttpResponse:
    form = OpenTableForm(request.POST)
    if not form.is_valid():
        return render(request, "tables/lobby.html", {"games": CATALOG, "tables": lobby_tables(), "form": form}, status=400)
    data = form.cleaned_data
    try:
        table = services.table_open(
            host=request.user,  # type: ignore[arg-type]
            game=data["game"],
            seat_count=data["seats"],
            match_length=data["match_length"],
            turn_seconds=data["turn_seconds"],
            private=data["private"],
            bots=form.bot_levels(),
        )
    except services.TableError as error:
        form.add_error(None, str(error))
        return render(request, "tables/lobby.html", {"games": CATALOG, "tables": lobby_tables(), "form": form}, status=400)
    if data.get("start_now") and not table.private:
        try:
            services.table_start(table_id=table.pk, by=request.user)  # type: ignore[arg-type]
        except services.TableError:
            pass  # not every seat is taken yet: the table waits for players
    return redirect("tables:table", table.pk)


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    invite = request.GET.get("invite", "")
    if table.private and invite != table.invite_token:
        seated = request.user.is_authenticated and table.seats.filter(user=request.user).exists()
        if not seated and not (request.user.is_authenticated and request.user.is_staff):
            raise Http404(_("There is no such table."))
    payload = table_payload(table.pk)
    user_id = request.user.pk if request.user.is_authenticated else None
    frame = frame_for(payload, user_id)
    return render(
        request,
        "tables/table.html",
        {"table": table, "frame": frame, "frame_json": json.dumps(frame), "invite": invite},
    )


@login_required
@require_POST
def join_table(request: HttpRequest, table_id: int) -> HttpResponse:
    seat = request.POST.get("seat")
    try:
        services.table_join(
            table_id=table_id,
            user=request.user,  # type: ignore[arg-type]
            seat_index=int(seat) if seat and seat.isdigit() else None,
            invite_token=request.POST.get("invite", ""),
        )
    except services.TableError as error:
        messages.error(request, str(error))
    url = redirect("tables:table", table_id).url
    invite = request.POST.get("invite", "")
    return redirect(f"{url}?invite={invite}" if invite else url)


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if match.table.private and not (
        request.user.is_authenticated
        and (request.user.is_staff or MatchPlayer.objects.filter(match=match, user=request.user).exists())
    ):
        raise Http404(_("There is no such match."))
    games = list(match.games.order_by("number"))
    players = list(match.players.order_by("seat"))
    return render(request, "tables/match.html", {"match": match, "games": games, "players": players})


def game_record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's record. A game in progress has none yet: its deal includes the draw pile."""
    game = get_object_or_404(Game.objects.select_related("match__table"), pk=game_id)
    if game.finished_at is None:
        raise Http404(_("This game is still being played: its record is available when it ends."))
    if game.match.table.private and not (
        request.user.is_authenticated
        and (request.user.is_staff or MatchPlayer.objects.filter(match=game.match, user=request.user).exists())
    ):
        raise Http404(_("There is no such game."))
    response = JsonResponse(game_record(game), json_dumps_params={"indent": 1})
    filename = f"{game.match.game}-match{game.match_id}-game{game.number}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
