"""What other apps read of accounts beyond the user row itself: who may play rated (SPEC 11).

`is_booster` is the one answer to "was this account marked as a booster": the rated verdict asks it for
each seat (or `booster_ids` for all seats in one query) and plays the table unrated if any is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from apps.accounts.models import User


def is_booster(user: Any) -> bool:
    """True if a moderator marked this account as a booster: it is barred from rated play. Read from the
    row in hand (no query); a guest, an anonymous visitor or None is no booster."""
    return bool(getattr(user, "booster_since", None))


def booster_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Those of `user_ids` marked as boosters, in one query (none at all for an empty list)."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if not ids:
        return set()
    return set(User.objects.filter(pk__in=ids, booster_since__isnull=False).values_list("pk", flat=True))
