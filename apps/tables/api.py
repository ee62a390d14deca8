"""The tables' side of the bot API (SPEC 14, docs/bot-api.md): what a bot account's program does over
HTTP before and after it plays on the table's socket. Thin like the pages' views: authenticate (the
token: apps/bots/http.py), validate (the lobby's own form), call `apps.tables.services`, answer JSON.

    GET  /api/bot/tables                        the bot's tables (seated, not closed)
    POST /api/bot/tables                        open a table (the lobby form's options, as JSON)
    GET  /api/bot/tables/<id>                   one table as the bot sees it
    POST /api/bot/tables/<id>/join              take a seat
    GET  /api/bot/invitations                   the invitations waiting for it
    POST /api/bot/invitations/<table>/accept    sit in the seat kept for it
    POST /api/bot/invitations/<table>/decline   free that seat
    GET  /api/bot/games/<id>/record             a finished game's record (docs/record-format.md)
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from apps.bots.http import ApiError, BotRequest, bot_api
from apps.tables import services
from apps.tables.access import may_see_match, may_watch
from apps.tables.forms import OpenTableForm
from apps.tables.models import Game, Seat, Table
from apps.tables.options import PACES
from apps.tables.records import game_record
from apps.tables.snapshot import invitations_for

#: How many of its tables the list shows (newest first).
TABLES_LISTED = 50

STATUS_OF = {
    services.TableNotFound: 404,
    services.NotAllowed: 403,
}


def refused(error: services.TableError) -> ApiError:
    status = next((code for kind, code in STATUS_OF.items() if isinstance(error, kind)), 400)
    return ApiError(error.error_code, str(error), status)


def table_entry(table: Table, user_id: int) -> dict[str, Any]:
    """A table as its bot sees it over HTTP: the options, the seats (as in the socket's frames), its own
    seat, and where to connect."""
    seat = next((info["index"] for info in table.seating if info["user_id"] == user_id), None)
    invite = f"?invite={table.invite_token}" if table.private and (seat is not None or table.host_id == user_id) else ""
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "seat_count": table.seat_count,
        "match_length": table.match_length,
        "turn_seconds": table.turn_seconds,
        "private": table.private,
        "rated": table.rated,
        "unrated": list(table.unrated_reasons or ()),  # why not: codes of apps/tables/rated.py
        "host": table.host_id == user_id,
        "seat": seat,
        "seats": table.seating,
        "match": table.match_id,
        "version": table.version,
        "socket": f"/ws/tables/{table.pk}/{invite}",
        "url": reverse("tables:table", args=[table.pk]) + invite,
    }


def answer(kind: str, status: int = 200, **parts: Any) -> JsonResponse:
    return JsonResponse({"type": kind, **parts}, status=status)


def table_answer(table_id: int, user_id: int, status: int = 200) -> JsonResponse:
    table = Table.objects.get(pk=table_id)
    return answer("table", status, table=table_entry(table, user_id))


@bot_api(methods=("GET", "POST"))
def tables(request: BotRequest, body: dict[str, Any]) -> JsonResponse:
    if request.method == "POST":
        return open_table(request, body)
    table_ids = Seat.objects.filter(user=request.user).values("table_id")
    rows = (
        Table.objects.filter(pk__in=table_ids)
        .exclude(status=Table.Status.CLOSED)
        .order_by("-created_at")[:TABLES_LISTED]
    )
    return answer("tables", tables=[table_entry(table, request.user.pk) for table in rows])


def form_data(body: dict[str, Any]) -> dict[str, Any]:
    """The lobby form's fields from a JSON body, with the defaults a program may leave out (a seat left
    out is a player's seat; the pace is the game's first)."""
    data: dict[str, Any] = {"game": "tile-rummy", "seats": 2, "match_length": 1}
    data.update({key: value for key, value in body.items() if value is not None})
    if "turn_seconds" not in data and isinstance(data["game"], str) and data["game"] in PACES:
        data["turn_seconds"] = PACES[data["game"]][0]
    if data.get("private") in (False, "false", "off", 0):
        data.pop("private")  # an unticked checkbox: absent
    for key in ("game", "seat_1", "seat_2", "seat_3", "seat_1_account", "seat_2_account", "seat_3_account"):
        if key in data and not isinstance(data[key], str):
            raise ApiError("bad_request", _("“%(field)s” must be a string.") % {"field": key})
    return data


def open_table(request: BotRequest, body: dict[str, Any]) -> JsonResponse:
    form = OpenTableForm(form_data(body))
    if not form.is_valid():
        fields = {name: [str(message) for message in messages] for name, messages in form.errors.items()}
        raise ApiError("bad_request", _("Some options are not valid: see “fields”."), 400, fields=fields)
    try:
        table = form.open_table(by=request.user)
    except services.TableError as error:
        raise refused(error) from None
    return table_answer(table.pk, request.user.pk, status=201)


def _visible_table(request: HttpRequest, table_id: int, invite: str = "") -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not may_watch(table, request.user, invite):
        raise ApiError("tablenotfound", _("There is no table %(id)s.") % {"id": table_id}, 404)
    return table


@bot_api()
def table(request: BotRequest, body: dict[str, Any], table_id: int) -> JsonResponse:
    found = _visible_table(request, table_id, request.GET.get("invite", ""))
    return answer("table", table=table_entry(found, request.user.pk))


@bot_api(methods=("POST",))
def join(request: BotRequest, body: dict[str, Any], table_id: int) -> JsonResponse:
    seat, invite = body.get("seat"), body.get("invite", "")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise ApiError("bad_request", _("“seat” must be a seat's index (a whole number)."))
    if not isinstance(invite, str):
        raise ApiError("bad_request", _("“invite” must be a string."))
    try:
        services.table_join(table_id=table_id, by=request.user, seat_index=seat, invite_token=invite)
    except services.TableError as error:
        raise refused(error) from None
    return table_answer(table_id, request.user.pk)


@bot_api()
def invitations(request: BotRequest, body: dict[str, Any]) -> JsonResponse:
    return answer("invitations", invitations=invitations_for(request.user.pk))


@bot_api(methods=("POST",))
def accept(request: BotRequest, body: dict[str, Any], table_id: int) -> JsonResponse:
    try:
        services.invitation_accept(table_id=table_id, by=request.user)
    except services.TableError as error:
        raise refused(error) from None
    return table_answer(table_id, request.user.pk)


@bot_api(methods=("POST",))
def decline(request: BotRequest, body: dict[str, Any], table_id: int) -> JsonResponse:
    try:
        services.invitation_decline(table_id=table_id, by=request.user)
    except services.TableError as error:
        raise refused(error) from None
    return answer("invitation", table=table_id, invitation=None)


@bot_api()
def record(request: BotRequest, body: dict[str, Any], game_id: int) -> JsonResponse:
    game = Game.objects.select_related("match__table").filter(pk=game_id).first()
    if game is None or not may_see_match(game.match, request.user):
        raise ApiError("not_found", _("There is no game %(id)s.") % {"id": game_id}, 404)
    if game.finished_at is None:
        raise ApiError(
            "not_finished", _("This game is still being played: its record is available when it ends."), 409
        )
    return JsonResponse(game_record(game))
