"""The one write path for ratings: apply a finished rated match, exactly once."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from apps.leaderboards.models import Rating, RatingChange
from apps.leaderboards.rating import Standing, effective_places, rating_changes
from apps.leaderboards.selectors import count_cache_key
from apps.tables.models import Match, MatchPlayer

logger = logging.getLogger(__name__)


def _is_rated_player(player: MatchPlayer) -> bool:
    """Bots and guests never have a rating, even if such a match was wrongly marked rated."""
    return player.user_id is not None and not player.bot_level and not player.user.is_guest  # type: ignore[union-attr]


def rating_apply_match(*, match_id: int) -> bool:
    """Apply a finished rated match to its players' ratings. Returns True if this call applied it.

    Idempotent: the match row is locked and `rated_at` is set in the same transaction, so a second call
    (a retried task, the periodic sweep) finds it applied and changes nothing. The RatingChange unique
    constraint is the last line of defence if the lock is ever bypassed.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not match.rated or match.finished_at is None or match.rated_at is not None:
            return False
        players = [p for p in match.players.select_related("user") if _is_rated_player(p)]
        if len(players) < 2:
            # Nothing to rate; mark it done anyway so the periodic sweep stops picking it up.
            logger.warning("match %s is marked rated but has fewer than two registered players", match_id)
            match.rated_at = timezone.now()
            match.save(update_fields=["rated_at"])
            return False
        user_ids = sorted(p.user_id for p in players if p.user_id is not None)
        # Create missing rows without racing another worker rating a different match of the same
        # player, then lock all rows in a fixed order (user id) so two such workers cannot deadlock.
        known = set(Rating.objects.filter(game=match.game, user_id__in=user_ids).values_list("user_id", flat=True))
        Rating.objects.bulk_create(
            [Rating(user_id=user_id, game=match.game) for user_id in user_ids if user_id not in known],
            ignore_conflicts=True,
        )
        ratings = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(game=match.game, user_id__in=user_ids).order_by("user_id")
        }
        standings = [
            Standing(key=p.user_id, rating=ratings[p.user_id].rating, matches=ratings[p.user_id].matches, place=p.place, left=p.left)
            for p in players
            if p.user_id is not None
        ]
        changes = rating_changes(standings)
        places = effective_places(standings)
        history = []
        for user_id in user_ids:
            rating = ratings[user_id]
            before = rating.rating
            rating.rating = before + changes[user_id]
            rating.matches += 1
            rating.peak = max(rating.peak, rating.rating)
            rating.save(update_fields=["rating", "matches", "peak", "updated_at"])
            history.append(
                RatingChange(
                    match=match,
                    user_id=user_id,
                    game=match.game,
                    place=places[user_id],
                    before=before,
                    after=rating.rating,
                    delta=changes[user_id],
                )
            )
        RatingChange.objects.bulk_create(history)
        match.rated_at = timezone.now()
        match.save(update_fields=["rated_at"])
    if len(known) < len(user_ids):
        cache.delete(count_cache_key(match.game))  # new players on the leaderboard: count again
    return True


def matches_waiting_for_ratings(*, older_than: timedelta = timedelta(minutes=2)) -> list[int]:
    """Finished rated matches not yet applied, finished more than `older_than` ago: the sweep's backstop
    for a lost task (the task normally runs within a second of the match ending)."""
    cutoff = timezone.now() - older_than
    return list(
        Match.objects.filter(rated=True, rated_at__isnull=True, finished_at__lt=cutoff)
        .order_by("finished_at")
        .values_list("pk", flat=True)[:500]
    )
