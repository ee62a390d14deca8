"""Quick pairing's one write path (SPEC 15): joining and leaving a pool, the pairing wave, the paired
players' arrival, and the seeks of the lobby.

- `pool_join` / `pool_leave`: one pool at a time per player (joining another moves the player; joining
  takes back the player's seek). Rated pools take only registered players who may play rated
  (`apps.tables.selectors.rated_refusal`); casual pools take guests too; a barred account takes none.
- `entries_touch`: the waiting page's socket says the page is still there (every two seconds); the wave's
  sweep removes the players whose page has not been seen for PAIRING_GONE_SECONDS, whichever web
  process their socket was on.
- `pairing_wave`: one wave for the whole site at a time (a PostgreSQL advisory lock; the beat task runs
  it every PAIRING_WAVE_SECONDS, and a join runs one at once when its pool has PAIRING_AT_ONCE players).
  Each pool's waiting rows are taken with SELECT ... FOR UPDATE SKIP LOCKED (a row a player is changing
  waits for the next wave), grouped by `apps.lib.grouping.form_tables` with the forbidden pairs (blocks,
  a match aborted together within the hour, the rated repeat cap), and each table is opened with its
  match started by `apps.tables.services.table_open_started`. The paired players' pages are told on
  their own topics and move to the table.
- `arrival`: a paired player's table socket opened (apps/pairing/consumers.py, a part of the table's
  socket). A player not there by PAIRING_ARRIVE_SECONDS loses the seat (the match is aborted, unrated,
  and the table closed: `table_abort_absent`) and goes to the back of the pool; the others to its front.
- `seek_post` / `seek_take` / `seek_cancel`: one seek per player, matched at once with compatible seeks
  and pool players (rows locked with SKIP LOCKED, so two players taking one seek at once: one wins).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.lib.grouping import Waiting, form_tables
from apps.pairing import effects
from apps.pairing.models import PoolEntry, Seek, Wait
from apps.pairing.pools import Pool
from apps.pairing.rules import PairingError, check_may_join, facts_of
from apps.social.selectors import blocked_pairs
from apps.tables import selectors as tables
from apps.tables import services as table_services

log = logging.getLogger(__name__)

#: The first key of the advisory lock that lets one pairing wave run at a time on the whole site.
_WAVE_LOCK = (0x7061, 0x6972)  # "pa", "ir"
#: How far back a match aborted together keeps two players apart (SPEC 15).
ABORTED_APART = timedelta(hours=1)
#: How long the recent waits are kept (the waiting screen's typical wait reads the last hour's).
KEEP_WAITS = timedelta(days=1)
#: How many players a seek looks at among each kind of candidate (the oldest first).
SEEK_CANDIDATES = 50


def seconds(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def gone_after() -> timedelta:
    """A waiting page not seen for this long has left the pool (SPEC 15: 5 s)."""
    return timedelta(seconds=seconds("PAIRING_GONE_SECONDS", 5))


def arrive_within() -> timedelta:
    """A paired player must come to the table within this (SPEC 15: 15 s)."""
    return timedelta(seconds=seconds("PAIRING_ARRIVE_SECONDS", 15))


def bot_after() -> timedelta:
    """In a casual pool, a player who asked for one gets a bot after this long (SPEC 15: 25 s)."""
    return timedelta(seconds=seconds("PAIRING_BOT_SECONDS", 25))


def at_once() -> int:
    """A join runs a wave of its pool at once when the pool has this many waiting."""
    return int(getattr(settings, "PAIRING_AT_ONCE", 8))


def forbidden_pairs(user_ids: Sequence[int], *, rated: bool, now: datetime) -> set[frozenset[int]]:
    """The pairs among `user_ids` never seated together (SPEC 15): one blocked the other, they were in a
    match aborted within the hour, or (rated) they used up the repeat cap of rated play. Three queries."""
    if len(user_ids) < 2:
        return set()
    pairs = blocked_pairs(user_ids) | tables.aborted_together(user_ids, since=now - ABORTED_APART)
    if rated:
        pairs |= tables.repeat_capped(user_ids, now=now)
    return pairs


# --- pools -------------------------------------------------------------------------------------------


def _pool_of(row: PoolEntry | Seek) -> Pool:
    return Pool(row.game, row.seats, row.pace, row.rated)


def _drop_seek(user_id: int) -> None:
    if Seek.objects.filter(user_id=user_id).delete()[0]:
        effects.seeks_changed()


def pool_join(*, by: User, pool: Pool, bot_fill: bool = False, now: datetime | None = None) -> PoolEntry:
    """Put `by` in `pool` (out of any other pool, and their seek withdrawn); raises PairingError."""
    pool.check()
    check_may_join(by, pool)
    facts = facts_of(by, pool.game)
    now = now or timezone.now()
    with transaction.atomic():
        entry = PoolEntry.objects.select_for_update().filter(user=by).first()
        if entry is not None and entry.table_id is not None:
            raise PairingError(_("You have just been seated at a table."))
        _drop_seek(by.pk)
        entry = entry or PoolEntry(user=by)
        entry.game, entry.seats, entry.pace, entry.rated = pool.game, pool.seats, pool.pace, pool.rated
        entry.bot_fill = bot_fill and not pool.rated  # SPEC 15: the rated pools never seat a bot
        entry.rating, entry.provisional, entry.leaver = facts.rating, facts.provisional, facts.leaver
        entry.waves, entry.joined_at, entry.since, entry.seen_at = 0, now, now, now
        entry.table_id, entry.paired_until, entry.arrived = None, None, False
        entry.save()
    return entry


def pool_leave(*, by: User) -> bool:
    """Take `by` out of their pool (Cancel). False if they were in none (or have just been seated)."""
    with transaction.atomic():
        removed = PoolEntry.objects.filter(user=by, table_id__isnull=True).delete()[0]
        if removed:
            effects.tell(by.pk, {"type": "left"})
    return bool(removed)


def pool_size(pool: Pool) -> int:
    return PoolEntry.objects.filter(
        game=pool.game, seats=pool.seats, pace=pool.pace, rated=pool.rated, table_id__isnull=True
    ).count()


def entries_touch(*, user_id: int, now: datetime | None = None) -> None:
    """The player's waiting page (or the lobby with their seek) is still open."""
    now = now or timezone.now()
    PoolEntry.objects.filter(user_id=user_id).update(seen_at=now)
    Seek.objects.filter(user_id=user_id).update(seen_at=now)


