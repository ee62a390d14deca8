"""An arena from joining to the podium, through its services (SPEC 16): tables formed by standing then
rating, points by place scored once per match, a streak doubled, a leaver paused and not paired, never
the same table twice in a row, voiding takes the points back, the reminder is sent once."""

from __future__ import annotations

import random
import threading
from datetime import timedelta
from itertools import combinations
from types import SimpleNamespace

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from apps.leaderboards.models import Rating
from apps.leaderboards.voiding import MatchVoided
from apps.lib.events import deliver, subscribe, unsubscribe
from apps.social.models import Block
from apps.tables.events import MatchFinished, Placing
from apps.tables.models import Seat
from apps.tournaments import services
from apps.tournaments.events import TournamentStartsSoon
from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, ScoredMatch, Tournament
from apps.tournaments.selectors import standings
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def join_all(arena, names):
    users = [make_user(name) for name in names]
    for user in users:
        services.tournament_join(tournament_id=arena.pk, by=user)
    return users


def open_tables(arena):
    return list(ArenaTable.objects.filter(tournament=arena, finished_at__isnull=True).order_by("id"))


def players_of(arena_table):
    return sorted(ArenaSeat.objects.filter(arena_table=arena_table).values_list("user_id", flat=True))


def finish(arena_table, places, left=()):
    """Deliver the table's MatchFinished (as the tables app does after its commit)."""
    seats = list(Seat.objects.filter(table_id=arena_table.table_id).order_by("index"))
    event = MatchFinished(
        match_id=arena_table.match_id, table_id=arena_table.table_id, game="tile-rummy", rated=False,
        places=tuple(Placing(seat.index, seat.user_id, places[seat.user_id], left=seat.user_id in left) for seat in seats),
    )
    deliver([event])
    return event


def test_the_tick_pairs_free_players_by_standing_before_rating(arena):
    ana, bogdan, carmen, dan = join_all(arena, ["ana", "bogdan", "carmen", "dan"])
    # Ratings pair ana with bogdan and carmen with dan; standings pair ana with carmen and bogdan with dan.
    for user, rating in ((ana, 1500), (bogdan, 1490), (carmen, 1010), (dan, 1000)):
        Rating.objects.create(user=user, game="tile-rummy", rating=rating, matches=20)
    Entry.objects.filter(user__in=[ana, carmen]).update(points=4)
    assert services.arenas_tick()["tables"] == 2
    assert sorted(players_of(t) for t in open_tables(arena)) == sorted([sorted([ana.pk, carmen.pk]), sorted([bogdan.pk, dan.pk])])
    assert services.arenas_tick()["tables"] == 0  # everyone is at a table


