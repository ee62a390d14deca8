"""The arenas' pages: `/tournaments/` (upcoming, running, finished; for visitors too) and one arena's
page (standings, tables in play, my table, join / pause / play on / berserk, a countdown, the podium)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from apps.catalog.data import catalog_entry
from apps.tournaments import selectors, services
from apps.tournaments.models import Tournament


def game_name(slug: str) -> str:
    entry = catalog_entry(slug)
    return str(entry.name) if entry is not None else slug


def index(request: HttpRequest) -> HttpResponse:
    lists = selectors.listing()
    now = timezone.now()
    for group in lists.values():
        for tournament in group:
            tournament.game_name = game_name(tournament.game)  # type: ignore[attr-defined]  # for the template
            # Under a minute to the start (or the end), "in 0 minutes" says nothing: the card says "less than a minute".
            moment = tournament.starts_at if tournament.status == Tournament.Status.PLANNED else tournament.ends_at
            tournament.within_minute = moment - now < timedelta(minutes=1)  # type: ignore[attr-defined]
    return render(request, "tournaments/index.html", {**lists, "now": now})


def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry = selectors.entry_of(tournament.pk, request.user)
    seat = selectors.current_seat(tournament.pk, entry.user_id) if entry is not None else None
    now = timezone.now()
    context = {
        "tournament": tournament,
        "game_name": game_name(tournament.game),
        "standings": selectors.standings(tournament.pk),
        "tables": selectors.playing_tables(tournament.pk),
        "finished": selectors.finished_tables(tournament.pk),
        "entry": entry,
        "seat": seat,
        "refusal": None if entry is not None else services.entry_refusal(tournament, request.user) if request.user.is_authenticated else None,
        "may_play_on_in": int((entry.paused_until - now).total_seconds() + 0.999) if entry and entry.paused and entry.paused_until and entry.paused_until > now else 0,
        "version": tournament.version,
        "open": tournament.status in (Tournament.Status.PLANNED, Tournament.Status.RUNNING),
    }
    return render(request, "tournaments/detail.html", context)


def _act(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    try:
        if action == "join":
            services.tournament_join(tournament_id=tournament_id, by=request.user)
        elif action == "pause":
            services.tournament_pause(tournament_id=tournament_id, by=request.user)
        elif action == "play_on":
            services.tournament_play_on(tournament_id=tournament_id, by=request.user)
        elif action == "berserk":
            services.tournament_berserk(tournament_id=tournament_id, by=request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    return redirect("tournaments:detail", tournament_id=tournament_id)


@require_POST
@login_required
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "join")


@require_POST
@login_required
def pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "pause")


@require_POST
@login_required
def play_on(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "play_on")


@require_POST
@login_required
def berserk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "berserk")