def entries_sweep(*, now: datetime | None = None) -> int:
    """Remove the pool entries and seeks whose page has not been seen for PAIRING_GONE_SECONDS (a touch
    that commits first keeps its row: the delete re-reads `seen_at` under the row's lock)."""
    now = now or timezone.now()
    gone = now - gone_after()
    # Reads first, and a write only when there is something to remove: the wave runs every two seconds,
    # and on the embedded default (SQLite) an empty DELETE still takes the database's write lock.
    users = list(PoolEntry.objects.filter(table_id__isnull=True, seen_at__lt=gone).values_list("user_id", flat=True))
    removed = seeks = 0
    with transaction.atomic():
        if users:
            removed = PoolEntry.objects.filter(user_id__in=users, table_id__isnull=True, seen_at__lt=gone).delete()[0]
            for user_id in users:
                effects.tell(user_id, {"type": "left"})
        if Seek.objects.filter(seen_at__lt=gone).exists():
            seeks = Seek.objects.filter(seen_at__lt=gone).delete()[0]
            if seeks:
                effects.seeks_changed()
        if Wait.objects.filter(at__lt=now - KEEP_WAITS).exists():  # the typical wait reads the last hour's
            Wait.objects.filter(at__lt=now - KEEP_WAITS).delete()
    return removed + seeks


