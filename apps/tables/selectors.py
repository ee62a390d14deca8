"""What other apps read of tables, matches and games (CONVENTIONS 17): they call these, never the
models. Each returns plain values or querysets of this app's rows for display; none of them writes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import QuerySet

from apps.bots.selectors import bot_account_ids
from apps.tables.models import Game, Match, MatchPlayer


@dataclass(frozen=True)
class RatedPlayer:
    user_id: int
    place: int
    left: bool


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match as the ratings see it: only the registered players who played it. `bots`: they
    are all bot accounts, rated on the bots' board (SPEC 14)."""

    id: int
    game: str
    rated: bool
    players: tuple[RatedPlayer, ...]
    bots: bool = False


def finished_match(match_id: int) -> FinishedMatch | None:
    """The match if it is over (None while it runs, or if there is no such match). Site bots and guests
    are left out of `players`: they never have a rating, even if a match was wrongly marked rated. Bot
    accounts are rated only in a match of bot accounts alone; where bot accounts and people met, nobody is
    (a table with a bot account is unrated for its humans, SPEC 14), whatever the match says."""
    match = Match.objects.filter(pk=match_id, finished_at__isnull=False).first()
    if match is None:
        return None
    rows = list(match.players.select_related("user").order_by("seat"))
    bots = bot_account_ids(player.user_id for player in rows)
    registered = [
        player for player in rows
        if player.user_id is not None and not player.bot_level and not player.user.is_guest  # type: ignore[union-attr]
    ]
    among_bots = bool(bots) and len(registered) == len(rows) and all(player.user_id in bots for player in rows)
    if bots and not among_bots:
        registered = []
    players = tuple(RatedPlayer(player.user_id, player.place or 0, player.left) for player in registered)  # type: ignore[arg-type]
    return FinishedMatch(match.pk, match.game, match.rated, players, bots=among_bots)


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
    opponent_bot_accounts: list[bool] = field(default_factory=list)  # per opponent: a bot account (SPEC 14)
    finished_games: list[tuple[int, int]] = field(default_factory=list)  # (game number, game id)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def matches_of(user_id: int, *, include_private: bool, limit: int = 20) -> list[PlayedMatch]:
    """The player's latest matches, newest first, with opponents (and which are bot accounts) and finished
    games. Four queries, whatever the number of matches. Private tables only when `include_private`."""
    rows = MatchPlayer.objects.filter(user_id=user_id).select_related("match").order_by("-match_id")
    if not include_private:
        rows = rows.filter(match__table__private=False)
    players = list(rows[:limit])
    match_ids = [player.match_id for player in players]
    opponents: dict[int, list[str]] = defaultdict(list)
    opponent_bots: dict[int, list[bool]] = defaultdict(list)
    rows = list(
        MatchPlayer.objects.filter(match_id__in=match_ids).exclude(user_id=user_id).order_by("seat")
        .values_list("match_id", "name", "user_id")
    )
    bot_accounts = bot_account_ids(opponent for _match, _name, opponent in rows)
    for match_id, name, opponent in rows:
        opponents[match_id].append(name)
        opponent_bots[match_id].append(opponent in bot_accounts)
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
            opponent_bot_accounts=opponent_bots[player.match_id],
            finished_games=games[player.match_id],
        )
        for player in players
    ]
