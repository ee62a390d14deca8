"""Reads of ratings for the leaderboard and profile pages (every query here uses an index of
`apps/leaderboards/models.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from apps.catalog.data import CatalogEntry, catalog_entry
from apps.leaderboards.chart import Chart, rating_chart
from apps.leaderboards.models import Rating, RatingChange
from apps.leaderboards.rating import START_RATING

#: How many past matches a profile chart draws.
HISTORY_LENGTH = 100


LEADERBOARD_ORDER = ("-rating", "id")


def count_cache_key(game: str) -> str:
    """Where a leaderboard's player count is cached (the rating service clears it on a new player)."""
    return f"leaderboard-count:{game}"


def leaderboard(game: str) -> QuerySet[Rating]:
    """A game's leaderboard, best first; ties broken by who got there first (lower id). Rows only: no
    join, so counting it and skipping to a deep page walk the (game, -rating, id) index alone."""
    return Rating.objects.filter(game=game).order_by(*LEADERBOARD_ORDER)


def with_players(ratings: QuerySet[Rating]) -> list[Rating]:
    """The ratings of one slice of a leaderboard with their users, in one query: the slice is chosen
    inside the index (a subquery), and only its rows are joined to the users table."""
    return list(
        Rating.objects.filter(pk__in=ratings.values("pk")).select_related("user").order_by(*LEADERBOARD_ORDER)
    )


def rank_of(rating: Rating) -> int:
    """The place `rating` holds on its leaderboard (the same order as `leaderboard`)."""
    ahead = Q(rating__gt=rating.rating) | Q(rating=rating.rating, id__lt=rating.id)
    return Rating.objects.filter(ahead, game=rating.game).count() + 1


@dataclass(frozen=True)
class GameRating:
    """One game's rating on a profile."""

    entry: CatalogEntry
    rating: Rating
    rank: int
    chart: Chart | None
    last_delta: int | None


def profile_ratings(user_id: int) -> list[GameRating]:
    """Each game the player has a rating in, with its rank and history chart (catalog order)."""
    found = []
    for rating in Rating.objects.filter(user_id=user_id):
        entry = catalog_entry(rating.game)
        if entry is None or not entry.has_leaderboard:
            continue
        changes = list(
            RatingChange.objects.filter(user_id=user_id, game=rating.game)
            .order_by("-created_at", "-id")
            .values_list("before", "after")[:HISTORY_LENGTH]
        )
        changes.reverse()
        values = [changes[0][0] if changes else START_RATING, *(after for _before, after in changes)]
        last_delta = changes[-1][1] - changes[-1][0] if changes else None
        found.append(GameRating(entry, rating, rank_of(rating), rating_chart(values), last_delta))
    found.sort(key=lambda game_rating: game_rating.entry.position)
    return found


def rating_deltas(user_id: int, match_ids: list[int]) -> dict[int, int]:
    """What each of these matches did to the player's rating (matches that changed nothing are absent)."""
    return dict(
        RatingChange.objects.filter(user_id=user_id, match_id__in=match_ids).values_list("match_id", "delta")
    )