def user_barred(user_id: int) -> None:
    """A ban takes the account out of its pool and withdraws its seek (SPEC 15)."""
    with transaction.atomic():
        PoolEntry.objects.filter(user_id=user_id, table_id__isnull=True).delete()
        _drop_seek(user_id)
        effects.tell(user_id, {"type": "left"})


# --- the wave ----------------------------------------------------------------------------------------


@dataclass
class WaveReport:
    ran: bool = True
    swept: int = 0
    tables: list[int] = field(default_factory=list)
    bots: list[int] = field(default_factory=list)
    absent: int = 0


@contextmanager
def wave_lock() -> Iterator[bool]:
    """Whether this process may run the wave now: one at a time for the whole site (a session-level
    advisory lock on PostgreSQL, released at the end; SQLite has one writer and one process anyway)."""
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", list(_WAVE_LOCK))
        mine = bool(cursor.fetchone()[0])
    try:
        yield mine
    finally:
        if mine:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", list(_WAVE_LOCK))


def pairing_wave(*, now: datetime | None = None, pools: Iterable[Pool] | None = None) -> WaveReport:
    """One pairing wave: the gone pages' players out, the paired players who did not come settled, then
    each pool's tables formed and opened, then the casual players who asked for a bot seated with bots."""
    with wave_lock() as mine:
        if not mine:
            return WaveReport(ran=False)
        now = now or timezone.now()
        report = WaveReport()
        report.swept = entries_sweep(now=now)
        report.absent = arrivals_settle(now=now)
        chosen = set(pools) if pools is not None else waiting_pools()
        for pool in sorted(chosen):
            report.tables += pool_pair(pool, now=now)
        report.bots = bots_fill(now=now)
        return report


def waiting_pools() -> set[Pool]:
    rows = PoolEntry.objects.filter(table_id__isnull=True).values_list("game", "seats", "pace", "rated").distinct()
    return {Pool(game, seats, pace, rated) for game, seats, pace, rated in rows}


@dataclass(frozen=True, slots=True)
class Row:
    """What a wave reads of a pool entry (plain values: a wave of thousands builds no model instances)."""

    pk: int
    user_id: int
    rating: float
    waves: int
    provisional: bool
    leaver: bool
    joined_at: datetime
    since: datetime


ROW_FIELDS = ("pk", "user_id", "rating", "waves", "provisional", "leaver", "joined_at", "since")


def _open(entries: Sequence[Row | PoolEntry], pool: Pool, now: datetime, bots: Sequence[str] = ()) -> int | None:
    """Open the table of `entries` (locked by the caller), in a savepoint: a table the tables refuse (a
    player's seat limit, a ban just made) leaves them waiting. Marks them paired and tells their pages."""
    users = User.objects.in_bulk([entry.user_id for entry in entries])
    try:
        with transaction.atomic():
            table = table_services.table_open_started(
                players=[users[entry.user_id] for entry in entries],
                game=pool.game,
                seat_count=pool.seats,
                turn_seconds=pool.pace,
                casual=not pool.rated,
                bots=bots,
            )
    except table_services.TableError as error:
        log.info("Pool %s: a table for %s was refused: %s", pool.key, [e.user_id for e in entries], error)
        return None
    PoolEntry.objects.filter(pk__in=[entry.pk for entry in entries]).update(
        table_id=table.pk, paired_until=now + arrive_within(), arrived=False
    )
    Wait.objects.bulk_create(Wait(pool=pool.key, seconds=(now - entry.since).total_seconds(), at=now) for entry in entries)
    for entry in entries:
        effects.tell(entry.user_id, {"type": "paired", "table": table.pk, "url": f"/t/{table.pk}/"})
    return table.pk


