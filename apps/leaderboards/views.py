"""The leaderboards: an index of the games, and one paginated leaderboard per game."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from apps.catalog.data import catalog_entry, leaderboard_entries
from apps.leaderboards.selectors import leaderboard

PAGE_SIZE = 50
TOP_ON_INDEX = 5


def index(request: HttpRequest) -> HttpResponse:
    boards = [(entry, list(leaderboard(entry.slug)[:TOP_ON_INDEX])) for entry in leaderboard_entries()]
    return render(request, "leaderboards/index.html", {"boards": boards})


def game_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    entry = catalog_entry(slug)
    if entry is None or not entry.has_leaderboard:
        raise Http404(_("There is no leaderboard for this game."))
    page = Paginator(leaderboard(slug), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(page.start_index() + offset, rating) for offset, rating in enumerate(page.object_list)]
    return render(request, "leaderboards/game.html", {"entry": entry, "page": page, "rows": rows})