def test_a_match_is_scored_once_even_if_its_event_comes_twice(arena):
    ana, bogdan = join_all(arena, ["ana", "bogdan"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    event = finish(table, {ana.pk: 1, bogdan.pk: 2})
    deliver([event])  # delivered again
    assert ScoredMatch.objects.filter(match_id=table.match_id).count() == 1
    assert Entry.objects.get(user=ana).points == 2 and Entry.objects.get(user=ana).matches == 1
    assert Entry.objects.get(user=bogdan).points == 0 and Entry.objects.get(user=bogdan).matches == 1


def test_a_streak_doubles_the_third_win_and_never_the_same_table_twice_in_a_row(arena):
    ana, bogdan, carmen = join_all(arena, ["ana", "bogdan", "carmen"])
    earned = []
    met = []
    for _round in range(3):
        services.arenas_tick()
        (table,) = open_tables(arena)
        pair = players_of(table)
        met.append(pair)
        assert ana.pk in pair or _round > 0
        other = next(user_id for user_id in pair if user_id != ana.pk) if ana.pk in pair else None
        if other is None:  # ana waits this round: finish the others' table
            finish(table, {pair[0]: 1, pair[1]: 2})
            continue
        before = Entry.objects.get(user=ana).points
        finish(table, {ana.pk: 1, other: 2})
        earned.append(Entry.objects.get(user=ana).points - before)
    assert all(met[i] != met[i + 1] for i in range(len(met) - 1))
    # Keep winning until the third first place in a row.
    while len(earned) < 3:
        services.arenas_tick()
        tables = open_tables(arena)
        for table in tables:
            pair = players_of(table)
            if ana.pk in pair:
                other = next(user_id for user_id in pair if user_id != ana.pk)
                before = Entry.objects.get(user=ana).points
                finish(table, {ana.pk: 1, other: 2})
                earned.append(Entry.objects.get(user=ana).points - before)
            else:
                finish(table, {pair[0]: 1, pair[1]: 2})
    assert earned[:3] == [2, 2, 4]
    assert standings(arena.pk)[0].user_id == ana.pk and standings(arena.pk)[0].fire


def test_a_leaver_scores_nothing_is_paused_and_not_paired_until_play_on(arena):
    ana, bogdan, carmen = join_all(arena, ["ana", "bogdan", "carmen"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    leaver, stayer = players_of(table)
    finish(table, {leaver: 2, stayer: 1}, left={leaver})
    entry = Entry.objects.get(user_id=leaver)
    assert entry.points == 0 and entry.paused and entry.paused_until is not None
    services.arenas_tick()
    assert all(leaver not in players_of(t) for t in open_tables(arena))
    user = entry.user
    with pytest.raises(services.TournamentError, match="play on in"):
        services.tournament_play_on(tournament_id=arena.pk, by=user)
    services.tournament_play_on(tournament_id=arena.pk, by=user, now=timezone.now() + timedelta(seconds=11))
    assert not Entry.objects.get(user_id=leaver).paused


def test_pausing_again_within_twenty_minutes_doubles_the_wait(arena):
    (ana,) = join_all(arena, ["ana"])
    now = timezone.now()
    waits = []
    for step in range(5):
        at = now + timedelta(minutes=step)
        entry = services.tournament_pause(tournament_id=arena.pk, by=ana, now=at)
        waits.append(entry.pause_wait)
        services.tournament_play_on(tournament_id=arena.pk, by=ana, now=at + timedelta(seconds=entry.pause_wait))
    assert waits == [10, 20, 40, 80, 120]


def test_blocked_players_never_share_a_table(arena):
    ana, bogdan, carmen, dan = join_all(arena, ["ana", "bogdan", "carmen", "dan"])
    Block.objects.create(blocker=ana, blocked=bogdan)
    Entry.objects.filter(user__in=[ana, bogdan]).update(points=10)  # standing would seat them together
    services.arenas_tick()
    for table in open_tables(arena):
        assert set(players_of(table)) != {ana.pk, bogdan.pk}


def test_a_voided_match_loses_its_points(arena):
    ana, bogdan = join_all(arena, ["ana", "bogdan"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    finish(table, {ana.pk: 1, bogdan.pk: 2})
    deliver([MatchVoided(table.match_id)])
    deliver([MatchVoided(table.match_id)])
    entry = Entry.objects.get(user=ana)
    assert (entry.points, entry.matches) == (0, 0)


def test_an_aborted_match_scores_nobody(arena):
    ana, bogdan = join_all(arena, ["ana", "bogdan"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    seats = list(Seat.objects.filter(table_id=table.table_id).order_by("index"))
    deliver([MatchFinished(table.match_id, table.table_id, "tile-rummy", False, tuple(Placing(s.index, s.user_id) for s in seats), aborted="early_leave")])
    assert Entry.objects.get(user=ana).points == 0 and Entry.objects.get(user=ana).matches == 0
    assert not open_tables(arena)


def test_pairing_stops_before_the_end_and_the_end_keeps_the_podium(arena):
    ana, bogdan, carmen = join_all(arena, ["ana", "bogdan", "carmen"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    first, second = players_of(table)
    finish(table, {first: 1, second: 2})
    near_end = arena.ends_at - timedelta(seconds=59)
    assert services.arenas_tick(now=near_end)["tables"] == 0  # max(60 s, 6 min) before the end: no pairing
    assert services.arenas_tick(now=arena.ends_at + timedelta(seconds=1))["finished"] == 1
    arena.refresh_from_db()
    assert arena.status == Tournament.Status.FINISHED
    assert arena.winner_id == first and arena.podium[0]["user_id"] == first and len(arena.podium) == 3


def test_a_running_match_at_the_end_counts_before_the_podium(arena):
    ana, bogdan = join_all(arena, ["ana", "bogdan"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    assert services.arenas_tick(now=arena.ends_at + timedelta(seconds=1))["finished"] == 0
    finish(table, {ana.pk: 2, bogdan.pk: 1})
    services.arenas_tick(now=arena.ends_at + timedelta(seconds=2))
    arena.refresh_from_db()
    assert arena.status == Tournament.Status.FINISHED and arena.winner_id == bogdan.pk


def test_entry_conditions_are_checked(db):
    capped = Tournament.objects.create(
        name="Capped", game="tile-rummy", starts_at=timezone.now() + timedelta(hours=1), rated=True,
        rating_below=1200, min_rated_matches=5,
    )
    strong, fresh, guest, unverified = make_user("strong"), make_user("fresh"), make_user("g", guest=True), make_user("u", verified=False)
    Rating.objects.create(user=strong, game="tile-rummy", rating=1300, matches=30)
    with pytest.raises(services.TournamentError, match="below 1200"):
        services.tournament_join(tournament_id=capped.pk, by=strong)
    with pytest.raises(services.TournamentError, match="5 rated matches"):
        services.tournament_join(tournament_id=capped.pk, by=fresh)
    with pytest.raises(services.TournamentError, match="registered"):
        services.tournament_join(tournament_id=capped.pk, by=guest)
    with pytest.raises(services.TournamentError, match="verified"):
        services.tournament_join(tournament_id=capped.pk, by=unverified)
    assert not Entry.objects.exists()


def test_the_entrants_are_told_once_five_minutes_before_the_start(db, django_capture_on_commit_callbacks):
    soon = Tournament.objects.create(name="Soon", game="tile-rummy", starts_at=timezone.now() + timedelta(minutes=4), rated=False)
    users = join_all(soon, ["ana", "bogdan"])
    heard = []
    subscribe(TournamentStartsSoon, heard.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.arenas_tick()
        with django_capture_on_commit_callbacks(execute=True):
            services.arenas_tick()
    finally:
        unsubscribe(TournamentStartsSoon, heard.append)
    assert heard == [TournamentStartsSoon(soon.pk, tuple(sorted(u.pk for u in users)), soon.starts_at.isoformat(), "Soon")]


@pytest.mark.django_db(transaction=True)
def test_two_workers_scoring_one_match_at_once_score_it_once(arena):
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    ana, bogdan = join_all(arena, ["ana", "bogdan"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    barrier = threading.Barrier(2)
    outcomes = []

    def score():
        try:
            barrier.wait()
            outcomes.append(services.arena_match_finished(
                table_id=table.table_id, match_id=table.match_id,
                finishes=[services.Finish(ana.pk, 1, False), services.Finish(bogdan.pk, 2, False)],
            ))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=score) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == [False, True]
    assert Entry.objects.get(user=ana).points == 2 and Entry.objects.get(user=ana).matches == 1


def test_a_match_whose_event_was_lost_is_scored_by_the_tick(arena):
    from django.core.cache import cache

    from apps.tables.models import Match, MatchPlayer

    ana, bogdan = join_all(arena, ["ana", "bogdan"])
    services.arenas_tick()
    (table,) = open_tables(arena)
    MatchPlayer.objects.filter(match_id=table.match_id, user=ana).update(place=1)
    MatchPlayer.objects.filter(match_id=table.match_id, user=bogdan).update(place=2)
    Match.objects.filter(pk=table.match_id).update(finished_at=timezone.now())  # finished; its event never came
    ArenaTable.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    cache.delete(services.CATCH_UP_KEY)
    services.arenas_tick()
    assert Entry.objects.get(user=ana).points == 2 and not open_tables(arena)


def test_three_four_seats_seven_at_a_table_of_four_and_one_of_three_and_never_the_same_table_again(arena):
    Tournament.objects.filter(pk=arena.pk).update(seats="3-4")
    arena.refresh_from_db()
    users = join_all(arena, ["ana", "bogdan", "carmen", "dan", "elena", "florin", "gabi"])
    services.arenas_tick()
    assert sorted(len(players_of(t)) for t in open_tables(arena)) == [3, 4]
    small = next(t for t in open_tables(arena) if len(players_of(t)) == 3)
    trio = players_of(small)
    finish(small, {trio[0]: 1, trio[1]: 2, trio[2]: 3})
    services.arenas_tick()  # only those three are free: the same table again is refused, they wait
    assert len(open_tables(arena)) == 1
    assert sorted(u.pk for u in users if u.pk in trio) == trio


# -- the pairing pass's grouping (services.group_entries: pure, no database) --------------------------------


def free(user_id, points=0, last_table=""):
    return SimpleNamespace(user_id=user_id, points=points, last_table=last_table)


def key(*user_ids):
    return ",".join(str(user_id) for user_id in sorted(user_ids))


def grouped(entries, sizes=(2,), ratings=None, blocked=()):
    tables = services.group_entries(entries, ratings or {}, sizes, {frozenset(pair) for pair in blocked})
    return [[entry.user_id for entry in table] for table in tables]


def test_grouping_cuts_the_standing_order_then_rating_into_consecutive_tables():
    entries = [free(1, 0), free(2, 6), free(3, 0), free(4, 6), free(5, 2), free(6, 2)]
    ratings = {1: 1500, 2: 900, 3: 1000, 4: 1600, 5: 1200, 6: 1300}
    assert grouped(entries, (2,), ratings) == [[4, 2], [6, 5], [1, 3]]
    assert grouped(entries, (3,), ratings) == [[4, 2, 6], [5, 1, 3]]


def test_grouping_a_blocked_pair_is_repaired_by_the_neighbour_below():
    entries = [free(i, 10 - i) for i in range(1, 7)]
    assert grouped(entries, (2,)) == [[1, 2], [3, 4], [5, 6]]
    assert grouped(entries, (2,), blocked=[(1, 2)]) == [[1, 3], [2, 4], [5, 6]]
    assert grouped(entries, (3,), blocked=[(2, 3)]) == [[1, 2, 4], [3, 5, 6]]


def test_grouping_never_forms_the_table_its_players_just_left():
    pair = [free(1, 4, key(1, 2)), free(2, 4, key(1, 2)), free(3, 2, key(3, 9)), free(4, 0)]
    assert grouped(pair, (2,)) == [[1, 3], [2, 4]]
    table = [free(i, 10 - i, key(1, 2, 3, 4)) for i in (1, 2, 3, 4)] + [free(5, 0), free(6, 0), free(7, 0), free(8, 0)]
    assert grouped(table, (4,)) == [[1, 2, 3, 5], [4, 6, 7, 8]]
    # Two of a 4-seat table may meet again at another table: only the very same table is refused.
    assert grouped(table[:2] + table[4:], (4,)) == [[1, 2, 5, 6]]


def test_grouping_waits_when_the_only_table_would_be_the_same_again_or_blocked():
    trio = [free(i, 0, key(1, 2, 3)) for i in (1, 2, 3)]
    assert grouped(trio, (4, 3)) == []
    assert grouped([free(1), free(2)], (2,), blocked=[(1, 2)]) == []
    # Blocked from everyone near: that one player waits, the others are seated.
    everyone = [free(i, 10 - i) for i in range(1, 6)]
    assert grouped(everyone, (2,), blocked=[(1, i) for i in range(2, 6)]) == [[2, 3], [4, 5]]
    # At "3-4" the six left split anew: two tables of 3 (seven would have made a 4 and a 3).
    seven = [free(i, 10 - i) for i in range(1, 8)]
    assert grouped(seven, (4, 3), blocked=[(1, i) for i in range(2, 8)]) == [[2, 3, 4], [5, 6, 7]]


@pytest.mark.parametrize("count, split", [(3, [3]), (4, [4]), (5, [4]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]), (13, [4, 3, 3, 3])])
def test_grouping_three_four_fills_tables_of_four_and_uses_three_where_the_count_needs_it(count, split):
    entries = [free(i, count - i) for i in range(1, count + 1)]
    tables = grouped(entries, (4, 3))
    assert [len(table) for table in tables] == split
    assert [user_id for table in tables for user_id in table] == list(range(1, sum(split) + 1))  # the top ones


def test_grouping_keeps_the_rules_on_a_thousand_and_is_deterministic():
    rng = random.Random(7)
    for sizes in ((2,), (3,), (4,), (4, 3)):
        entries = [free(i, rng.randint(0, 12)) for i in range(1, 1001)]
        ratings = {i: rng.randint(600, 1800) for i in range(1, 1001)}
        order = sorted(entries, key=lambda e: (-e.points, -ratings[e.user_id], e.user_id))  # standing, then rating
        for at in range(0, 1000, 8):  # a quarter come back from a table of neighbours in the standings, all free again
            members = order[at : at + max(sizes)]
            for entry in members:
                entry.last_table = key(*(m.user_id for m in members))
        blocked = {frozenset((order[i].user_id, order[i + 1].user_id)) for i in range(0, 999, 37)}
        blocked |= {frozenset(rng.sample(range(1, 1001), 2)) for _ in range(50)}
        tables = services.group_entries(entries, ratings, sizes, blocked)
        assert services.group_entries(list(reversed(entries)), ratings, sizes, blocked) == tables
        seated = [entry.user_id for table in tables for entry in table]
        assert len(seated) == len(set(seated))
        assert sum(len(table) for table in tables) >= 1000 - max(sizes), "conflicts are repaired, not left to wait"
        for table in tables:
            assert len(table) in sizes
            ids = [entry.user_id for entry in table]
            assert not any(frozenset(pair) in blocked for pair in combinations(ids, 2))
            assert not all(entry.last_table == key(*ids) for entry in table)
            # Repairs are local: a table spans a few places of the standing order, never far.
            places = [order.index(entry) for entry in table]
            assert max(places) - min(places) <= services.REPAIR_REACH
