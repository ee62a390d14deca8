"""SPEC 11 limits at the tables, each at its edge (the one before the limit accepted, the one after refused
with words a player reads, changing nothing); tables left to bots, or nobody looks at, close."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from apps.tables import services
from apps.tables.models import Match, Seat, Table
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


def open_table(user, **options):
    return services.table_open(by=user, game="tile-rummy", seat_count=options.pop("seats", 2), **options)


def test_a_user_hosts_three_unstarted_tables_and_the_fourth_is_refused():
    host = make_user("alice")
    for _ in range(3):
        open_table(host, seats=3)
    with pytest.raises(services.NotAllowed, match="already host 3 tables"):
        open_table(host, seats=3)
    assert Table.objects.filter(host=host).count() == 3


def test_a_started_table_no_longer_counts_against_the_hosting_limit():
    host = make_user("alice")
    tables = [open_table(host, bots=["easy"]) for _ in range(3)]
    services.table_start(table_id=tables[0].pk, by=host)
    open_table(host, bots=["easy"])  # two unstarted, one playing: one more may open
    assert Table.objects.filter(host=host).count() == 4


@override_settings(TABLE_UNSTARTED_PER_HOST=1)
def test_the_hosting_limit_is_a_setting():
    host = make_user("alice")
    open_table(host, seats=3)
    with pytest.raises(services.NotAllowed, match="already host 1 table "):
        open_table(host, seats=3)


def test_a_user_sits_at_five_tables_and_the_sixth_is_refused():
    player = make_user("mallory")
    tables = [open_table(make_user(f"host{i}"), seats=3) for i in range(6)]
    for table in tables[:5]:
        services.table_join(table_id=table.pk, by=player)
    with pytest.raises(services.NotAllowed, match="already sit at 5 tables"):
        services.table_join(table_id=tables[5].pk, by=player)
    assert not Seat.objects.filter(table=tables[5], user=player).exists()
    version = Table.objects.get(pk=tables[5].pk).version
    assert version == tables[5].version  # nothing changed
    with pytest.raises(services.NotAllowed, match="already sit at 5 tables"):
        open_table(player)  # a host sits at the table too
    services.table_leave(table_id=tables[0].pk, by=player)
    services.table_join(table_id=tables[5].pk, by=player)  # one stood up: one more


def test_a_match_left_to_site_bots_alone_closes_when_its_last_person_leaves():
    host = make_user("alice")
    table = open_table(host, seats=3, bots=["easy", "easy"], turn_seconds=60)
    services.table_start(table_id=table.pk, by=host)
    services.table_leave(table_id=table.pk, by=host)
    table = Table.objects.get(pk=table.pk)
    assert (table.status, table.closed_reason, table.due_action) == (Table.Status.CLOSED, "no_human", "")
    match = Match.objects.get(table=table)
    assert match.finished_at is not None and not match.rated


def test_a_match_with_a_person_left_plays_on_when_another_leaves_and_ends_with_the_last():
    alice, bob = make_user("alice"), make_user("bob")
    table = open_table(alice, seats=3, bots=["easy"], turn_seconds=60)
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    services.table_leave(table_id=table.pk, by=alice)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    services.table_leave(table_id=table.pk, by=bob)
    assert Table.objects.get(pk=table.pk).status != Table.Status.PLAYING  # one seat left: the match is over


def test_the_sweep_closes_a_playing_table_with_nobody_left_in_it():
    host = make_user("alice")
    table = open_table(host, bots=["easy"], turn_seconds=60)
    services.table_start(table_id=table.pk, by=host)
    Seat.objects.filter(table=table, user=host).update(left_match=True)  # as rows written before this rule
    assert services.tables_close_unused() == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


@override_settings(TABLE_UNWATCHED_CLOSE_SECONDS=30)
def test_an_unstarted_table_nobody_watched_for_the_setting_closes_and_a_watched_one_stays():
    host, other = make_user("alice"), make_user("bob")
    unwatched = open_table(host)
    watched = open_table(other)
    started = open_table(make_user("carol"), bots=["easy"])
    services.table_start(table_id=started.pk, by=started.host)
    later = timezone.now() + timedelta(seconds=20)
    services.tables_watched([watched.pk], now=later)
    assert services.tables_close_unused(now=later) == 0  # 20 s: within the setting
    assert services.tables_close_unused(now=later + timedelta(seconds=15)) == 1  # 35 s unwatched
    statuses = dict(Table.objects.values_list("pk", "status"))
    assert statuses[unwatched.pk] == Table.Status.CLOSED
    assert statuses[watched.pk] == Table.Status.OPEN  # watched 15 s ago
    assert statuses[started.pk] == Table.Status.PLAYING
    assert Table.objects.get(pk=unwatched.pk).closed_reason == "unwatched"


def test_a_private_table_without_its_link_is_refused_word_for_word_as_a_missing_one():
    host, stranger = make_user("alice"), make_user("eve")
    private = open_table(host, private=True)
    missing_id = private.pk + 1000

    def refusal(table_id: int) -> tuple[type, str]:
        with pytest.raises(services.TableError) as error:
            services.table_join(table_id=table_id, by=stranger)
        return type(error.value), str(error.value).replace(str(table_id), "N")

    assert refusal(private.pk) == refusal(missing_id)
    services.table_join(table_id=private.pk, by=stranger, invite_token=private.invite_token)  # with the link
