"""The moderators' write path (SPEC 11, 13): void a rated match, mark a booster, mute an account's chat,
and the log every moderator action leaves; and the cheap daily trace of where each account is seen from (linked accounts).

Each action is done by the service of the app whose rows it changes (the ratings void their own
history, the accounts mark their own user row) and logged here, in the same transaction.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from apps.accounts.services import user_mark_booster
from apps.chat.services import chat_silence, chat_unsilence
from apps.leaderboards.selectors import gained_match_ids
from apps.leaderboards.voiding import VoidedMatch, rating_void_match
from apps.moderation.models import ModerationAction, Sighting

#: How long "this account was seen from this address and browser today" is remembered (one write a day).
SIGHTING_EVERY = timedelta(days=1)


def action_log(
    *, by: Any, action: str, target_id: int | None = None, match_id: int | None = None, reason: str = "",
    details: dict[str, Any] | None = None,
) -> ModerationAction:
    """Write one moderator action to the log (`by`: the moderator, a user or None for the system)."""
    return ModerationAction.objects.create(
        by_id=getattr(by, "pk", None), action=action, target_id=target_id, match_id=match_id, reason=reason,
        details=details or {},
    )


def match_void(*, match_id: int, by: Any, reason: str) -> VoidedMatch | None:
    """Void a rated match: its rating changes are reversed, exactly once, and the later ratings of its
    players recomputed (apps/leaderboards/voiding.py); logged. Returns None, and logs nothing, if the
    match was voided already. A match not rated yet is voided too: the rating task then skips it."""
    with transaction.atomic():
        voided = rating_void_match(match_id=match_id)
        if voided is not None:
            action_log(
                by=by, action=ModerationAction.Kind.VOID_MATCH, match_id=match_id, reason=reason,
                details={
                    "reversed": {str(user_id): delta for user_id, delta in voided.reversed.items()},
                    "recomputed": voided.recomputed,
                },
            )
    return voided


@dataclass(frozen=True)
class BoosterMarked:
    """What marking an account as a booster did: whether it was newly marked, and the matches voided."""

    user_id: int
    marked: bool
    voided: list[int] = field(default_factory=list)


def account_mark_booster(*, user_id: int, by: Any, reason: str, limit: int = 1000) -> BoosterMarked:
    """Mark the account as a booster (barred from rated play from now on: `apps.accounts.selectors.
    is_booster`) and void its rating gains: every rated match it won points in, one after the other (each
    void recomputes the later matches, so a later match may turn into a gain; it is voided in turn).
    Logged: one row for the marking, one per match voided. Marking again voids any gain left."""
    marked = user_mark_booster(user_id=user_id)
    if marked:
        action_log(by=by, action=ModerationAction.Kind.MARK_BOOSTER, target_id=user_id, reason=reason)
    voided: list[int] = []
    tried: set[int] = set()
    for _step in range(limit):
        gains = [match_id for match_id in gained_match_ids(user_id) if match_id not in tried]
        if not gains:
            break
        tried.add(gains[0])
        if match_void(match_id=gains[0], by=by, reason=reason) is not None:
            voided.append(gains[0])
    return BoosterMarked(user_id=user_id, marked=marked, voided=voided)


def account_mute_chat(*, user_id: int, until: datetime, by: Any, reason: str) -> None:
    """Mute the account's chat until `until` (SPEC 13): what it sends to any table is refused, with the
    reason, while it plays on. Muting again sets the new end. Logged."""
    with transaction.atomic():
        chat_silence(user_id=user_id, until=until, by=by, reason=reason)
        action_log(by=by, action=ModerationAction.Kind.MUTE_CHAT, target_id=user_id, reason=reason,
                   details={"until": until.isoformat()})


def account_unmute_chat(*, user_id: int, by: Any) -> bool:
    """Lift a mute of the account's chat. Returns False, and logs nothing, if none was in force."""
    with transaction.atomic():
        lifted = chat_unsilence(user_id=user_id)
        if lifted:
            action_log(by=by, action=ModerationAction.Kind.UNMUTE_CHAT, target_id=user_id)
    return lifted


def _sighting_key(user_id: int, address: str | None, browser: str | None, day: date) -> str:
    digest = hashlib.sha256(f"{user_id}|{address}|{browser}|{day.isoformat()}".encode()).hexdigest()[:32]
    return f"sighting:{digest}"


def sighting_record(*, user_id: int, address: str | None, browser: str | None, today: date | None = None) -> bool:
    """Note that the account was seen from this network address and browser today: at most one write per
    account, address and browser a day (the cache remembers it was written; no query at all then).
    Returns whether it wrote."""
    today = today or timezone.localdate()
    if not cache.add(_sighting_key(user_id, address, browser, today), 1, timeout=int(SIGHTING_EVERY.total_seconds())):
        return False
    rows = [
        Sighting(user_id=user_id, kind=kind, value=value[:64], first_seen=today, last_seen=today)
        for kind, value in ((Sighting.Kind.ADDRESS, address), (Sighting.Kind.BROWSER, browser))
        if value
    ]
    if rows:
        Sighting.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["user", "kind", "value"], update_fields=["last_seen"]
        )
    return True
