"""What a profile page shows about a player's matches (read through apps/tables/selectors.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import NoReverseMatch, reverse

from apps.catalog.data import catalog_entry
from apps.leaderboards.selectors import rating_deltas
from apps.tables.selectors import PlayedMatch, matches_of

RECENT_MATCHES = 20


def optional_url(name: str, *args: object) -> str:
    """The URL, or "" while the view behind `name` does not exist yet (pages never crash on a link)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@dataclass
class RecentMatch:
    player: PlayedMatch
    game_name: str
    opponents: list[str]
    delta: int | None
    match_url: str
    records: list[tuple[int, str, str]] = field(default_factory=list)  # (game number, download URL, replay URL)

    @property
    def finished(self) -> bool:
        return self.player.finished

    @property
    def opponents_marked(self) -> list[tuple[str, bool]]:
        """Each opponent's name, and whether it is a bot account (the page marks it BOT)."""
        return list(zip(self.opponents, self.player.opponent_bot_accounts, strict=True))


def recent_matches(user_id: int, *, include_private: bool) -> list[RecentMatch]:
    """The player's latest matches with places, points, opponents, rating change and game records.
    Five queries whatever the number of matches. Private tables only when `include_private`."""
    played = matches_of(user_id, include_private=include_private, limit=RECENT_MATCHES)
    deltas = rating_deltas(user_id, [match.id for match in played])
    recent = []
    for match in played:
        entry = catalog_entry(match.game)
        records = [
            (number, url, optional_url("review:replay", game_id))
            for number, game_id in match.finished_games
            if (url := optional_url("tables:game_record", game_id))
        ]
        recent.append(
            RecentMatch(
                player=match,
                game_name=str(entry.name) if entry else match.game,
                opponents=match.opponents,
                delta=deltas.get(match.id),
                match_url=optional_url("tables:match", match.id),
                records=records,
            )
        )
    return recent