def pool_pair(pool: Pool, *, now: datetime) -> list[int]:
    """Form and open the tables of one pool; the players left have missed one more wave."""
    with transaction.atomic():
        entries = [
            Row(*values)
            for values in PoolEntry.objects.select_for_update(skip_locked=True)
            .filter(game=pool.game, seats=pool.seats, pace=pool.pace, rated=pool.rated, table_id__isnull=True)
            .order_by("joined_at")
            .values_list(*ROW_FIELDS)
        ]
        if not entries:
            return []
        by_user = {entry.user_id: entry for entry in entries}
        opened: list[int] = []
        grouping_left = entries
        if len(entries) >= pool.seats:
            ids = list(by_user)
            forbidden = forbidden_pairs(ids, rated=pool.rated, now=now)
            waiting = [Waiting(e.user_id, e.rating, e.waves, e.provisional, e.leaver) for e in entries]
            grouping = form_tables(waiting, pool.seats, allowed_except(forbidden))
            seated: set[int] = set()
            for table in grouping.tables:
                members = sorted((by_user[player.id] for player in table), key=lambda entry: entry.joined_at)
                table_id = _open(members, pool, now)
                if table_id is not None:
                    opened.append(table_id)
                    seated.update(entry.user_id for entry in members)
            grouping_left = [entry for entry in entries if entry.user_id not in seated]
        PoolEntry.objects.filter(pk__in=[entry.pk for entry in grouping_left]).update(waves=F("waves") + 1)
    return opened


def allowed_except(forbidden: set[frozenset[int]]) -> Callable[[Waiting, Waiting], bool]:
    def allowed(a: Waiting, b: Waiting) -> bool:
        return frozenset((a.id, b.id)) not in forbidden

    return allowed


def bots_fill(*, now: datetime) -> list[int]:
    """Casual players who asked for a bot and have waited PAIRING_BOT_SECONDS: a table with the site's
    Easy bots in the other seats (shown as bots; unrated)."""
    opened: list[int] = []
    with transaction.atomic():
        entries = list(
            PoolEntry.objects.select_for_update(skip_locked=True).filter(
                rated=False, bot_fill=True, table_id__isnull=True, since__lte=now - bot_after()
            )
        )
        for entry in entries:
            pool = _pool_of(entry)
            table_id = _open([entry], pool, now, bots=("easy",) * (pool.seats - 1))
            if table_id is not None:
                opened.append(table_id)
    return opened


# --- coming to the table -----------------------------------------------------------------------------


def arrival(*, table_id: int, user_id: int) -> bool:
    """A paired player's socket opened at the table: they came. Once everyone has, the pairing is done.
    Returns whether the player was paired at this table and had not come yet. Every table socket of a
    signed-in player asks, so a table no pairing made costs one indexed read and no write (a write, even
    of no row, takes SQLite's database lock and PostgreSQL's transaction)."""
    waiting = PoolEntry.objects.filter(table_id=table_id, user_id=user_id, arrived=False)
    if not waiting.exists():
        return False
    with transaction.atomic():
        came = bool(waiting.update(arrived=True))
        if came and not PoolEntry.objects.filter(table_id=table_id, arrived=False).exists():
            PoolEntry.objects.filter(table_id=table_id).delete()
    return came


def arrivals_settle(*, now: datetime) -> int:
    """The paired tables whose time to come is over: if everyone came, the pairing is done (two arrivals
    at once may each have missed the other's); else the absent lose the seat (the match aborted, unrated,
    the table closed) and go to the back of the pool, the others to its front. Returns how many were
    absent."""
    absent_count = 0
    due = {
        table_id
        for table_id in PoolEntry.objects.filter(table_id__isnull=False, paired_until__lt=now).values_list(
            "table_id", flat=True
        )
        if table_id is not None
    }
    for table_id in sorted(due):
        with transaction.atomic():
            entries = list(PoolEntry.objects.select_for_update(skip_locked=True).filter(table_id=table_id))
            absent = [entry for entry in entries if not entry.arrived]
            if not absent:
                PoolEntry.objects.filter(pk__in=[entry.pk for entry in entries]).delete()
                continue
            table_services.table_abort_absent(table_id=table_id, user_ids=[entry.user_id for entry in absent])
            absent_count += len(absent)
            for entry in entries:
                back = not entry.arrived
                entry.table_id, entry.paired_until, entry.arrived = None, None, False
                if back:  # the back of the pool, as a newcomer: their page, if still open, keeps them in
                    entry.joined_at, entry.waves = now, 0
                else:  # the front (their first place); they are at the table page: it has a moment to come back
                    entry.seen_at = now
                entry.save(update_fields=["table_id", "paired_until", "arrived", "joined_at", "waves", "seen_at"])
                effects.tell(entry.user_id, {"type": "requeued", "front": not back, "url": "/play/quick/wait/"})
    return absent_count


