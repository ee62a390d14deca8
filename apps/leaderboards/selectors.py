"""Reads of ratings for the leaderboard and profile pages (every query here uses an index of
`apps/leaderboards/models.py`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from django.db.models import Q, QuerySet

from apps.catalog.data import CatalogEntry, catalog_entry
from apps.leaderboards.chart import Chart, rating_chart
from apps.leaderboards.models import AppliedMatch, Rating, RatingChange
from apps.leaderboards.rating import START_RATING

#: How many past matches a profile chart draws.
HISTORY_LENGTH = 100


LEADERBOARD_ORDER = ("-rating", "id")


def count_cache_key(game: str, bots: bool = False) -> str:
    """Where a leaderboard's player count is cached (the rating service clears it on a new player)."""
    return f"leaderboard-count:{game}:bots" if bots else f"leaderboard-count:{game}"


def leaderboard(game: str, *, bots: bool = False) -> QuerySet[Rating]:
    """A game's leaderboard of people (or, with `bots`, of bot accounts: SPEC 14), best first; ties broken
    by who got there first (lower id). Rows only: no join, so counting it and skipping to a deep page
    walk the (game, bot, -rating, id) index alone."""
    return Rating.objects.filter(game=game, bot=bots).order_by(*LEADERBOARD_ORDER)


def with_players(ratings: QuerySet[Rating]) -> list[Rating]:
    """The ratings of one slice of a leaderboard with their users, in one query: the slice is chosen
    inside the index (a subquery), and only its rows are joined to the users table."""
    return list(
        Rating.objects.filter(pk__in=ratings.values("pk")).select_related("user").order_by(*LEADERBOARD_ORDER)
    )


def rank_of(rating: Rating) -> int:
    """The place `rating` holds on its leaderboard (the same order as `leaderboard`)."""
    ahead = Q(rating__gt=rating.rating) | Q(rating=rating.rating, id__lt=rating.id)
    return Rating.objects.filter(ahead, game=rating.game, bot=rating.bot).count() + 1


@dataclass(frozen=True)
class GameRating:
    """One game's rating on a profile."""

    entry: CatalogEntry
    rating: Rating
    rank: int
    chart: Chart | None
    last_delta: int | None
    bots: bool = False  # on the bot accounts' board (SPEC 14)


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
        found.append(GameRating(entry, rating, rank_of(rating), rating_chart(values), last_delta, rating.bot))
    found.sort(key=lambda game_rating: game_rating.entry.position)
    return found


def ratings_of(user_id: int) -> dict[str, dict[str, object]]:
    """The player's rating in each game it has one in (the bot API's account: SPEC 14)."""
    return {
        rating.game: {"rating": rating.rating, "matches": rating.matches, "provisional": rating.provisional}
        for rating in Rating.objects.filter(user_id=user_id).order_by("game")
    }


def rating_deltas(user_id: int, match_ids: list[int]) -> dict[int, int]:
    """What each of these matches did to the player's rating (matches that changed nothing are absent)."""
    return dict(
        RatingChange.objects.filter(user_id=user_id, match_id__in=match_ids).values_list("match_id", "delta")
    )


# --- for moderators (SPEC 11) ------------------------------------------------------------------------


@dataclass(frozen=True)
class OpponentRecord:
    """The rated matches a player played with one opponent: how many, what those matches did to the
    player's rating and to the opponent's (in a match of three or four, the whole match's change), and
    when the last one was applied. Voided matches are not counted (their changes were taken back)."""

    user_id: int
    username: str
    matches: int
    change: int
    opponent_change: int
    last: datetime


def opponent_history(user_id: int, *, limit: int = 50) -> list[OpponentRecord]:
    """Per opponent, the player's rated matches with them, most matches first (then the latest). Two
    queries, whatever the number of matches."""
    own = {
        match_id: (delta, created_at)
        for match_id, delta, created_at in RatingChange.objects.filter(user_id=user_id).values_list(
            "match_id", "delta", "created_at"
        )
    }
    others = (
        RatingChange.objects.filter(match_id__in=list(own)).exclude(user_id=user_id)
        .values_list("match_id", "user_id", "user__username", "delta")
    )
    records: dict[int, OpponentRecord] = {}
    for match_id, opponent, username, delta in others:
        change, created_at = own[match_id]
        seen = records.get(opponent)
        records[opponent] = (
            OpponentRecord(opponent, username, matches=1, change=change, opponent_change=delta, last=created_at)
            if seen is None
            else replace(
                seen,
                matches=seen.matches + 1,
                change=seen.change + change,
                opponent_change=seen.opponent_change + delta,
                last=max(seen.last, created_at),
            )
        )
    found = list(records.values())
    found.sort(key=lambda record: (-record.matches, -record.last.timestamp()))
    return found[:limit]


def gained_match_ids(user_id: int) -> list[int]:
    """The rated matches (not voided) in which the player's rating went up, in the order they were applied."""
    rows = RatingChange.objects.filter(user_id=user_id, delta__gt=0).order_by("id").values_list("match_id", flat=True)
    return list(rows)


def voided_match_ids(match_ids: Iterable[int]) -> set[int]:
    """Those of `match_ids` a moderator voided."""
    rows = AppliedMatch.objects.filter(match_id__in=list(match_ids), voided_at__isnull=False)
    return set(rows.values_list("match_id", flat=True))
