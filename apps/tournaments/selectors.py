"""Reads of arenas for the pages and the live frames: the lists, a tournament's standings, its tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Case, F, FloatField, QuerySet, Value, When
from django.db.models.functions import Cast
from django.utils import timezone

from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, Tournament

#: How many rows of standings a page and a live frame carry.
STANDINGS_SHOWN = 100
#: Finished arenas listed, at most, and for how long.
FINISHED_SHOWN = 20


def standings_queryset(tournament_id: int) -> QuerySet[Entry]:
    """The entrants in standing order (SPEC 16): points, performance, then the earlier to reach the score."""
    return (
        Entry.objects.filter(tournament_id=tournament_id, removed=False)
        .annotate(
            perf=Case(
                When(perf_count__gt=0, then=Cast("perf_sum", FloatField()) / Cast("perf_count", FloatField())),
                default=Value(0.0),
                output_field=FloatField(),
            )
        )
        .order_by("-points", "-perf", F("reached_at").asc(nulls_last=True), "id")
    )


def _perf_sql(alias: str) -> str:
    """`standings_queryset`'s `perf`, as SQL on the entry `alias` (the same double-precision quotient)."""
    return (
        f"(CASE WHEN {alias}.perf_count > 0 THEN CAST({alias}.perf_sum AS double precision) / "
        f"CAST({alias}.perf_count AS double precision) ELSE 0.0 END)"
    )


@cache
def _standing_sql() -> str:
    """The one statement of `standing_of`, written once per process (the ORM compiled the two it replaced
    on every read, and that was most of their CPU)."""
    table = connection.ops.quote_name(Entry._meta.db_table)
    mine, theirs = _perf_sql("me"), _perf_sql("o")
    # Ranked above "me" in standings_queryset's order: more points; or as many and a better performance;
    # or both equal and the score reached earlier (no time ranks last); or all equal and a lower entry id.
    return (
        f"SELECT me.points, me.streak, (SELECT COUNT(*) FROM {table} o"
        f" WHERE o.tournament_id = me.tournament_id AND NOT o.removed AND o.points >= me.points"
        f" AND (o.points > me.points OR {theirs} > {mine} OR ({theirs} = {mine} AND ("
        f"(o.reached_at IS NOT NULL AND me.reached_at IS NULL) OR o.reached_at < me.reached_at"
        f" OR ((o.reached_at = me.reached_at OR (o.reached_at IS NULL AND me.reached_at IS NULL)) AND o.id < me.id)))))"
        f" FROM {table} me WHERE me.tournament_id = %s AND me.user_id = %s AND NOT me.removed"
    )


def standing_of(tournament_id: int, user_id: int) -> dict[str, Any] | None:
    """One entrant's `points`, `streak` and `rank` in the standings (None: not in them, e.g. removed), in
    one statement whatever the number of entrants: their row and an indexed COUNT of the entrants ranked
    above them in `standings_queryset`'s order (points, performance, the earlier to reach the score with
    no score time last, then the entry's id). A seated player's table socket reads this after each
    standings change, at most once a second (apps/tournaments/table_part.py); it used to read every
    entrant's id in standings order to find the player's place (bench/README.md, arenas)."""
    with connection.cursor() as cursor:
        cursor.execute(_standing_sql(), [tournament_id, user_id])
        row = cursor.fetchone()
    if row is None:
        return None
    points, streak, above = row
    return {"points": points, "streak": streak, "rank": above + 1}


@dataclass(frozen=True)
class Standing:
    rank: int
    user_id: int
    name: str
    points: int
    fire: bool
    matches: int
    performance: int
    paused: bool
    recent: list[Any]


def standings(tournament_id: int, limit: int = STANDINGS_SHOWN) -> list[Standing]:
    """The top `limit` of the standings (one query, plain values: a frame is built after every change)."""
    fields = ("user_id", "user__username", "points", "streak", "matches", "perf_sum", "perf_count", "paused", "marks")
    rows = []
    for rank, (user_id, name, points, streak, matches, perf_sum, perf_count, paused, marks) in enumerate(
        standings_queryset(tournament_id).values_list(*fields)[:limit], start=1
    ):
        performance = round(perf_sum / perf_count) if perf_count else 0
        rows.append(Standing(rank, user_id, name, points, streak >= 2, matches, performance, paused, list(marks or [])[-6:]))
    return rows