# --- seeks -------------------------------------------------------------------------------------------


def _compatible(a_rating: float, a_range: tuple[int, int] | None, b_rating: float, b_range: tuple[int, int] | None) -> bool:
    """Whether two players accept each other: each one's rating within the other's range (a pool player
    has no range)."""
    return (a_range is None or a_range[0] <= b_rating <= a_range[1]) and (
        b_range is None or b_range[0] <= a_rating <= b_range[1]
    )


@dataclass
class Candidate:
    user_id: int
    rating: float
    range: tuple[int, int] | None
    row: PoolEntry | Seek


def _candidates(pool: Pool, by_id: int, rating: float, rating_range: tuple[int, int]) -> list[Candidate]:
    """The seeks and pool players this seek could be seated with, the oldest first, locked (SKIP LOCKED:
    one another transaction is taking is not offered)."""
    low, high = rating_range
    kind = {"game": pool.game, "seats": pool.seats, "pace": pool.pace, "rated": pool.rated}
    seeks = (
        Seek.objects.select_for_update(skip_locked=True)
        .filter(**kind, rating__gte=low, rating__lte=high, rating_min__lte=rating, rating_max__gte=rating)
        .exclude(user_id=by_id)
        .order_by("created_at")[:SEEK_CANDIDATES]
    )
    entries = (
        PoolEntry.objects.select_for_update(skip_locked=True)
        .filter(**kind, table_id__isnull=True, rating__gte=low, rating__lte=high)
        .exclude(user_id=by_id)
        .order_by("joined_at")[:SEEK_CANDIDATES]
    )
    found = [Candidate(s.user_id, s.rating, (s.rating_min, s.rating_max), s) for s in seeks]
    found += [Candidate(e.user_id, e.rating, None, e) for e in entries]
    return found


def _gather(
    pool: Pool, me: Candidate, found: Sequence[Candidate], *, first: Candidate | None, now: datetime
) -> list[Candidate] | None:
    """`pool.seats - 1` players from `found` (after `first`, when one is taken) who all accept each other
    and `me` and are never forbidden together, the oldest first; None if there are not enough."""
    ids = [me.user_id, *(c.user_id for c in found)] + ([first.user_id] if first else [])
    forbidden = forbidden_pairs(ids, rated=pool.rated, now=now)
    chosen: list[Candidate] = [first] if first else []
    group = [me, *chosen]
    if first and (frozenset((me.user_id, first.user_id)) in forbidden):
        return None
    for candidate in found:
        if len(chosen) == pool.seats - 1:
            break
        if any(c.user_id == candidate.user_id for c in group):
            continue
        if all(
            frozenset((candidate.user_id, other.user_id)) not in forbidden
            and _compatible(candidate.rating, candidate.range, other.rating, other.range)
            for other in group
        ):
            chosen.append(candidate)
            group.append(candidate)
    return chosen if len(chosen) == pool.seats - 1 else None


def _check_range(rating_min: int, rating_max: int) -> tuple[int, int]:
    if not (0 <= rating_min <= rating_max <= 4000):
        raise PairingError(_("Give a rating range from a lower to a higher rating, between 0 and 4000."))
    return rating_min, rating_max


