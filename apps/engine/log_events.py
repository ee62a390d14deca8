"""The "What happened" log's entries (SPEC 13) that every game shares, and the reading of views they are
found by.

A game's `Rules.events(before, after)` says what one change of a game did, as entries of a code and its
parameters (no words: each page says them in its reader's language). Entries are found by comparing the
spectators' views before and after the change, so nothing hidden ever goes into the log. The game's own
module finds what its moves did (`play_events`); this module adds what any seat may do in any game (stand
up, go on autopilot, come back) and the end of the game, in the order the page shows them.

    >>> before = {"over": False, "players": [{"away": False, "left": False}, {"away": False, "left": False}]}
    >>> after = {"over": True, "players": [{"away": False, "left": False}, {"away": False, "left": True}]}
    >>> seat_events(before, after)
    [{'code': 'left', 'seat': 1}, {'code': 'game_over'}]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from apps.engine.tiles import Tile

JSON = dict[str, Any]  # as `apps.engine.game.JSON` (which imports this module)


def seat_events(before: JSON, after: JSON) -> list[JSON]:
    """The seats that left, went on autopilot or came back, then the end of the game."""
    entries: list[JSON] = []
    old_players = before.get("players") or []
    for seat, player in enumerate(after.get("players") or []):
        old = old_players[seat] if seat < len(old_players) else None
        if not old:
            continue
        if player.get("left") and not old.get("left"):
            entries.append({"code": "left", "seat": seat})
        elif player.get("away") and not old.get("away"):
            entries.append({"code": "autopilot", "seat": seat})
        elif not player.get("away") and old.get("away"):
            entries.append({"code": "back", "seat": seat})
    if after.get("over") and not before.get("over"):
        entries.append({"code": "game_over"})
    return entries


def meld_faces(melds: Iterable[Any]) -> list[list[str]]:
    """The faces of each meld of a view (a meld's dict, or its list of faces)."""
    return [list(meld["tiles"] if isinstance(meld, dict) else meld) for meld in melds]


def in_table_order(faces: Iterable[str]) -> list[str]:
    """Faces in a log line's order: by colour, then number, a joker last (the engine's own tile order)."""
    return sorted(faces, key=lambda face: Tile.parse(face).key)
