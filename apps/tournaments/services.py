"""The one write path of arenas (SPEC 16): joining, pausing, berserk, pairing, scoring, the calendar.

Functions are `<thing>_<action>(*, ...)` with keyword arguments; each is one transaction, and the
standings change it makes leaves after the commit as one frame on the tournament's topic (`live.py`),
computed once and shared by every viewer.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol, TypeVar

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.leaderboards.rating import START_RATING
from apps.leaderboards.selectors import leaderboard
from apps.lib.events import emit
from apps.social.selectors import blocked_pairs
from apps.tables import selectors as tables
from apps.tables import services as table_services
from apps.tournaments import live, scoring
from apps.tournaments.events import TournamentStartsSoon
from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, ScoredMatch, Tournament
from apps.tournaments.selectors import current_seat, standings_queryset

log = logging.getLogger(__name__)
User = get_user_model()

#: The advisory lock that keeps one pairing pass at a time, site-wide (PostgreSQL).
PAIRING_LOCK = 4416_0001
#: Tell the entrants this long before the start (TournamentStartsSoon).
REMIND_BEFORE = timedelta(minutes=5)
#: A tournament whose last matches still run this long after its end is closed anyway.
FINISH_GRACE = timedelta(minutes=30)
#: Matches whose MatchFinished never reached us are looked for once a minute, among the tables older than
#: CATCH_UP_AFTER (a match is one game: far shorter than that but for the slowest pace).
CATCH_UP_KEY = "tournaments:catch-up"
CATCH_UP_SECONDS = 60
CATCH_UP_AFTER = timedelta(minutes=10)
#: In pairing, how many free players below a table's first player may be looked at to fill it when the
#: next ones may not sit with them (a block, the same table again): bounds a pass's work whatever the blocks.
REPAIR_REACH = 12


class TournamentError(Exception):
    """A request the arena refuses (its message is for the player)."""


Status = Tournament.Status


def _bump(tournament_id: int) -> None:
    """Raise the standings' version and publish the new standings once the transaction commits."""
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    live.publish_on_commit(tournament_id)


# -- entrants -------------------------------------------------------------------------------------------