def _seek_or_match(
    *, by: User, pool: Pool, rating_range: tuple[int, int], first: Seek | None, now: datetime
) -> int | None:
    """In the caller's transaction: seat `by` at once with compatible players (with `first`, the seek
    being taken), or post their seek. Returns the table opened, or None (the seek is posted)."""
    facts = facts_of(by, pool.game)
    entry = PoolEntry.objects.select_for_update().filter(user=by).first()
    if entry is not None and entry.table_id is not None:
        raise PairingError(_("You have just been seated at a table."))
    if entry is not None:
        entry.delete()
    _drop_seek(by.pk)
    me = Candidate(by.pk, facts.rating, rating_range, Seek())
    taken = Candidate(first.user_id, first.rating, (first.rating_min, first.rating_max), first) if first else None
    if taken is not None and not _compatible(me.rating, None, taken.rating, taken.range):
        raise PairingError(_("Your rating is outside the range this seek asks for."))
    found = _candidates(pool, by.pk, facts.rating, rating_range)
    chosen = _gather(pool, me, found, first=taken, now=now)
    if chosen is not None:
        users = User.objects.in_bulk([by.pk, *(c.user_id for c in chosen)])
        try:
            with transaction.atomic():
                table = table_services.table_open_started(
                    players=[users[c.user_id] for c in chosen] + [by],
                    game=pool.game,
                    seat_count=pool.seats,
                    turn_seconds=pool.pace,
                    casual=not pool.rated,
                )
        except table_services.TableError as error:
            raise PairingError(str(error)) from error
        for candidate in chosen:
            candidate.row.delete()
            effects.tell(candidate.user_id, {"type": "paired", "table": table.pk, "url": f"/t/{table.pk}/"})
        effects.tell(by.pk, {"type": "paired", "table": table.pk, "url": f"/t/{table.pk}/"})
        effects.seeks_changed()
        return table.pk
    if first is not None and pool.seats == 2:
        raise PairingError(_("You cannot sit with this player."))
    Seek.objects.create(
        user=by,
        game=pool.game,
        seats=pool.seats,
        pace=pool.pace,
        rated=pool.rated,
        rating=facts.rating,
        rating_min=rating_range[0],
        rating_max=rating_range[1],
        created_at=now,
        seen_at=now,
    )
    effects.seeks_changed()
    return None


def seek_post(*, by: User, pool: Pool, rating_min: int, rating_max: int, now: datetime | None = None) -> int | None:
    """Post `by`'s seek (replacing their seek, out of their pool), matched at once with compatible seeks
    and pool players if there are enough: then the table's id is returned; else None (the seek is in the
    lobby until its owner's page is gone)."""
    pool.check()
    check_may_join(by, pool)
    rating_range = _check_range(rating_min, rating_max)
    now = now or timezone.now()
    with transaction.atomic():
        return _seek_or_match(by=by, pool=pool, rating_range=rating_range, first=None, now=now)


def seek_take(*, by: User, seek_id: int, now: datetime | None = None) -> int | None:
    """Take a seek from the lobby: for two seats, the table opens at once (of two players taking it at
    the same moment, one wins: the seek's row is taken with SKIP LOCKED, and the other is told it is
    gone); for three or four, with the compatible players there are, else `by`'s own seek joins it."""
    now = now or timezone.now()
    with transaction.atomic():
        seek = Seek.objects.select_for_update(skip_locked=True).filter(pk=seek_id).first()
        if seek is None:
            raise PairingError(_("That seek has just been taken or withdrawn."))
        if seek.user_id == by.pk:
            raise PairingError(_("This is your own seek."))
        pool = _pool_of(seek)
        check_may_join(by, pool)
        return _seek_or_match(by=by, pool=pool, rating_range=(seek.rating_min, seek.rating_max), first=seek, now=now)


def seek_cancel(*, by: User) -> bool:
    with transaction.atomic():
        removed = Seek.objects.filter(user=by).delete()[0]
        if removed:
            effects.seeks_changed()
    return bool(removed)
