"""Reads for moderators: the accounts linked to an account by a shared network address or browser."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Exists, OuterRef

from apps.moderation.models import Sighting


@dataclass(frozen=True)
class LinkedAccount:
    """Another account seen from the same network address or browser, and the last day it was."""

    user_id: int
    username: str
    kind: str
    value: str
    last_seen: date


def linked_accounts(user_id: int, *, limit: int = 50) -> list[LinkedAccount]:
    """The accounts that share an address or a browser with this one, one line per shared value, the most
    recently seen first. One query (through the (kind, value) index)."""
    mine = Sighting.objects.filter(user_id=user_id, kind=OuterRef("kind"), value=OuterRef("value"))
    rows = (
        Sighting.objects.filter(Exists(mine)).exclude(user_id=user_id).select_related("user")
        .order_by("-last_seen", "user_id")[:limit]
    )
    return [LinkedAccount(row.user_id, row.user.username, row.kind, row.value, row.last_seen) for row in rows]


def shares_with_another() -> Exists:
    """For a queryset of users: this user shares an address or a browser with some other account."""
    other = Sighting.objects.filter(kind=OuterRef("kind"), value=OuterRef("value")).exclude(user_id=OuterRef("user_id"))
    return Exists(Sighting.objects.filter(user_id=OuterRef("pk")).filter(Exists(other)))
