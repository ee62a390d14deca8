"""Who may see a table: one rule for the table page and its WebSocket; and a match's records: one rule
for the match page, the record download and the bot API.

A public table is open to every visitor. A private one only to those holding its invite token, the
players seated at it, and moderators. A match of a private table only to its players and moderators.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db.models import Q

from apps.tables.models import Match, MatchPlayer, Seat, Table


def may_watch(table: Table, user: Any, invite: str = "") -> bool:
    if not table.private:
        return True
    if invite and secrets.compare_digest(invite, table.invite_token):
        return True
    if user is None or not user.is_authenticated:
        return False
    # A bot account invited into a seat may look at the table before it accepts (SPEC 14).
    return bool(user.is_staff) or Seat.objects.filter(Q(user=user) | Q(invited=user), table=table).exists()


def may_see_match(match: Match, user: Any) -> bool:
    """`match.table` must be loaded (select_related) or it is read."""
    if not match.table.private:
        return True
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or MatchPlayer.objects.filter(match=match, user=user).exists()
