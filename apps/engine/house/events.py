"""What a change of a house game did, for the "What happened" log (SPEC 13), read from the spectators'
views before and after it (`HouseRules.play_events`): a discard, the last discard taken into a meld, an
opening with its points, melds laid, a joker taken from the table, tiles laid off.

    >>> before = {"turn": 0, "discards": [], "melds": [], "players": [{"opened": False}]}
    >>> play_events(before, {**before, "turn": 1, "discards": ["r5"]})
    [{'code': 'discarded', 'seat': 0, 'tile': 'r5'}]
"""

from __future__ import annotations

from collections import Counter

from apps.engine.game import JSON
from apps.engine.log_events import meld_faces


def play_events(before: JSON, after: JSON) -> list[JSON]:
    entries: list[JSON] = []
    mover = before.get("turn")
    discards_a, discards_b = before.get("discards") or [], after.get("discards") or []
    took = discards_a[-1] if len(discards_b) < len(discards_a) else None
    if len(discards_b) > len(discards_a):
        entries.append({"code": "discarded", "seat": mover, "tile": discards_b[-1]})
    melds_a, melds_b = before.get("melds") or [], after.get("melds") or []
    players_a = before.get("players") or []
    opened = {seat for seat, player in enumerate(after.get("players") or [])
              if player.get("opened") and seat < len(players_a) and not players_a[seat].get("opened")}
    new = melds_b[len(melds_a):]
    if new:
        owner = new[0]["owner"]
        tiles = meld_faces(new)
        if took is not None:
            entries.append({"code": "took_discard", "seat": owner, "tile": took, "melds": tiles})
        elif owner in opened:
            entries.append({"code": "opened", "seat": owner, "points": sum(meld.get("points", 0) for meld in new),
                            "melds": tiles})
        else:
            entries.append({"code": "laid", "seat": owner, "melds": tiles})
    for index, meld in enumerate(melds_b[: len(melds_a)]):
        old = melds_a[index]
        jokers_before = sum(1 for face in old["tiles"] if face == "J")
        jokers_after = sum(1 for face in meld["tiles"] if face == "J")
        if jokers_after < jokers_before:
            entries.append({"code": "joker", "seat": mover})
        elif len(meld["tiles"]) > len(old["tiles"]):
            added = Counter(meld["tiles"]) - Counter(old["tiles"])
            entries.append({"code": "laid_off", "seat": mover, "tiles": list(added.elements())})
    return entries