@dataclass(frozen=True)
class PlayingTable:
    table_id: int
    players: list[str]


def playing_tables(tournament_id: int, limit: int = 50) -> list[PlayingTable]:
    """The arena's tables in play now, newest first, with their players' names (two queries)."""
    tables = list(
        ArenaTable.objects.filter(tournament_id=tournament_id, finished_at__isnull=True).order_by("-id").values_list("pk", "table_id")[:limit]
    )
    names: dict[int, list[str]] = {pk: [] for pk, _table in tables}
    seats = ArenaSeat.objects.filter(arena_table_id__in=list(names)).order_by("id").values_list("arena_table_id", "entry__user__username")
    for arena_table_id, name in seats:
        names[arena_table_id].append(name)
    return [PlayingTable(table_id, names[pk]) for pk, table_id in tables]


@dataclass(frozen=True)
class FinishedTable:
    match_id: int
    results: list[tuple[str, int | None, int | None]]  # (name, place, points), best first
    voided: bool


def finished_tables(tournament_id: int, limit: int = 20) -> list[FinishedTable]:
    """The arena's latest finished matches, newest first, each with its players' places and points (the
    match page shows its fair-deal check)."""
    tables = list(
        ArenaTable.objects.filter(tournament_id=tournament_id, finished_at__isnull=False, match_id__isnull=False)
        .order_by("-finished_at", "-id")
        .values_list("pk", "match_id", "voided")[:limit]
    )
    results: dict[int, list[tuple[str, int | None, int | None]]] = {pk: [] for pk, _m, _v in tables}
    seats = ArenaSeat.objects.filter(arena_table_id__in=list(results)).values_list(
        "arena_table_id", "entry__user__username", "place", "points"
    )
    for arena_table_id, name, place, points in seats:
        results[arena_table_id].append((name, place, points))
    for rows in results.values():
        rows.sort(key=lambda row: (row[1] is None, row[1] or 0, row[0]))
    return [FinishedTable(match_id, results[pk], voided) for pk, match_id, voided in tables if match_id is not None]


def current_seat(tournament_id: int, user_id: int) -> ArenaSeat | None:
    """The player's table in this arena now (None: free)."""
    return (
        ArenaSeat.objects.filter(arena_table__tournament_id=tournament_id, arena_table__finished_at__isnull=True, user_id=user_id)
        .select_related("arena_table")
        .first()
    )


def entry_of(tournament_id: int, user: Any) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament_id=tournament_id, user_id=user.pk).first()


def listing(now: datetime | None = None) -> dict[str, list[Tournament]]:
    """The arenas page: running, upcoming (soonest first), and the latest finished."""
    now = now or timezone.now()
    running = list(Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("starts_at"))
    upcoming = list(Tournament.objects.filter(status=Tournament.Status.PLANNED).order_by("starts_at")[:30])
    finished = list(
        Tournament.objects.filter(status=Tournament.Status.FINISHED, finished_at__gte=now - timedelta(days=7))
        .order_by("-finished_at")[:FINISHED_SHOWN]
    )
    return {"running": running, "upcoming": upcoming, "finished": finished}


def standings_frame(tournament: Tournament) -> dict[str, Any]:
    """What a viewer's socket receives: the versioned standings and tables (no hidden information:
    names, points and table ids only)."""
    return {
        "type": "standings",
        "version": tournament.version,
        "status": tournament.status,
        "rows": [
            [row.rank, row.name, row.points, 1 if row.fire else 0, row.matches, row.performance, 1 if row.paused else 0]
            for row in standings(tournament.pk)
        ],
        "tables": [[table.table_id, table.players] for table in playing_tables(tournament.pk)],
        "podium": tournament.podium,
    }
