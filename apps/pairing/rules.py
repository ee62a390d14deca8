"""Who may wait in a pool or post a seek, and what the grouping needs to know of a player (SPEC 15):
read when the player joins, by the services and the pages alike (one rule, one place)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from apps.accounts.bans import why_barred
from apps.leaderboards.selectors import ratings_of
from apps.pairing.pools import Pool
from apps.tables import selectors as tables

START_RATING = 1000.0


class PairingError(Exception):
    """A refusal the player reads (a pool they may not join, a seek already taken)."""

    code = "pairing"


def check_may_join(user: Any, pool: Pool) -> None:
    """Raise PairingError, with what to do about it, if `user` may not wait in `pool` or seek its game."""
    if not getattr(user, "is_authenticated", False):
        raise PairingError(_("Sign in, or play as a guest, to join a pool."))
    if why_barred(user) is not None:
        raise PairingError(_("Your account may not play at the moment."))
    if pool.rated:
        refusal = tables.rated_refusal(user)
        if refusal == "guest":
            raise PairingError(_("Rated pools are for registered players: sign up to play rated games, or join a casual pool."))
        if refusal == "unverified_email":
            raise PairingError(_("Verify your email address to play rated games, or join a casual pool."))
        if refusal is not None:
            raise PairingError(_("Your account may not play rated games: join a casual pool."))


def frequent_leaver(user_id: int) -> bool:
    """A frequent leaver (SPEC 15, grouped with their own kind): of at least PAIRING_LEAVER_MATCHES
    finished matches, left a share of PAIRING_LEAVER_RATE or more before their end (aborted ones too)."""
    record = tables.leaver_record(user_id)
    rate = record.rate
    return (
        record.played >= int(getattr(settings, "PAIRING_LEAVER_MATCHES", 5))
        and rate is not None
        and rate >= float(getattr(settings, "PAIRING_LEAVER_RATE", 0.25))
    )


@dataclass(frozen=True)
class Facts:
    rating: float
    provisional: bool
    leaver: bool


def facts_of(user: Any, game: str) -> Facts:
    """The player's rating in `game` (1000 and provisional without one) and leaving record: read once, when
    the player joins."""
    rating = ratings_of(user.pk).get(game)
    if rating is None:
        return Facts(START_RATING, True, frequent_leaver(user.pk))
    return Facts(float(rating["rating"]), bool(rating["provisional"]), frequent_leaver(user.pk))  # type: ignore[arg-type]  # the selector's values are plain numbers
