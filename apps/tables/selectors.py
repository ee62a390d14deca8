"""What other apps read of tables, matches and games (CONVENTIONS 17): they call these, never the
models. Each returns plain values or querysets of this app's rows for display; none of them writes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import QuerySet

from apps.tables.models import Game, Match, MatchPlayer


@dataclass(frozen=True)
class RatedPlayer:
    user_id: int
    place: int
    left: bool


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match as the ratings see it: only the registered humans who played it."""

    id: int
    game: str
    rated: bool
    players: tuple[RatedPlayer, ...]


def finished_match(match_id: int) -> FinishedMatch | None:
    """The match if it is over (None while it runs, or if there is no such match). Bots and guests are
    left out of `players`: they never have a rating, even if a match was wrongly marked rated."""
    match = Match.objects.filter(pk=match_id, finished_at__isnull=False).first()
    if match is None:
        return None
    players = tuple(
        RatedPlayer(player.user_id, player.place or 0, player.left)
        for player in match.players.select_related("user").order_by("seat")
        if player.user_id is not None and not player.bot_level and not player.user.is_guest  # type: ignore[union-attr]
    )
    return FinishedMatch(match.pk, match.game, match.rated, players)


def finished_rated_match_ids(*, before: datetime, excluding: QuerySet[object] | None = None, limit: int = 500) -> list[int]:
    """Rated matches that finished before `before`, oldest first, leaving out the ids of `excluding`
    (a values queryset: the ratings' own ledger of matches already applied)."""
    matches = Match.objects.filter(rated=True, finished_at__lt=before)
    if excluding is not None:
        matches = matches.exclude(pk__in=excluding)
    return list(matches.order_by("finished_at").values_list("pk", flat=True)[:limit])


@dataclass
class PlayedMatch:
    """One match of a player, for their profile."""

    id: int
    game: str
    seat: int
    points: int | None
    place: int | None
    left: bool
    finished_at: datetime | None
    started_at: datetime
    opponents: list[str] = field(default_factory=list)
    finished_games: list[tuple[int, int]] = field(default_factory=list)  # (game number, game id)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def matches_of(user_id: int, *, include_private: bool, limit: int = 20) -> list[PlayedMatch]:
    """The player's latest matches, newest first, with opponents and finished games. Three queries,
    whatever the number of matches. Private tables only when `include_private`."""
    rows = MatchPlayer.objects.filter(user_id=user_id).select_related("match").order_by("-match_id")
    if not include_private:
        rows = rows.filter(match__table__private=False)
    players = list(rows[:limit])
    match_ids = [player.match_id for player in players]
    opponents: dict[int, list[str]] = defaultdict(list)
    for match_id, name in (
        MatchPlayer.objects.filter(match_id__in=match_ids).exclude(user_id=user_id).order_by("seat")
        .values_list("match_id", "name")
    ):
        opponents[match_id].append(name)
    games: dict[int, list[tuple[int, int]]] = defaultdict(list)
    finished = Game.objects.filter(match_id__in=match_ids, finished_at__isnull=False).order_by("number")
    for game_id, match_id, number in finished.values_list("id", "match_id", "number"):
        games[match_id].append((number, game_id))
    return [
        PlayedMatch(
            id=player.match_id,
            game=player.match.game,
            seat=player.seat,
            points=player.points,
            place=player.place,
            left=player.left,
            finished_at=player.match.finished_at,
            started_at=player.match.started_at,
            opponents=opponents[player.match_id],
            finished_games=games[player.match_id],
        )
        for player in players
    ]
