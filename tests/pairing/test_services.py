"""Quick pairing's services (SPEC 15): pools, waves, coming to the table, seeks, bans. The races run on
PostgreSQL (two connections); on SQLite they skip."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.test import override_settings
from django.utils import timezone

from apps.pairing import services
from apps.pairing.models import PoolEntry, Seek, Wait
from apps.pairing.pools import Pool
from apps.pairing.rules import PairingError
from apps.social.models import Block
from apps.tables import selectors as table_selectors
from apps.tables.models import Match, Seat, Table
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db

RATED_2 = Pool("tile-rummy", 2, 60, True)
CASUAL_2 = Pool("tile-rummy", 2, 60, False)


def seated_together(table_id: int) -> set[int]:
    return set(Seat.objects.filter(table_id=table_id, user__isnull=False).values_list("user_id", flat=True))


def join_all(names, pool, **options):
    players = [make_user(name, **options) for name in names]
    for player in players:
        services.pool_join(by=player, pool=pool)
    return players


def test_two_players_in_a_pool_are_seated_at_one_table_whose_match_has_started():
    ana, bogdan = join_all(["ana", "bogdan"], RATED_2)
    report = services.pairing_wave()
    assert len(report.tables) == 1
    table = Table.objects.get(pk=report.tables[0])
    assert table.status == Table.Status.PLAYING and table.seat_count == 2 and table.turn_seconds == 60
    assert seated_together(table.pk) == {ana.pk, bogdan.pk}
    assert Match.objects.get(table=table).rated
    assert set(PoolEntry.objects.values_list("table_id", flat=True)) == {table.pk}  # until they come
    assert Wait.objects.filter(pool=RATED_2.key).count() == 2


@pytest.mark.parametrize("seats", [3, 4])
def test_three_and_four_players_make_a_table_of_three_and_of_four(seats):
    pool = Pool("tile-rummy", seats, 30, False)
    players = join_all([f"p{i}" for i in range(seats)], pool)
    report = services.pairing_wave()
    assert len(report.tables) == 1
    assert seated_together(report.tables[0]) == {player.pk for player in players}
    assert Table.objects.get(pk=report.tables[0]).seat_count == seats


def test_one_player_too_few_waits_and_misses_a_wave():
    join_all(["ana", "bogdan"], Pool("tile-rummy", 3, 60, True))
    assert services.pairing_wave().tables == []
    assert list(PoolEntry.objects.values_list("waves", flat=True)) == [1, 1]


def test_a_blocked_pair_is_never_seated_together():
    ana, bogdan, carmen, dan = join_all(["ana", "bogdan", "carmen", "dan"], RATED_2)
    Block.objects.create(blocker=ana, blocked=bogdan)
    Block.objects.create(blocker=dan, blocked=carmen)
    report = services.pairing_wave()
    pairs = [seated_together(table_id) for table_id in report.tables]
    assert len(pairs) == 2
    assert {ana.pk, bogdan.pk} not in pairs and {carmen.pk, dan.pk} not in pairs


def test_a_blocked_pair_alone_in_a_pool_waits_rather_than_sit_together():
    ana, bogdan = join_all(["ana", "bogdan"], CASUAL_2)
    Block.objects.create(blocker=bogdan, blocked=ana)
    for _ in range(10):
        assert services.pairing_wave().tables == []


def test_players_whose_match_was_aborted_within_the_hour_are_kept_apart():
    ana, bogdan = join_all(["ana", "bogdan"], RATED_2)
    table_id = services.pairing_wave().tables[0]
    later = timezone.now() + timedelta(seconds=20)
    services.arrival(table_id=table_id, user_id=ana.pk)
    services.arrivals_settle(now=later)  # bogdan never came: the match is aborted
    assert Match.objects.get(table_id=table_id).aborted
    assert table_selectors.aborted_together([ana.pk, bogdan.pk], since=later - timedelta(hours=1)) == {
        frozenset((ana.pk, bogdan.pk))
    }
    PoolEntry.objects.update(seen_at=later)
    assert services.pairing_wave(now=later).tables == []


def test_a_guest_cannot_join_a_rated_pool_but_may_join_a_casual_one():
    guest = make_user("guest-1", guest=True)
    with pytest.raises(PairingError, match="registered players"):
        services.pool_join(by=guest, pool=RATED_2)
    assert not PoolEntry.objects.exists()
    services.pool_join(by=guest, pool=CASUAL_2)
    assert PoolEntry.objects.get().user_id == guest.pk


def test_an_unverified_account_is_told_to_verify_its_email_for_a_rated_pool():
    with pytest.raises(PairingError, match="Verify your email"):
        services.pool_join(by=make_user("ana", verified=False), pool=RATED_2)


def test_one_pool_at_a_time_joining_another_moves_the_player():
    ana = make_user("ana")
    services.pool_join(by=ana, pool=RATED_2)
    services.pool_join(by=ana, pool=Pool("tile-rummy", 3, 30, False))
    entry = PoolEntry.objects.get()
    assert (entry.seats, entry.pace, entry.rated) == (3, 30, False)


def test_a_pool_that_does_not_exist_is_refused():
    with pytest.raises(ValueError):
        Pool.parse("tile-rummy-rearrange/2/30/rated")  # the Rearrange game has no 30 s pace
    with pytest.raises(ValueError):
        Pool.parse("tile-rummy/5/60/rated")


def test_cancel_takes_the_player_out():
    ana = join_all(["ana"], RATED_2)[0]
    assert services.pool_leave(by=ana)
    assert not PoolEntry.objects.exists()
    assert not services.pool_leave(by=ana)


def test_a_page_not_seen_for_five_seconds_leaves_the_pool_and_a_seen_one_stays():
    ana, bogdan = join_all(["ana", "bogdan"], Pool("tile-rummy", 3, 60, False))
    start = timezone.now()
    services.entries_touch(user_id=ana.pk, now=start + timedelta(seconds=4))
    services.entries_sweep(now=start + timedelta(seconds=6))
    assert list(PoolEntry.objects.values_list("user_id", flat=True)) == [ana.pk]


def test_a_ban_takes_the_account_out_of_its_pool_and_its_seek(django_capture_on_commit_callbacks):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    services.pool_join(by=ana, pool=RATED_2)
    services.seek_post(by=bogdan, pool=Pool("tile-rummy", 3, 60, True), rating_min=900, rating_max=1100)
    for user in (ana, bogdan):
        user.banned_until = timezone.now() + timedelta(days=1)
        with django_capture_on_commit_callbacks(execute=True):
            user.save(update_fields=["banned_until"])
    assert not PoolEntry.objects.exists() and not Seek.objects.exists()
    with pytest.raises(PairingError, match="may not play"):
        services.pool_join(by=ana, pool=CASUAL_2)


def test_a_player_who_does_not_come_loses_the_seat_and_goes_to_the_back_the_other_to_the_front():
    ana, bogdan = join_all(["ana", "bogdan"], CASUAL_2)
    first_joined = PoolEntry.objects.get(user=ana).joined_at
    table_id = services.pairing_wave().tables[0]
    services.arrival(table_id=table_id, user_id=ana.pk)
    early = timezone.now() + timedelta(seconds=10)
    assert services.arrivals_settle(now=early) == 0  # still within the 15 s
    later = timezone.now() + timedelta(seconds=16)
    assert services.arrivals_settle(now=later) == 1
    table = Table.objects.get(pk=table_id)
    match = Match.objects.get(table=table)
    assert table.status == Table.Status.CLOSED and match.aborted and not match.rated
    came, absent = PoolEntry.objects.get(user=ana), PoolEntry.objects.get(user=bogdan)
    assert came.table_id is None and came.joined_at == first_joined  # the front: their first place
    assert absent.table_id is None and absent.joined_at == later  # the back


def test_when_everyone_comes_the_pairing_is_done():
    ana, bogdan = join_all(["ana", "bogdan"], RATED_2)
    table_id = services.pairing_wave().tables[0]
    services.arrival(table_id=table_id, user_id=ana.pk)
    services.arrival(table_id=table_id, user_id=bogdan.pk)
    assert not PoolEntry.objects.exists()
    assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING


@override_settings(PAIRING_BOT_SECONDS=25)
def test_a_casual_player_who_asked_for_a_bot_gets_one_after_25_seconds_and_an_unrated_table():
    ana = make_user("ana")
    services.pool_join(by=ana, pool=CASUAL_2, bot_fill=True)
    PoolEntry.objects.update(seen_at=timezone.now() + timedelta(seconds=60))
    assert services.pairing_wave(now=timezone.now() + timedelta(seconds=20)).bots == []
    report = services.pairing_wave(now=timezone.now() + timedelta(seconds=26))
    assert len(report.bots) == 1
    seats = list(Seat.objects.filter(table_id=report.bots[0]).order_by("index"))
    assert seats[0].user_id == ana.pk and seats[1].bot_level == "easy"
    assert not Match.objects.get(table_id=report.bots[0]).rated


def test_a_rated_pool_never_seats_a_bot():
    ana = make_user("ana")
    services.pool_join(by=ana, pool=RATED_2, bot_fill=True)
    assert not PoolEntry.objects.get().bot_fill
    PoolEntry.objects.update(seen_at=timezone.now() + timedelta(seconds=600))
    assert services.pairing_wave(now=timezone.now() + timedelta(seconds=300)).bots == []


def test_a_seek_is_matched_at_once_by_a_compatible_one():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    pool = Pool("tile-rummy", 2, 60, True)
    assert services.seek_post(by=ana, pool=pool, rating_min=900, rating_max=1200) is None
    assert Seek.objects.count() == 1
    table_id = services.seek_post(by=bogdan, pool=pool, rating_min=800, rating_max=1100)
    assert table_id is not None and seated_together(table_id) == {ana.pk, bogdan.pk}
    assert not Seek.objects.exists()


def test_a_seek_whose_range_excludes_the_other_is_not_matched():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    pool = Pool("tile-rummy", 2, 60, True)
    services.seek_post(by=ana, pool=pool, rating_min=1300, rating_max=1500)  # both are 1000
    assert services.seek_post(by=bogdan, pool=pool, rating_min=800, rating_max=1100) is None
    assert Seek.objects.count() == 2


def test_a_seek_of_three_is_matched_with_a_pool_player_and_another_seek():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    pool = Pool("tile-rummy", 3, 60, False)
    services.pool_join(by=ana, pool=pool)
    assert services.seek_post(by=bogdan, pool=pool, rating_min=900, rating_max=1100) is None
    table_id = services.seek_post(by=carmen, pool=pool, rating_min=900, rating_max=1100)
    assert table_id is not None and seated_together(table_id) == {ana.pk, bogdan.pk, carmen.pk}


def test_taking_a_seek_opens_the_table_and_a_taken_seek_cannot_be_taken_again():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    services.seek_post(by=ana, pool=RATED_2, rating_min=900, rating_max=1100)
    seek_id = Seek.objects.get().pk
    table_id = services.seek_take(by=bogdan, seek_id=seek_id)
    assert table_id is not None and seated_together(table_id) == {ana.pk, bogdan.pk}
    with pytest.raises(PairingError, match="taken or withdrawn"):
        services.seek_take(by=carmen, seek_id=seek_id)


def test_a_guest_cannot_take_a_rated_seek():
    services.seek_post(by=make_user("ana"), pool=RATED_2, rating_min=900, rating_max=1100)
    with pytest.raises(PairingError, match="registered players"):
        services.seek_take(by=make_user("guest-2", guest=True), seek_id=Seek.objects.get().pk)
    assert Seek.objects.count() == 1 and not Table.objects.exists()


# --- races, on PostgreSQL ------------------------------------------------------------------------------


def race(functions):
    """Run the functions at the same moment on their own connections; their results (or errors)."""
    barrier = threading.Barrier(len(functions))
    results: list[object] = [None] * len(functions)

    def run(index, function):
        try:
            barrier.wait()
            results[index] = function()
        except Exception as error:  # the outcome is what the test compares
            results[index] = error
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_two_players_taking_one_seek_at_once_only_one_wins():
    postgresql_only()
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    services.seek_post(by=ana, pool=RATED_2, rating_min=900, rating_max=1100)
    seek_id = Seek.objects.get().pk
    for _ in range(3):  # each round: the seek again, two takers at once
        results = race([lambda seek=seek_id: services.seek_take(by=bogdan, seek_id=seek),
                        lambda seek=seek_id: services.seek_take(by=carmen, seek_id=seek)])
        won = [r for r in results if isinstance(r, int)]
        lost = [r for r in results if isinstance(r, PairingError)]
        assert len(won) == 1 and len(lost) == 1, results
        assert Seat.objects.filter(user=ana).count() == Table.objects.count()
        Table.objects.all().delete()
        services.seek_post(by=ana, pool=RATED_2, rating_min=900, rating_max=1100)
        seek_id = Seek.objects.get(user=ana).pk


@pytest.mark.django_db(transaction=True)
def test_two_waves_at_once_run_one_at_a_time_and_seat_everyone_once():
    postgresql_only()
    players = join_all([f"p{i}" for i in range(8)], CASUAL_2)
    reports = race([services.pairing_wave, services.pairing_wave])
    assert sum(len(report.tables) for report in reports) == 4
    for player in players:
        assert Seat.objects.filter(user=player).count() == 1


@pytest.mark.django_db(transaction=True)
def test_joins_during_a_wave_are_never_lost_nor_seated_twice():
    postgresql_only()
    early = join_all([f"e{i}" for i in range(6)], CASUAL_2)
    late = [make_user(f"l{i}") for i in range(6)]
    jobs = [services.pairing_wave] + [lambda user=user: services.pool_join(by=user, pool=CASUAL_2) for user in late]
    results = race(jobs)
    assert not any(isinstance(result, Exception) for result in results), results
    services.pairing_wave()
    for player in early + late:
        seats = Seat.objects.filter(user=player).count()
        waiting = PoolEntry.objects.filter(user=player, table_id__isnull=True).exists()
        assert seats + waiting == 1, player


@pytest.mark.django_db(transaction=True)
def test_a_seek_and_a_wave_never_seat_one_pool_player_twice():
    postgresql_only()
    pool = Pool("tile-rummy", 2, 60, False)
    waiting = join_all(["w1", "w2", "w3"], pool)
    seekers = [make_user("s1"), make_user("s2")]
    jobs = [services.pairing_wave] + [
        lambda user=user: services.seek_post(by=user, pool=pool, rating_min=0, rating_max=4000) for user in seekers
    ]
    results = race(jobs)
    assert not any(isinstance(result, Exception) for result in results), results
    for player in waiting + seekers:
        assert Seat.objects.filter(user=player).count() <= 1
