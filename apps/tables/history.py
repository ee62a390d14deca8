"""The "What happened" log of a game (SPEC 13), kept on the server so a reload or a reconnect shows the
same lines: each change of a game adds entries, codes and parameters (no words: each page words them,
static/js/events.js), found by comparing what every viewer could see before and after it (the
spectators' view: nothing hidden goes into the log). The game keeps its last KEEP entries (`Game.log`,
saved with the move that made them) and the table's frames carry them.

    >>> before = {"turn": 0, "over": False, "discards": [], "melds": [],
    ...           "players": [{"tiles": 15, "opened": False, "away": False, "left": False}]}
    >>> after = {**before, "turn": 1, "discards": ["r5"], "players": [{**before["players"][0], "tiles": 14}]}
    >>> entries(before, after)
    [{'code': 'discarded', 'seat': 0, 'tile': 'r5'}]
"""

from __future__ import annotations

from collections import Counter
from typing import Any

#: How many entries a game keeps (the page shows them newest first).
KEEP = 30

Entry = dict[str, Any]


def new_game(number: int) -> list[Entry]:
    """The log a freshly dealt game starts with."""
    return [{"code": "new_game", "n": number}]


def kept(log: list[Entry] | None, added: list[Entry]) -> list[Entry]:
    """The game's log with `added` at its end, at most KEEP entries."""
    return [*(log or []), *added][-KEEP:]


def entries(before: dict[str, Any], after: dict[str, Any]) -> list[Entry]:
    """What one change did, from the public views before and after it (in the order the page shows)."""
    lines: list[Entry] = []
    mover = before.get("turn")
    if "table" in after:
        _rearrange(before, after, mover, lines)
    else:
        _house(before, after, mover, lines)
    old_players = before.get("players") or []
    for seat, player in enumerate(after.get("players") or []):
        old = old_players[seat] if seat < len(old_players) else None
        if not old:
            continue
        if player.get("left") and not old.get("left"):
            lines.append({"code": "left", "seat": seat})
        elif player.get("away") and not old.get("away"):
            lines.append({"code": "autopilot", "seat": seat})
        elif not player.get("away") and old.get("away"):
            lines.append({"code": "back", "seat": seat})
    if after.get("over") and not before.get("over"):
        lines.append({"code": "game_over"})
    return lines


def _faces(melds: list[Any]) -> list[list[str]]:
    return [list(meld["tiles"] if isinstance(meld, dict) else meld) for meld in melds]


def _rearrange(a: dict[str, Any], b: dict[str, Any], mover: int | None, lines: list[Entry]) -> None:
    if mover is None:
        return
    before, after = a["players"][mover], b["players"][mover]
    if after["tiles"] < before["tiles"]:
        old, new = _faces(a.get("table") or []), _faces(b.get("table") or [])
        placed = Counter(face for meld in new for face in meld) - Counter(face for meld in old for face in meld)
        rebuilt = _rebuilt(old, new, placed)
        lines.append({"code": "placed", "seat": mover, "tiles": sorted(placed.elements(), key=_order),
                      "count": before["tiles"] - after["tiles"], "rebuilt": rebuilt})
    elif after["tiles"] > before["tiles"]:
        lines.append({"code": "drew", "seat": mover, "count": after["tiles"] - before["tiles"]})
    elif after.get("passed") and not before.get("passed"):
        lines.append({"code": "passed", "seat": mover})


def _rebuilt(old: list[list[str]], new: list[list[str]], placed: Counter[str]) -> int:
    """How many of the old melds were taken apart: a meld left as it was, or only lengthened with tiles
    from the rack (a lay-off), was not rebuilt."""
    free = [Counter(meld) for meld in new]
    rebuilt = 0
    for meld in sorted(old, key=len, reverse=True):  # the longest first: a short one fits inside more
        tiles = Counter(meld)
        home = next((i for i, candidate in enumerate(free) if not tiles - candidate and not (candidate - tiles) - placed), None)
        if home is None:
            rebuilt += 1
        else:
            free.pop(home)
    return rebuilt


def _order(face: str) -> tuple[int, int]:
    """Tiles in a line by colour, then number (a joker last)."""
    if face[:1] in ("r", "y", "b", "k") and face[1:].isdigit():
        return ("rybk".index(face[0]), int(face[1:]))
    return (4, 0)


def _house(a: dict[str, Any], b: dict[str, Any], mover: int | None, lines: list[Entry]) -> None:
    discards_a, discards_b = a.get("discards") or [], b.get("discards") or []
    took = discards_a[-1] if len(discards_b) < len(discards_a) else None
    if len(discards_b) > len(discards_a):
        lines.append({"code": "discarded", "seat": mover, "tile": discards_b[-1]})
    melds_a, melds_b = a.get("melds") or [], b.get("melds") or []
    players_a = a.get("players") or []
    opened = {seat for seat, player in enumerate(b.get("players") or [])
              if player.get("opened") and seat < len(players_a) and not players_a[seat].get("opened")}
    new = melds_b[len(melds_a):]
    if new:
        owner = new[0]["owner"]
        tiles = _faces(new)
        if took is not None:
            lines.append({"code": "took_discard", "seat": owner, "tile": took, "melds": tiles})
        elif owner in opened:
            lines.append({"code": "opened", "seat": owner, "points": sum(meld.get("points", 0) for meld in new),
                          "melds": tiles})
        else:
            lines.append({"code": "laid", "seat": owner, "melds": tiles})
    for index, meld in enumerate(melds_b[: len(melds_a)]):
        old = melds_a[index]
        jokers_before = sum(1 for face in old["tiles"] if face == "J")
        jokers_after = sum(1 for face in meld["tiles"] if face == "J")
        if jokers_after < jokers_before:
            lines.append({"code": "joker", "seat": mover})
        elif len(meld["tiles"]) > len(old["tiles"]):
            added = Counter(meld["tiles"]) - Counter(old["tiles"])
            lines.append({"code": "laid_off", "seat": mover, "tiles": list(added.elements())})
