"""The bot ladder (issue 18): each bot level's strength on one Elo scale, per game, as measured by the
simulator (`bench/ladder.py` writes `bot_ladder.json` next to this module; never edited by hand).

    >>> elo_gap(0.5)
    0
    >>> elo_gap(0.76)
    200
    >>> elo_gap(1.0, games=1000)  # an unbeaten record: as if one game in two thousand was lost
    1320
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

LADDER_FILE = Path(__file__).with_name("bot_ladder.json")


def elo_gap(rate: float, games: int = 1000) -> int:
    """The Elo difference that predicts a win rate `rate` (clipped half a game from 0 and 1)."""
    low = 0.5 / games
    clipped = min(max(rate, low), 1 - low)
    return round(400 * math.log10(clipped / (1 - clipped)))


def fit(levels: tuple[str, ...], results: list[tuple[str, str, float, int]]) -> dict[str, int]:
    """Elo ratings on one scale from pairs' results: the maximum-likelihood Bradley-Terry fit, by
    minorisation-maximisation (Hunter 2004), of results (a, b, a's wins, games), wins kept half a game
    from 0 and from every game; Elo = 400 log10(strength), the first level at 0.

    >>> fit(("easy", "hard"), [("easy", "hard", 24.0, 100)])
    {'easy': 0, 'hard': 200}
    """
    wins = {level: 0.0 for level in levels}
    pairs: dict[tuple[str, str], int] = {}
    for a, b, a_wins, games in results:
        a_wins = min(max(a_wins, 0.5), games - 0.5)
        wins[a] += a_wins
        wins[b] += games - a_wins
        pairs[(a, b)] = pairs.get((a, b), 0) + games
    strength = {level: 1.0 for level in levels}
    for _ in range(2000):
        new = {}
        for level in levels:
            denominator = 0.0
            for (a, b), games in pairs.items():
                if level in (a, b):
                    other = b if level == a else a
                    denominator += games / (strength[level] + strength[other])
            new[level] = wins[level] / denominator if denominator else strength[level]
        anchor = new[levels[0]]
        strength = {level: value / anchor for level, value in new.items()}
    return {level: round(400 * math.log10(strength[level])) for level in levels}



@dataclass(frozen=True)
class Ladder:
    """One game's ladder: Elo by bot level (Easy at 0), and how it was measured."""

    slug: str
    elo: dict[str, int]
    games: int
    seed: int

    def above_easy(self, level: str) -> int | None:
        if level not in self.elo or "easy" not in self.elo:
            return None
        return self.elo[level] - self.elo["easy"]

    @property
    def hard_above_easy(self) -> int | None:
        """What the rules page says: the Hard bot's rating above the Easy bot's, to the nearest 10."""
        gap = self.above_easy("hard")
        return None if gap is None else round(gap, -1)


@cache
def _load() -> dict[str, Any]:
    try:
        return dict(json.loads(LADDER_FILE.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return {}


def ladder_for(slug: str) -> Ladder | None:
    """The ladder of game `slug`, or None when the bench has not measured it."""
    data = _load().get("games", {}).get(slug)
    if not data:
        return None
    return Ladder(slug, {level: int(elo) for level, elo in data["elo"].items()}, int(data["games_per_pair"]), int(_load()["seed"]))
