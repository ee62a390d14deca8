"""The one write path for ratings: apply a finished rated match, exactly once."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.leaderboards.models import AppliedMatch, Rating, RatingChange
from apps.leaderboards.rating import Standing, effective_places, rating_changes
from apps.leaderboards.selectors import count_cache_key
from apps.tables.selectors import finished_match, finished_rated_match_ids

logger = logging.getLogger(__name__)


def rating_apply_match(*, match_id: int) -> bool:
    """Apply a finished rated match to its players' ratings. Returns True if this call applied it.

    Exactly once: the match's row in the ledger (AppliedMatch, unique per match) is written first, in
    the same transaction as the ratings; a second call (a retried task, the periodic sweep, another
    worker at the same moment) cannot write it again and changes nothing. The RatingChange unique
    constraint is the last line of defence.
    """
    finished = finished_match(match_id)
    if finished is None or not finished.rated:
        return False
    players = finished.players
    with transaction.atomic():
        try:
            with transaction.atomic():
                AppliedMatch.objects.create(match_id=match_id, rated=len(players) >= 2)
        except IntegrityError:
            return False  # applied already
        if len(players) < 2:
            # Nothing to rate; the ledger says so, and the periodic sweep stops picking it up.
            logger.warning("match %s is marked rated but has fewer than two registered players", match_id)
            return False
        user_ids = sorted(player.user_id for player in players)
        # Create missing rows without racing another worker rating a different match of the same
        # player, then lock all rows in a fixed order (user id) so two such workers cannot deadlock.
        known = set(Rating.objects.filter(game=finished.game, user_id__in=user_ids).values_list("user_id", flat=True))
        Rating.objects.bulk_create(
            [Rating(user_id=user_id, game=finished.game) for user_id in user_ids if user_id not in known],
            ignore_conflicts=True,
        )
        ratings = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(game=finished.game, user_id__in=user_ids).order_by("user_id")
        }
        standings = [
            Standing(key=p.user_id, rating=ratings[p.user_id].rating, matches=ratings[p.user_id].matches, place=p.place,
                     left=p.left)
            for p in players
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
                    match_id=match_id,
                    user_id=user_id,
                    game=finished.game,
                    place=places[user_id],
                    before=before,
                    after=rating.rating,
                    delta=changes[user_id],
                )
            )
        RatingChange.objects.bulk_create(history)
    if len(known) < len(user_ids):
        cache.delete(count_cache_key(finished.game))  # new players on the leaderboard: count again
    return True


def matches_waiting_for_ratings(*, older_than: timedelta = timedelta(minutes=2)) -> list[int]:
    """Finished rated matches not yet in the ledger, finished more than `older_than` ago: the sweep's
    backstop for a lost task (the task normally runs within a second of the match ending)."""
    return finished_rated_match_ids(
        before=timezone.now() - older_than, excluding=AppliedMatch.objects.values("match_id")
    )
