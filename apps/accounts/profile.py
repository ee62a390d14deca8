"""What a profile page shows about a player's matches (read-only; rows written by the table service)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.urls import NoReverseMatch, reverse

from apps.catalog.data import catalog_entry
from apps.leaderboards.models import RatingChange
from apps.tables.models import Game, MatchPlayer

RECENT_MATCHES = 20


def optional_url(name: str, *args: object) -> str:
    """The URL, or "" while the view behind `name` does not exist yet (pages never crash on a link)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@dataclass
class RecentMatch:
    player: MatchPlayer
    game_name: str
    opponents: list[str]
    delta: int | None
    match_url: str
    records: list[tuple[int, str, str]] = field(default_factory=list)  # (game number, download URL, replay URL)

    @property
    def finished(self) -> bool:
        return self.player.match.finished_at is not None


def recent_matches(user_id: int, *, include_private: bool) -> list[RecentMatch]:
    """The player's latest matches with places, points, opponents, rating change and game records.
    Five queries whatever the number of matches. Private tables only when `include_private`."""
    rows = MatchPlayer.objects.filter(user_id=user_id).select_related("match__table").order_by("-match_id")
    if not include_private:
        rows = rows.filter(match__table__private=False)
    players = list(rows[:RECENT_MATCHES])
    match_ids = [player.match_id for player in players]
    opponents: dict[int, list[str]] = defaultdict(list)
    for other in MatchPlayer.objects.filter(match_id__in=match_ids).exclude(user_id=user_id).order_by("seat"):
        opponents[other.match_id].append(other.name)
    deltas = dict(
        RatingChange.objects.filter(user_id=user_id, match_id__in=match_ids).values_list("match_id", "delta")
    )
    records: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
    finished_games = Game.objects.filter(match_id__in=match_ids, finished_at__isnull=False).order_by("number")
    for game_id, match_id, number in finished_games.values_list("id", "match_id", "number"):
        url = optional_url("tables:game_record", game_id)
        if url:
            records[match_id].append((number, url, optional_url("review:replay", game_id)))
    recent = []
    for player in players:
        entry = catalog_entry(player.match.game)
        recent.append(
            RecentMatch(
                player=player,
                game_name=str(entry.name) if entry else player.match.game,
                opponents=opponents[player.match_id],
                delta=deltas.get(player.match_id),
                match_url=optional_url("tables:match", player.match_id),
                records=records[player.match_id],
            )
        )
    return recent
