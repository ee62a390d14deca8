"""What other apps read of tables, matches and games (CONVENTIONS 17): they call these, never the
models. Each returns plain values or querysets of this app's rows for display; none of them writes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Max, Model, Q, QuerySet
from django.utils.translation import gettext as _

from apps.bots.selectors import bot_account_ids
from apps.engine.game import get_rules
from apps.tables import rated
from apps.tables.access import may_see_match
from apps.tables.models import BotLevel, Game, Match, MatchPlayer, MoveLog, Seat, Table
from apps.tables.records import game_record


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
        if player.user is not None and not player.bot_level and not player.user.is_guest
    ]
    # Whether they are bot accounts alone, by the one rule (apps/tables/rated.py): the match's start
    # already checked the emails, the pace and the daily cap, so those are taken as passed here.
    among_bots = rated.verdict(
        [
            rated.SeatFacts(
                player.user_id,
                bot=bool(player.bot_level) or player.user_id is None,
                guest=bool(player.user and player.user.is_guest),
                bot_account=player.user_id in bots,
                verified=True,
            )
            for player in rows
        ],
        turn_seconds=1,
    ).among_bots
    if bots and not among_bots:
        registered = []
    players = tuple(RatedPlayer(player.user_id, player.place or 0, player.left) for player in registered)  # type: ignore[arg-type]  # registered: each has a user
    return FinishedMatch(match.pk, match.game, match.rated, players, bots=among_bots)


def finished_rated_match_ids(*, before: datetime, excluding: QuerySet[Model, Any] | None = None, limit: int = 500) -> list[int]:
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
    aborted: bool = False  # SPEC 11: a seat stood up before the abort window closed (no places, no rating)

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
    opponent_rows = list(
        MatchPlayer.objects.filter(match_id__in=match_ids).exclude(user_id=user_id).order_by("seat")
        .values_list("match_id", "name", "user_id")
    )
    bot_accounts = bot_account_ids(opponent for _match, _name, opponent in opponent_rows)
    for match_id, name, opponent in opponent_rows:
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
            aborted=bool(player.match.aborted),
        )
        for player in players
    ]


@dataclass(frozen=True)
class LeaverRecord:
    """How often a player left a match before its end (SPEC 11: shown to moderators): of the matches they
    played that are over, how many they left."""

    played: int
    left: int

    @property
    def rate(self) -> float | None:
        """The share of matches left, 0 to 1 (None: no match played yet)."""
        return self.left / self.played if self.played else None


def leaver_record(user_id: int) -> LeaverRecord:
    """The player's finished matches and how many of them they left, in one query."""
    counts = MatchPlayer.objects.filter(user_id=user_id, match__finished_at__isnull=False).aggregate(
        played=Count("pk"), left=Count("pk", filter=Q(left=True))
    )
    return LeaverRecord(played=counts["played"], left=counts["left"])


# --- finished games and the seat to move, for the review and hints (apps/review) ---------------------


def finished_game(game_id: int) -> Game | None:
    """A finished game with its match and table, or None (no such game, or still being played)."""
    return Game.objects.select_related("match__table").filter(pk=game_id, finished_at__isnull=False).first()


def may_see_game(game: Game, user: Any) -> bool:
    """For other apps (the review page): a game is seen by whoever may see its match, by the one rule of
    apps/tables/access.py (a public table's to everyone; a private one's to its players and moderators)."""
    return may_see_match(game.match, user)


def finished_game_record(game: Game) -> dict[str, Any]:
    """The engine record (docs/record-format.md) of a finished game."""
    return game_record(game)


@dataclass(frozen=True)
class GamePlayer:
    seat: int
    name: str
    user_id: int | None
    is_bot: bool
    bot_account: bool = False  # a program playing through a bot account (SPEC 14), marked BOT


def game_players(game: Game) -> list[GamePlayer]:
    """Who sat where in the game's match, by seat."""
    rows = list(MatchPlayer.objects.filter(match_id=game.match_id).order_by("seat"))
    bot_accounts = bot_account_ids(player.user_id for player in rows)
    return [
        GamePlayer(player.seat, player.name, player.user_id, bool(player.bot_level), player.user_id in bot_accounts)
        for player in rows
    ]


def finished_game_ids(*, since: datetime, limit: int = 500) -> list[int]:
    """Games finished since `since`, oldest first."""
    rows = Game.objects.filter(finished_at__gte=since).order_by("finished_at").values_list("pk", flat=True)
    return list(rows[:limit])


