"""What a change of a Rearrange game did, for the "What happened" log (SPEC 13), read from the spectators'
views before and after it (`RearrangeRules.play_events`): the tiles a play placed and how many sets it
took apart, a draw, a pass.

    >>> before = {"turn": 0, "table": [], "players": [{"tiles": 14, "passed": False}]}
    >>> play_events(before, {**before, "turn": 1, "players": [{"tiles": 15, "passed": False}]})
    [{'code': 'drew', 'seat': 0, 'count': 1}]
"""

from __future__ import annotations

from collections import Counter

from apps.engine.game import JSON
from apps.engine.log_events import in_table_order, meld_faces


def play_events(before: JSON, after: JSON) -> list[JSON]:
    mover = before.get("turn")
    if mover is None:
        return []
    was, now = before["players"][mover], after["players"][mover]
    if now["tiles"] < was["tiles"]:
        old, new = meld_faces(before.get("table") or []), meld_faces(after.get("table") or [])
        placed = Counter(face for meld in new for face in meld) - Counter(face for meld in old for face in meld)
        return [{"code": "placed", "seat": mover, "tiles": in_table_order(placed.elements()),
                 "count": was["tiles"] - now["tiles"], "rebuilt": rebuilt(old, new, placed)}]
    if now["tiles"] > was["tiles"]:
        return [{"code": "drew", "seat": mover, "count": now["tiles"] - was["tiles"]}]
    if now.get("passed") and not was.get("passed"):
        return [{"code": "passed", "seat": mover}]
    return []


def rebuilt(old: list[list[str]], new: list[list[str]], placed: Counter[str]) -> int:
    """How many of the old melds were taken apart: a meld left as it was, or only lengthened with tiles
    from the rack (a lay-off), was not rebuilt."""
    free = [Counter(meld) for meld in new]
    count = 0
    for meld in sorted(old, key=len, reverse=True):  # the longest first: a short one fits inside more
        tiles = Counter(meld)
        home = next((i for i, candidate in enumerate(free) if not tiles - candidate and not (candidate - tiles) - placed), None)
        if home is None:
            count += 1
        else:
            free.pop(home)
    return count
