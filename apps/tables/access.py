"""Who may see a table: one rule for the table page and its WebSocket.

A public table is open to every visitor. A private one only to those holding its invite token, the
players seated at it, and moderators.
"""

from __future__ import annotations

import secrets
from typing import Any

from apps.tables.models import Seat, Table


def may_watch(table: Table, user: Any, invite: str = "") -> bool:
    if not table.private:
        return True
    if invite and secrets.compare_digest(invite, table.invite_token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or Seat.objects.filter(table=table, user=user).exists()