@dataclass(frozen=True)
class SeatPosition:
    """A table as one user sees it now, read without a lock: the game in progress (its engine state and
    how many moves it has), the table's version, whether it is rated, and the user's seat (None: watching)."""

    table_id: int
    game_slug: str
    version: int
    rated: bool
    playing: bool
    game_id: int | None
    state: dict[str, Any] | None
    moves: int
    seat: int | None
    left_match: bool
    private: bool = False


def seat_position(table_id: int, user: Any) -> SeatPosition | None:
    """The table's position for `user` (None: no such table)."""
    table = Table.objects.select_related("match", "current_game").filter(pk=table_id).first()
    if table is None:
        return None
    seat = None
    left_match = False
    if user is not None and user.is_authenticated:
        found = Seat.objects.filter(table=table, user=user).values_list("index", "left_match").first()
        if found is not None:
            seat, left_match = found
    game = table.current_game
    return SeatPosition(
        table_id=table.pk,
        game_slug=table.game,
        version=table.version,
        rated=table.rated or bool(table.match and table.match.rated),
        playing=table.status == Table.Status.PLAYING and game is not None and game.finished_at is None,
        game_id=None if game is None else game.pk,
        state=None if game is None else game.state,
        moves=0 if game is None else game.move_count,  # read in the same row as the state
        seat=seat,
        left_match=left_match,
        private=table.private,
    )


