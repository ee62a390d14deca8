"""The leaderboards: an index of the games, and one paginated leaderboard per game: of people, and of bot
accounts among themselves (SPEC 14: bot accounts never appear on the people's)."""

from __future__ import annotations

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

from apps.catalog.data import catalog_entry, leaderboard_entries
from apps.leaderboards.models import Rating
from apps.leaderboards.selectors import count_cache_key, leaderboard, with_players

PAGE_SIZE = 50
TOP_ON_INDEX = 5
#: How long a leaderboard's player count is reused. Counting 100,000 rows is the slowest part of a page;
#: the rating service clears it when a player joins the leaderboard, so this only bounds the damage of a
#: lost clear.
COUNT_SECONDS = 60


class LeaderboardPaginator(Paginator):  # type: ignore[type-arg]  # generic only in django-stubs: Paginator[Rating] fails at run time
    object_list: QuerySet[Rating]  # always the leaderboard's queryset, so it can be counted in the database

    def __init__(self, slug: str, *, bots: bool = False) -> None:
        super().__init__(leaderboard(slug, bots=bots), PAGE_SIZE)
        self.slug = slug
        self.bots = bots

    @cached_property
    def count(self) -> int:
        count = cache.get_or_set(count_cache_key(self.slug, self.bots), self.object_list.count, COUNT_SECONDS)
        assert isinstance(count, int)
        return count


def index(request: HttpRequest) -> HttpResponse:
    boards = [
        (entry, list(enumerate(with_players(leaderboard(entry.slug)[:TOP_ON_INDEX]), start=1)))
        for entry in leaderboard_entries()
    ]
    return render(request, "leaderboards/index.html", {"boards": boards})


def game_leaderboard(request: HttpRequest, slug: str, *, bots: bool = False) -> HttpResponse:
    entry = catalog_entry(slug)
    if entry is None or not entry.has_leaderboard:
        raise Http404(_("There is no leaderboard for this game."))
    page = LeaderboardPaginator(slug, bots=bots).get_page(request.GET.get("page"))
    ratings = page.object_list
    assert isinstance(ratings, QuerySet)  # a slice of the leaderboard's queryset
    rows = [(page.start_index() + offset, rating) for offset, rating in enumerate(with_players(ratings))]
    return render(request, "leaderboards/game.html", {"entry": entry, "page": page, "rows": rows, "bots": bots})


def bot_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """Bot accounts rated in matches among bot accounts only."""
    return game_leaderboard(request, slug, bots=True)