def _ratings(game: str, user_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Each player's (rating, rated matches) in `game` (START_RATING and 0 without a rating)."""
    found = dict(
        (user_id, (rating, matches))
        for user_id, rating, matches in leaderboard(game).filter(user_id__in=list(user_ids)).values_list("user_id", "rating", "matches")
    )
    return found


def entry_refusal(tournament: Tournament, user: Any) -> str | None:
    """Why `user` may not join (a sentence for them), or None."""
    if not user.is_authenticated:
        return _("Sign in or play as a guest to join.")
    if tournament.status not in (Status.PLANNED, Status.RUNNING):
        return _("This tournament is over.")
    if timezone.now() >= tournament.pairing_ends_at and tournament.status == Status.RUNNING:
        return _("Pairing has ended in this tournament.")
    if getattr(user, "is_guest", False) and (tournament.require_registered or tournament.rated):
        return _("Only registered players may join this tournament.")
    if (tournament.require_verified or tournament.rated) and not EmailAddress.objects.filter(user=user, verified=True).exists():
        return _("This tournament needs a verified email address.")
    if tournament.rating_below is not None or tournament.min_rated_matches:
        rating, matches = _ratings(tournament.game, [user.pk]).get(user.pk, (START_RATING, 0))
        if tournament.rating_below is not None and rating >= tournament.rating_below:
            return _("This tournament is for ratings below %(cap)s.") % {"cap": tournament.rating_below}
        if matches < tournament.min_rated_matches:
            return _("This tournament needs %(count)s rated matches in this game.") % {"count": tournament.min_rated_matches}
    return None


def tournament_join(*, tournament_id: int, by: Any) -> Entry:
    """Join an arena (before or during it). Joining again is "Play on"."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError(_("There is no such tournament."))
    refusal = entry_refusal(tournament, by)
    if refusal:
        raise TournamentError(refusal)
    with transaction.atomic():
        entry, made = Entry.objects.get_or_create(tournament=tournament, user=by)
        if entry.removed:
            raise TournamentError(_("A moderator removed you from this tournament."))
        if not made:
            return tournament_play_on(tournament_id=tournament_id, by=by)
        _bump(tournament_id)
    return entry


def _locked_entry(tournament_id: int, user_id: int) -> Entry:
    entry = Entry.objects.select_for_update().filter(tournament_id=tournament_id, user_id=user_id).first()
    if entry is None:
        raise TournamentError(_("You have not joined this tournament."))
    return entry


def _pause(entry: Entry, now: datetime) -> None:
    since = (now - entry.last_pause_at).total_seconds() if entry.last_pause_at else None
    entry.pause_wait = scoring.pause_wait(entry.pause_wait, since)
    entry.paused, entry.last_pause_at = True, now
    entry.paused_until = now + timedelta(seconds=entry.pause_wait)


def tournament_pause(*, tournament_id: int, by: Any, now: datetime | None = None) -> Entry:
    """Pause: not paired again until "Play on" (a match being played goes on)."""
    now = now or timezone.now()
    with transaction.atomic():
        entry = _locked_entry(tournament_id, by.pk)
        if not entry.paused:
            _pause(entry, now)
            entry.save(update_fields=["paused", "paused_until", "last_pause_at", "pause_wait"])
            _bump(tournament_id)
    return entry


def tournament_play_on(*, tournament_id: int, by: Any, now: datetime | None = None) -> Entry:
    """Come back from a pause, once its wait is over."""
    now = now or timezone.now()
    with transaction.atomic():
        entry = _locked_entry(tournament_id, by.pk)
        if entry.removed:
            raise TournamentError(_("A moderator removed you from this tournament."))
        if entry.paused:
            if entry.paused_until and now < entry.paused_until:
                wait = int((entry.paused_until - now).total_seconds() + 0.999)
                raise TournamentError(_("You may play on in %(seconds)s s.") % {"seconds": wait})
            entry.paused = False
            entry.save(update_fields=["paused"])
            _bump(tournament_id)
    return entry


def tournament_berserk(*, tournament_id: int, by: Any) -> ArenaSeat:
    """Berserk at the player's arena table, before the match's first move: the player's own turn time is
    halved (the table's clock: `seat_berserk`), and a first place with at least 7 turns of their own earns
    +1."""
    with transaction.atomic():
        seat = current_seat(tournament_id, by.pk)
        if seat is None:
            raise TournamentError(_("You are not at an arena table now."))
        position = tables.seat_position(seat.arena_table.table_id, by)
        if position is None or position.moves > 0:
            raise TournamentError(_("Berserk is only possible before the first move."))
        try:
            table_services.seat_berserk(table_id=seat.arena_table.table_id, by=by)
        except table_services.TableError as error:
            raise TournamentError(str(error)) from None
        ArenaSeat.objects.filter(pk=seat.pk).update(berserk=True)
        seat.berserk = True
        _bump(tournament_id)
    return seat


def tournament_remove_player(*, tournament_id: int, user_id: int) -> None:
    """A moderator removes a player: never paired again, gone from the standings."""
    with transaction.atomic():
        updated = Entry.objects.filter(tournament_id=tournament_id, user_id=user_id).update(removed=True, paused=True)
        if updated:
            _bump(tournament_id)


def tournament_cancel(*, tournament_id: int) -> None:
    with transaction.atomic():
        if Tournament.objects.filter(pk=tournament_id, status__in=[Status.PLANNED, Status.RUNNING]).update(
            status=Status.CANCELLED, finished_at=timezone.now()
        ):
            _bump(tournament_id)


def tournament_stop(*, tournament_id: int) -> None:
    """End an arena now (a moderator's stop): pairing stops, the podium is kept from the standings."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is not None and tournament.status in (Status.PLANNED, Status.RUNNING):
            _finish(tournament, timezone.now())


def _finish(tournament: Tournament, now: datetime) -> None:
    top = list(standings_queryset(tournament.pk).select_related("user")[:3])
    tournament.podium = [
        {"rank": rank, "user_id": entry.user_id, "name": entry.user.get_username(), "points": entry.points}
        for rank, entry in enumerate(top, start=1)
    ]
    tournament.winner_id = top[0].user_id if top else None
    tournament.status, tournament.finished_at = Status.FINISHED, now
    tournament.save(update_fields=["podium", "winner", "status", "finished_at"])
    _bump(tournament.pk)


# -- pairing --------------------------------------------------------------------------------------------


def _table_key(user_ids: Iterable[int]) -> str:
    return ",".join(str(user_id) for user_id in sorted(user_ids))


@dataclass(frozen=True, slots=True)
class Free:
    """A free entrant as the pairing pass needs them: plain values, not a model (a pass may read a thousand:
    the Entry and User models with them cost 30 ms of CPU at 1,000, bench/tournament.py)."""

    pk: int
    user_id: int
    points: int
    last_table: str


def pairing_candidates(tournament: Tournament, now: datetime) -> list[Free]:
    """The entrants who may be paired now: not paused, not removed, not at a table of this arena."""
    busy = ArenaSeat.objects.filter(arena_table__tournament=tournament, arena_table__finished_at__isnull=True).values("entry_id")
    rows = (
        Entry.objects.filter(tournament=tournament, paused=False, removed=False)
        .exclude(pk__in=busy)
        .values_list("pk", "user_id", "points", "last_table")
    )
    return [Free(*row) for row in rows]


def _pairing_ratings(tournament: Tournament) -> dict[int, int]:
    """The rating in the arena's game of each entrant who may play (one query, the entrants as a subquery
    rather than a list of a thousand ids)."""
    entrants = Entry.objects.filter(tournament=tournament, paused=False, removed=False).values("user_id")
    return dict(leaderboard(tournament.game).filter(user_id__in=entrants).order_by().values_list("user_id", "rating"))


class Pairable(Protocol):
    """What the grouping reads of a free entrant (`Free`, or an `Entry`)."""

    @property
    def user_id(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def last_table(self) -> str: ...


P = TypeVar("P", bound=Pairable)


def group_entries(entries: Sequence[P], ratings: dict[int, int], sizes: Sequence[int], blocked: set[frozenset[int]]) -> list[list[P]]:
    """Tables among the free `entries`, as lichess's arena pairs by rank (SPEC 16): the players in standing
    order (points, then rating, then the lower user id), cut into consecutive tables, the larger tables at
    the top ("3-4": tables of 4, and of 3 at the bottom where the count needs them). A table never holds a
    blocked pair and is never the very table all its players just left (`Entry.last_table`); such a
    conflict is repaired locally: the player who may not sit there gives their seat to the next free
    player below and heads a table further down (at most REPAIR_REACH players are looked at below a
    table's first player; one nobody there may sit with waits for the next pass, as do the players at the
    bottom when the count does not split into tables). Pure but for the entries' fields; deterministic.

    Linear in the players (1-4 ms of CPU for 1,000, 17-21 ms for 10,000, bench/tournament.py), where quick pairing's exact
    search (apps/lib/grouping.py, which this used to call with standing as the rating) took 20-60 ms, and
    a p99 of 130-170 ms at 3-4 seats, for the same 1,000: in an arena a point of standing outweighs any
    rating gap, so that search too cut the standing order into consecutive tables, only slower, and left
    a player waiting where a repair could seat them."""
    order = sorted(entries, key=lambda entry: (-entry.points, -ratings.get(entry.user_id, START_RATING), entry.user_id))
    against: dict[int, set[int]] = {}
    for pair in blocked:
        if len(pair) == 2:
            a, b = pair
            against.setdefault(a, set()).add(b)
            against.setdefault(b, set()).add(a)
    taken = [False] * len(order)  # seated at a table of this pass, or waiting for the next one
    free = len(order)
    split = scoring.table_sizes_for(free, sizes)  # the sizes of the tables still to form, largest first
    at = start = 0
    tables: list[list[P]] = []
    while at < len(split):
        while taken[start]:  # the first player not placed yet (there is one: split[at:] seats no more than are free)
            start += 1
        members = _fill(order, taken, start, split[at], against)
        if members is None:
            taken[start] = True  # nobody near may sit with them: they wait for the next pass
            free -= 1
            split, at = scoring.table_sizes_for(free, sizes), 0
            continue
        for index in members:
            taken[index] = True
        free -= len(members)
        at += 1
        tables.append([order[index] for index in members])
    return tables


def _fill(order: Sequence[Pairable], taken: list[bool], start: int, size: int, against: dict[int, set[int]]) -> list[int] | None:
    """The positions of a table of `size` headed by `order[start]`: the next free players in order, passing
    over one blocked by a member, or one whose seat would make the table its players just left."""
    members = [start]
    blocks = set(against.get(order[start].user_id, ()))
    looked = 0
    index = start
    while len(members) < size:
        index += 1
        if index >= len(order) or looked >= REPAIR_REACH:
            return None
        if taken[index]:
            continue
        looked += 1
        candidate = order[index]
        if candidate.user_id in blocks:
            continue
        if len(members) == size - 1 and _again([*(order[i] for i in members), candidate]):
            continue
        members.append(index)
        blocks.update(against.get(candidate.user_id, ()))
    return members


def _again(table: Sequence[Pairable]) -> bool:
    """Whether this is the very table all its players just left."""
    last = table[0].last_table
    if not last or any(entry.last_table != last for entry in table):
        return False
    return last == _table_key(entry.user_id for entry in table)


@dataclass
class PairingResult:
    tables: int = 0
    players: int = 0


def pairing_tables(tournament: Tournament, now: datetime) -> list[list[Free]]:
    """The tables one pass forms, before any is opened: three statements (the free entrants, their
    ratings, the blocks among them) and the grouping."""
    entries = pairing_candidates(tournament, now)
    if len(entries) < min(tournament.table_sizes):
        return []
    blocked = blocked_pairs([entry.user_id for entry in entries])
    return group_entries(entries, _pairing_ratings(tournament), tournament.table_sizes, blocked)


def arena_pair(*, tournament: Tournament, now: datetime | None = None) -> PairingResult:
    """One pairing pass of a running arena: open a table for each group formed among the free players."""
    now = now or timezone.now()
    result = PairingResult()
    if tournament.status != Status.RUNNING or now >= tournament.pairing_ends_at:
        return result
    groups = pairing_tables(tournament, now)
    # The accounts of those seated, once for the pass (opening a table needs them: its limits, bans).
    users = User.objects.in_bulk([entry.user_id for group in groups for entry in group]) if groups else {}
    for group in groups:
        try:
            table = table_services.table_open_started(
                players=[users[entry.user_id] for entry in group],
                game=tournament.game,
                seat_count=len(group),
                turn_seconds=tournament.turn_seconds,
                casual=not tournament.rated,
            )
        except table_services.TableError as error:  # a player may not sit now (a limit, a ban): they wait
            log.info("arena %s: a table of %s was not opened: %s", tournament.pk, [e.user_id for e in group], error)
            continue
        with transaction.atomic():
            arena_table = ArenaTable.objects.create(tournament=tournament, table_id=table.pk, match_id=table.match_id)
            ArenaSeat.objects.bulk_create(
                ArenaSeat(arena_table=arena_table, entry_id=entry.pk, user_id=entry.user_id) for entry in group
            )
            key = _table_key(entry.user_id for entry in group)
            Entry.objects.filter(pk__in=[entry.pk for entry in group]).update(last_table=key)
            transaction.on_commit(partial(live.tell_seated, tournament.pk, table.pk, [entry.user_id for entry in group]))
        result.tables += 1
        result.players += len(group)
    if result.tables:
        with transaction.atomic():
            _bump(tournament.pk)  # one standings frame for the whole pass, not one per table
    return result


# -- scoring --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finish:
    """How one player ended an arena match (None place: the match was aborted)."""

    user_id: int
    place: int | None
    left: bool


def arena_match_finished(*, table_id: int, match_id: int, finishes: Sequence[Finish], now: datetime | None = None) -> bool:
    """Score an arena match (once: a second call for the same match changes nothing; returns whether this
    call scored it). Not an arena table: nothing."""
    now = now or timezone.now()
    arena_table = ArenaTable.objects.filter(table_id=table_id).first()
    if arena_table is None:
        return False
    berserk_turns: dict[int, int] = {}
    first_places = {f.user_id for f in finishes if f.place == 1 and not f.left}
    for seat in ArenaSeat.objects.filter(arena_table=arena_table, berserk=True, user_id__in=first_places):
        berserk_turns[seat.user_id] = tables.own_turns_in_match(match_id, seat.user_id)  # read before any lock
    with transaction.atomic():
        try:
            with transaction.atomic():
                ScoredMatch.objects.create(match_id=match_id)
        except IntegrityError:
            return False
        tournament = Tournament.objects.get(pk=arena_table.tournament_id)
        ArenaTable.objects.filter(pk=arena_table.pk).update(finished_at=now, match_id=match_id)
        seats = {seat.user_id: seat for seat in ArenaSeat.objects.filter(arena_table=arena_table)}
        entries = {
            entry.user_id: entry
            for entry in Entry.objects.select_for_update().filter(pk__in=[seat.entry_id for seat in seats.values()]).order_by("pk")
        }
        placed = [f for f in finishes if f.user_id in seats]
        aborted = any(f.place is None for f in placed) or len(placed) != len(seats)
        if not aborted:
            base = scoring.place_points([f.place or 0 for f in placed])
            rating = {user_id: r for user_id, (r, _m) in _ratings(tournament.game, seats).items()}
            perf = scoring.performances([f.place or 0 for f in placed], [rating.get(f.user_id, START_RATING) for f in placed])
        for i, finish in enumerate(placed):
            entry, seat = entries[finish.user_id], seats[finish.user_id]
            seat.streak_before = entry.streak
            if finish.left:
                _pause(entry, now)
            if aborted:
                seat.save(update_fields=["streak_before"])
                entry.save()
                continue
            score = scoring.score_seat(
                base=base[i], first=finish.place == 1, left=finish.left, streak=entry.streak,
                berserk=seat.berserk, own_turns=berserk_turns.get(finish.user_id, 0),
            )
            seat.place, seat.points = finish.place, score.points
            seat.perf_added, seat.perf_counted = perf[i]
            seat.save(update_fields=["streak_before", "place", "points", "perf_added", "perf_counted"])
            entry.points += score.points
            entry.streak = score.streak
            entry.matches += 1
            entry.wins += 1 if score.won else 0
            entry.perf_sum += perf[i][0]
            entry.perf_count += perf[i][1]
            if score.points:
                entry.reached_at = now
            entry.marks = [*(entry.marks or [])[-11:], [score.points, 1 if score.doubled else 0]]
            entry.save()
        _bump(tournament.pk)
    return True


def arena_match_voided(*, match_id: int) -> bool:
    """Take an arena match's points back (a moderator voided it). Streaks are left as they are."""
    with transaction.atomic():
        arena_table = ArenaTable.objects.select_for_update().filter(match_id=match_id, voided=False).first()
        if arena_table is None:
            return False
        arena_table.voided = True
        arena_table.save(update_fields=["voided"])
        for seat in ArenaSeat.objects.filter(arena_table=arena_table).order_by("entry_id"):
            if seat.points is None:
                continue
            Entry.objects.filter(pk=seat.entry_id).update(
                points=F("points") - seat.points,
                matches=F("matches") - 1,
                perf_sum=F("perf_sum") - seat.perf_added,
                perf_count=F("perf_count") - seat.perf_counted,
            )
        _bump(arena_table.tournament_id)
    return True


# -- the clock: start, remind, pair, finish ---------------------------------------------------------------


@contextmanager
def _site_lock() -> Iterator[bool]:
    """The site-wide pairing lock, held for one tick (PostgreSQL's session advisory lock, so the tick's
    tables commit one by one and start at once; other databases are one process: always granted)."""
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [PAIRING_LOCK])
        granted = bool(cursor.fetchone()[0])
    try:
        yield granted
    finally:
        if granted:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [PAIRING_LOCK])


def arenas_tick(*, now: datetime | None = None) -> dict[str, int]:
    """What the periodic task does every 2 s: start the arenas whose time has come, tell the entrants of
    those starting in five minutes, pair the running ones, finish those that are over. One at a time
    site-wide (an advisory lock); a second run at once does nothing."""
    now = now or timezone.now()
    done = {"started": 0, "reminded": 0, "tables": 0, "finished": 0}
    with _site_lock() as granted:
        if not granted:
            return done
        for tournament in Tournament.objects.filter(
            status=Status.PLANNED, reminded=False, starts_at__gt=now, starts_at__lte=now + REMIND_BEFORE
        ):
            if Tournament.objects.filter(pk=tournament.pk, reminded=False).update(reminded=True):
                users = tuple(Entry.objects.filter(tournament=tournament, removed=False).order_by("user_id").values_list("user_id", flat=True))
                emit(TournamentStartsSoon(tournament.pk, users, tournament.starts_at.isoformat(), tournament.name))
                done["reminded"] += 1
        for tournament in Tournament.objects.filter(status=Status.PLANNED, starts_at__lte=now):
            with transaction.atomic():
                Tournament.objects.filter(pk=tournament.pk).update(status=Status.RUNNING)
                _bump(tournament.pk)
            done["started"] += 1
        for tournament in Tournament.objects.filter(status=Status.RUNNING):
            if now >= tournament.ends_at:
                open_tables = ArenaTable.objects.filter(tournament=tournament, finished_at__isnull=True)
                _catch_up(open_tables)
                if not open_tables.exists() or now >= tournament.ends_at + FINISH_GRACE:
                    with transaction.atomic():
                        _finish(tournament, now)
                    done["finished"] += 1
                continue
            done["tables"] += arena_pair(tournament=tournament, now=now).tables
        if cache.add(CATCH_UP_KEY, 1, CATCH_UP_SECONDS):
            stale = ArenaTable.objects.filter(
                tournament__status=Status.RUNNING, finished_at__isnull=True, created_at__lt=now - CATCH_UP_AFTER
            )
            _catch_up(stale.order_by("id")[:200])
    return done


def _catch_up(open_tables: Iterable[ArenaTable]) -> None:
    """Score the matches that finished without their event reaching us (a backstop)."""
    for arena_table in open_tables:
        if arena_table.match_id is None:
            continue
        finished = tables.finished_match(arena_table.match_id)
        if finished is None:
            continue
        finishes = [Finish(p.user_id, p.place or None, p.left) for p in finished.players]
        arena_match_finished(table_id=arena_table.table_id, match_id=arena_table.match_id, finishes=finishes)
