"""Pages of the tables: the lobby, Play now, a table, a match and its game records, and how a match's
deals are checked (the fair-deal page, with the specification and its checker as files).

Views are thin: they read the request, call `apps.tables.services` (the one write path) and render.
The live parts (the lobby list, the table) are ES modules in static/js that speak docs/protocol.md.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.accounts.services import guest_login
from apps.bots.selectors import bot_account_ids
from apps.catalog.data import CATALOG, game_name
from apps.engine.bots import bot_levels
from apps.engine.game import is_available
from apps.tables import fairness, rated, services
from apps.tables.access import may_see_match, may_watch
from apps.tables.forms import OpenTableForm, rated_previews
from apps.tables.models import BotLevel, Game, Match, MatchPlayer, Table
from apps.tables.options import PACES, pace_label
from apps.tables.records import game_record
from apps.tables.snapshot import frame_for_user, lobby_tables
from apps.tables.ui_strings import aborted_reasons, lobby_strings, table_strings, unrated_reasons

PLAY_NOW_GAME = "tile-rummy"


def _games() -> list[dict[str, Any]]:
    """The catalog's games as the lobby shows them, with whether they can be played yet."""
    return [
        {
            "slug": entry.slug,
            "name": entry.name,
            "tagline": entry.tagline,
            "min_players": entry.min_players,
            "max_players": entry.max_players,
            "available": is_available(entry.slug),
            "play_now": is_available(entry.slug) and bool(bot_levels_offered(entry.slug)),
            "paces": [{"seconds": pace, "label": pace_label(pace)} for pace in PACES.get(entry.slug, ())],
        }
        for entry in CATALOG
    ]


def _bot_label(level: str) -> str:
    return str(_("Bot (%(level)s)") % {"level": BotLevel(level).label})


def _worded(entry: dict[str, Any]) -> dict[str, Any]:
    """A lobby entry with the words the page shows (the entry itself carries codes: apps/tables/snapshot.py)."""
    return {
        **entry,
        "game_name": game_name(entry["game"]),
        "pace": pace_label(entry["turn_seconds"]),
        "player_names": [_bot_label(p["bot"]) if p["bot"] else p["name"] for p in entry["players"]],
    }


def _lobby(request: HttpRequest, form: OpenTableForm, status: int = 200) -> HttpResponse:
    games = _games()
    previews = rated_previews(request.user)
    context = {
        "games": games,
        "tables": [_worded(entry) for entry in lobby_tables()],
        "form": form,
        "strings": lobby_strings(),
        "paces": {game["slug"]: game["paces"] for game in games},
        "rated_previews": previews,
        # A registered host without a verified email address is told where to verify it (SPEC 11).
        "verify_email": rated.UNVERIFIED_EMAIL in previews["000"],
    }
    return render(request, "tables/lobby.html", context, status=status)


def lobby(request: HttpRequest) -> HttpResponse:
    return _lobby(request, OpenTableForm())


@require_POST
def open_table(request: HttpRequest) -> HttpResponse:
    """Open a table with the host's options; a visitor becomes a guest player first."""
    form = OpenTableForm(request.POST)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    user = guest_login(request)
    try:
        table = form.open_table(by=user)
    except services.TableError as error:
        form.add_error(None, str(error))
        return _lobby(request, form, status=400)
    return redirect(_table_url(table))


def bot_levels_offered(game: str) -> list[str]:
    """The levels a host may seat for `game` (the engine may have benchmark-only levels too)."""
    return [level for level in bot_levels(game) if level in BotLevel.values]


def play_now_level(user: Any) -> str:
    """The bot Play now offers first: Easy for a first game, else the level of the player's latest
    match against a bot (they chose it last time)."""
    if not getattr(user, "is_authenticated", False):
        return BotLevel.EASY
    latest = (
        MatchPlayer.objects.filter(match__players__user=user, match__finished_at__isnull=False)
        .exclude(bot_level="")
        .order_by("-match__finished_at")
        .values_list("bot_level", flat=True)
        .first()
    )
    return latest if latest in BotLevel.values else BotLevel.EASY


def play_now_pace(game: str, level: str, user: Any = None) -> int:
    """The pace the player chose last time against this bot (they can change it at the table), else:
    against the Easy bot no clock (a beginner building an opening is never timed out, and put on
    autopilot, by a bot that waits anyway), against Hard the game's usual pace."""
    if getattr(user, "is_authenticated", False):
        last = (
            Table.objects.filter(game=game, seat_count=2, seats__user=user)
            .filter(seats__bot_level=level)
            .order_by("-created_at")
            .values_list("turn_seconds", flat=True)
            .first()
        )
        if last is not None and last in PACES[game]:
            return int(last)
    return 0 if level == BotLevel.EASY else PACES[game][0]


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """One press from anywhere to a started game: the game and the bot's level chosen on the button,
    a guest account made on the spot for a visitor, the match started (the other seat is a bot)."""
    game = request.POST.get("game") or PLAY_NOW_GAME
    level = request.POST.get("level") or play_now_level(request.user)
    if not is_available(game) or not bot_levels_offered(game):
        messages.error(request, _("That game cannot be played against a bot yet."))
        return redirect("tables:lobby")
    if level not in bot_levels_offered(game):
        messages.error(request, _("There is no bot of that level for this game: choose Easy or Hard."))
        return redirect("tables:lobby")
    user = guest_login(request)
    try:
        table = services.table_open(
            by=user, game=game, seat_count=2, match_length=1, turn_seconds=play_now_pace(game, level, user), bots=[level]
        )
        services.table_start(table_id=table.pk, by=user)
    except services.TableError as error:
        messages.error(request, str(error))
        return redirect("tables:lobby")
    return redirect(_table_url(table))


