"""The "What happened" log of a game (SPEC 13), kept on the server so a reload or a reconnect shows the
same lines: each change of a game adds entries, codes and parameters (no words: each page words them,
static/js/events.js). What a change did is the game's own knowledge (`Rules.events`, from the spectators'
views before and after it: nothing hidden goes into the log); this module keeps the game's last KEEP
entries (`Game.log`, saved with the move that made them), and the table's frames carry them.

    >>> before = {"game": "tile-rummy", "turn": 0, "over": False, "discards": [], "melds": [],
    ...           "players": [{"tiles": 15, "opened": False, "away": False, "left": False}]}
    >>> after = {**before, "turn": 1, "discards": ["r5"], "players": [{**before["players"][0], "tiles": 14}]}
    >>> entries(before, after)
    [{'code': 'discarded', 'seat': 0, 'tile': 'r5'}]
"""

from __future__ import annotations

from typing import Any

from apps.engine.game import get_rules

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
    """What one change did, from the public views before and after it (in the order the page shows): the
    entries of the game the views are of."""
    return get_rules(after["game"]).events(before, after)