def table_version(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


@dataclass(frozen=True)
class TalkPlace:
    """What the chat needs of a table (apps/chat): its match and version now, and the seats' users."""

    table_id: int
    match_id: int | None
    version: int
    seats: dict[int, int]  # user id -> seat index, people only


def talk_place(table_id: int) -> TalkPlace | None:
    """The table as the chat sees it (None: no such table). One query: the seating is kept on the row."""
    row = Table.objects.filter(pk=table_id).values_list("match_id", "version", "seating").first()
    if row is None:
        return None
    match_id, version, seating = row
    seats = {int(seat["user_id"]): int(seat["index"]) for seat in seating or [] if seat.get("user_id") is not None}
    return TalkPlace(table_id=table_id, match_id=match_id, version=version, seats=seats)


@dataclass(frozen=True)
class PlayingAt:
    """Where a player is playing now (the friends list: SPEC 17): a table whose match is under way."""

    table_id: int
    game: str
    private: bool


def playing_at(user_ids: list[int]) -> dict[int, PlayingAt]:
    """Of these users, those seated (and not out of the match) at a table that is playing now, and where.
    One query; a user at several such tables gets the latest."""
    rows = (
        Seat.objects.filter(user_id__in=user_ids, left_match=False, table__status=Table.Status.PLAYING)
        .order_by("table_id")
        .values_list("user_id", "table_id", "table__game", "table__private")
    )
    return {user_id: PlayingAt(table_id, game, private) for user_id, table_id, game, private in rows}


# --- the site's gauges (rummysite/metrics.py) ---------------------------------------------------------


def open_table_counts() -> list[tuple[str, str, int]]:
    """(game, status, count) of every table not closed: the site's "open tables" gauge, read when scraped."""
    rows = Table.objects.exclude(status=Table.Status.CLOSED).values_list("game", "status").annotate(n=Count("pk"))
    return [(game, status, n) for game, status, n in rows]


# --- quick pairing (apps/pairing, SPEC 15) -----------------------------------------------------------


def rated_refusal(user: Any) -> str | None:
    """Why `user` may not play rated matches with people (a reason code of apps/tables/rated.py: a guest,
    an unverified email address, a booster, a bot account), or None: rated pools take only those who may."""
    facts = rated.facts_of([(user, "")])
    if facts and facts[0].bot_account:
        return rated.BOT_ACCOUNT
    found = rated.verdict(facts, turn_seconds=60)
    return found.reasons[0] if found.reasons else None


def _pairs_in_matches(rows: Any) -> dict[frozenset[int], int]:
    """How many of the matches of `rows` (match id, user id) each pair of users shared."""
    seated: dict[int, set[int]] = defaultdict(set)
    for match_id, user_id in rows:
        seated[match_id].add(user_id)
    pairs: dict[frozenset[int], int] = defaultdict(int)
    for users in seated.values():
        ordered = sorted(users)
        for i, first in enumerate(ordered):
            for second in ordered[i + 1 :]:
                pairs[frozenset((first, second))] += 1
    return pairs


def aborted_together(user_ids: Any, *, since: datetime) -> set[frozenset[int]]:
    """The pairs among `user_ids` that were in a match aborted (SPEC 11) since `since` (one query)."""
    rows = (
        MatchPlayer.objects.filter(user_id__in=list(user_ids), match__finished_at__gte=since)
        .exclude(match__aborted="")
        .values_list("match_id", "user_id")
    )
    return set(_pairs_in_matches(rows))


def repeat_capped(user_ids: Any, *, now: datetime) -> set[frozenset[int]]:
    """The pairs among `user_ids` that have started the rated matches the cap allows together within its
    window (SPEC 11; `rated.repeat_limit()` in `rated.repeat_window()`), counted over any match both sat in
    (stricter than the cap's "exactly these accounts" for tables of 3 and 4). One query."""
    rows = MatchPlayer.objects.filter(
        user_id__in=list(user_ids), match__rated=True, match__started_at__gte=now - rated.repeat_window()
    ).values_list("match_id", "user_id")
    limit = rated.repeat_limit()
    return {pair for pair, count in _pairs_in_matches(rows).items() if count >= limit}


def table_seats_taken(table_id: int) -> dict[int, int]:
    """user id -> seat of the people seated at a table (empty if there is no such table)."""
    return dict(Seat.objects.filter(table_id=table_id, user__isnull=False).values_list("user_id", "index"))


def own_turns_in_match(match_id: int, user_id: int) -> int:
    """The turns `user_id` played themselves in the match (not their autopilot's, nor their timeouts:
    `Game.own_turns`), over all its games; 0 if they did not play in it. An arena's berserk first place
    needs 7 (SPEC 16). Two queries."""
    seat = MatchPlayer.objects.filter(match_id=match_id, user_id=user_id).values_list("seat", flat=True).first()
    if seat is None:
        return 0
    return sum(
        turns[seat] if seat < len(turns) else 0
        for turns in Game.objects.filter(match_id=match_id).values_list("own_turns", flat=True)
        if turns
    )


# --- the daily e-mail of tables waiting for a player (apps/notifications/digest.py, SPEC 17) ----------


@dataclass(frozen=True)
class WaitingTurn:
    """A no-timer table where it is this player's turn: its game, the other people's names, the other
    seats' bot levels (the reader's language names them) and since when the turn waits (the last move of the game, else its deal). Nothing of a rack."""

    table_id: int
    game: str
    opponents: tuple[str, ...]
    bots: tuple[str, ...]
    since: datetime


def bot_name(level: str) -> str:
    """A site bot's name at a table, in the active language (as Seat.display_name)."""
    try:
        label = str(BotLevel(level).label)
    except ValueError:
        label = level
    return str(_("Bot (%(level)s)") % {"level": label})


def turns_waiting(user_ids: list[int]) -> dict[int, list[WaitingTurn]]:
    """Of these users, the no-timer tables playing now whose current game waits for them to move (as
    services/flow.py `turn_passed` decides it: a seat on autopilot is not waiting). Two queries and one
    decoding per table a user sits at; oldest wait first."""
    tables = list(
        Table.objects.filter(
            status=Table.Status.PLAYING,
            turn_seconds=0,
            current_game__isnull=False,
            current_game__finished_at__isnull=True,
            pk__in=Seat.objects.filter(user_id__in=user_ids, left_match=False).values("table_id"),
        )
        .select_related("current_game")
    )
    last_moves = dict(
        MoveLog.objects.filter(game_id__in=[table.current_game_id for table in tables])
        .values("game_id").annotate(last=Max("at")).values_list("game_id", "last")
    )
    wanted = set(user_ids)
    found: dict[int, list[WaitingTurn]] = defaultdict(list)
    for table in tables:
        game = table.current_game
        assert game is not None  # filtered above
        rules = get_rules(table.game)
        state = rules.from_dict(game.state)
        seat = rules.to_move(state)
        if seat is None or seat >= len(table.seating) or rules.is_away(state, seat):
            continue
        entry = table.seating[seat]
        user_id = entry.get("user_id")
        if entry.get("bot") or user_id not in wanted:
            continue
        others = [other for other in table.seating if other.get("index") != seat and not other.get("empty")]
        opponents = tuple(str(other.get("name") or "") for other in others if not other.get("bot"))
        bots = tuple(str(other["bot"]) for other in others if other.get("bot"))
        found[user_id].append(
            WaitingTurn(table.pk, table.game, opponents, bots, last_moves.get(game.pk) or game.started_at)
        )
    for turns in found.values():
        turns.sort(key=lambda turn: turn.since)
    return dict(found)