def _table_url(table: Table) -> str:
    url = reverse("tables:table", args=[table.pk])
    return f"{url}?invite={table.invite_token}" if table.private else url


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    invite = request.GET.get("invite", "")
    user_id = request.user.pk if request.user.is_authenticated else None
    seated = user_id is not None and table.seats.filter(user_id=user_id).exists()
    if not may_watch(table, request.user, invite):
        raise Http404(_("There is no such table."))
    frame = frame_for_user(table.pk, user_id)
    invite_path = reverse("tables:table", args=[table.pk]) + (f"?invite={table.invite_token}" if table.private else "")
    context = {
        "table": table,
        "frame": frame,
        # The frame names the game and the pace by code (one frame for every language): the page words them.
        "game_name": game_name(table.game),
        "pace": pace_label(table.turn_seconds),
        # a player alone with the site's bots may change the pace (services.table_pace): the choices
        "paces": [{"seconds": pace, "label": pace_label(pace)} for pace in PACES.get(table.game, ())],
        "strings": table_strings(),
        "invite": invite if table.private else "",
        "invite_url": request.build_absolute_uri(invite_path) if seated else "",
        # The page shows the chat and who is away: it asks for those frames too (docs/protocol.md).
        "ws_path": f"/ws/tables/{table.pk}/?chat=1&presence=1" + (f"&invite={invite}" if table.private and invite else ""),
    }
    return render(request, "tables/table.html", context)


@require_POST
def join_table(request: HttpRequest, table_id: int) -> HttpResponse:
    """Take a seat in one press, from the lobby or the table: a visitor gets a guest account on the
    spot (as Play now does); `seat` picks the seat, else the first empty one."""
    seat = request.POST.get("seat")
    invite = request.POST.get("invite", "")
    user = guest_login(request)
    try:
        services.table_join(
            table_id=table_id,
            by=user,
            seat_index=int(seat) if seat and seat.isdigit() else None,
            invite_token=invite,
        )
    except services.TableError as error:
        messages.error(request, str(error))
    url = reverse("tables:table", args=[table_id])
    return redirect(f"{url}?invite={invite}" if invite else url)


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if not may_see_match(match, request.user):
        raise Http404(_("There is no such match."))
    games = list(match.games.order_by("number"))
    players = list(match.players.order_by("seat"))
    bot_accounts = bot_account_ids(player.user_id for player in players)
    for player in players:
        player.bot_account = player.user_id in bot_accounts  # type: ignore[attr-defined]  # marked BOT (SPEC 14)
    fair = fairness.match_check(match)
    names = {player.seat: player.name for player in players}
    fair_seats = [{"name": names.get(seat, ""), "seed": seed} for seat, seed in enumerate(fair.player_seeds if fair else ())]
    aborted = ""
    if match.aborted:
        text = aborted_reasons().get(match.aborted, "")
        aborted = text.replace("%(name)s", names.get(match.aborted_seat or 0, "")) if text else ""
    worded = unrated_reasons()
    unrated = [worded[code] for code in match.unrated_reasons or () if code in worded]
    context = {
        "match": match,
        "games": games,
        "players": players,
        "fair": fair,
        "fair_seats": fair_seats,
        "aborted": aborted,  # SPEC 11: why the match was aborted, worded
        "unrated": unrated,  # why it was not rated, worded
    }
    return render(request, "tables/match.html", context)


def fair_deals(request: HttpRequest) -> HttpResponse:
    """How every deal can be checked (SPEC 11), for players; the exact specification is a file below."""
    return render(request, "tables/fair_deals.html")


#: The files of the fair-deal page: the specification (docs/fair-deals.md) and its independent checker.
FAIR_DEAL_FILES = {"fair-deals.md": "text/markdown; charset=utf-8", "fair_check.py": "text/x-python; charset=utf-8"}


def fair_deals_file(request: HttpRequest, name: str) -> FileResponse:
    content_type = FAIR_DEAL_FILES.get(name)
    if content_type is None:
        raise Http404(_("There is no such file."))
    response = FileResponse(open(settings.BASE_DIR / "docs" / name, "rb"), content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def game_record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's record. A game in progress has none yet: its deal includes the draw pile."""
    game = Game.objects.select_related("match__table").filter(pk=game_id).first()
    if game is None or not may_see_match(game.match, request.user):  # first: a private game answers as a missing one
        raise Http404(_("There is no such game."))
    if game.finished_at is None:
        raise Http404(_("This game is still being played: its record is available when it ends."))
    response = JsonResponse(game_record(game), json_dumps_params={"indent": 1})
    filename = f"{game.match.game}-match{game.match_id}-game{game.number}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
