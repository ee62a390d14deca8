"""The table's lock (apps/tables/services/sql.py `lock_table`): a service works on the rows as they are
once the lock is granted, never on the rows of a snapshot taken while it waited (PostgreSQL's READ
COMMITTED; SPEC 10, CONVENTIONS 24).

Two connections: the first holds the table's lock and changes the game, the match and the fair deal;
the second waits in `lock_table`. After the first commits, the second must see every change. On
PostgreSQL a `SELECT ... JOIN ... FOR UPDATE OF t` that waits re-reads only `t` and keeps the joined
rows of its old snapshot (the "EvalPlanQual" rule), which is what these tests catch."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction

from apps.engine.game import get_rules
from apps.tables import services
from apps.tables.models import Game, Match, Seat, Table
from apps.tables.services import sql
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)

HOUSE = "tile-rummy"


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks with concurrent connections: PostgreSQL (CI runs it; SQLite locks the whole file)")


def started(host, other) -> Table:
    table = services.table_open(by=host, game=HOUSE, seat_count=2)
    services.table_join(table_id=table.pk, by=other)
    services.table_start(table_id=table.pk, by=host)
    return Table.objects.get(pk=table.pk)


def waiting_for_a_lock() -> int:
    """How many other connections of this database wait for a row lock now (the statistics a transaction
    reads are kept until it ends unless cleared)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def until(condition: Callable[[], bool], ceiling: float = 60.0) -> None:
    """Wait for the condition, checking every 10 ms, for at most about `ceiling` seconds."""
    for _ in range(int(ceiling / 0.01)):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the condition never came true")


def read_while_another_writes(table_id: int, write: Callable[[Table], None]) -> Table:
    """The first thread locks the table and writes; the second asks for the lock while the first holds
    it; the first commits once the second is seen waiting. Returns what the second read under its lock."""
    holding, done = threading.Event(), threading.Event()
    seen: list[Table] = []
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                table = sql.lock_table(table_id)
                assert table is not None
                write(table)
                holding.set()
                until(lambda: waiting_for_a_lock() >= 1)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
            holding.set()
        finally:
            connections.close_all()

    def second() -> None:
        try:
            holding.wait(60)
            with transaction.atomic():
                table = sql.lock_table(table_id)
                assert table is not None
                seen.append(table)
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            done.set()
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert done.is_set() and len(seen) == 1
    return seen[0]


def test_a_lock_granted_after_a_move_sees_that_moves_game_match_and_table(alice, bob):
    table = started(alice, bob)

    def write(locked: Table) -> None:
        game, match = locked.current_game, locked.match
        Game.objects.filter(pk=game.pk).update(turn=game.turn + 7, move_count=game.move_count + 3)
        Match.objects.filter(pk=match.pk).update(state={**match.state, "written": "by the first"})
        Table.objects.filter(pk=locked.pk).update(version=locked.version + 1)

    seen = read_while_another_writes(table.pk, write)
    game = Game.objects.get(pk=table.current_game_id)
    assert seen.version == table.version + 1
    assert (seen.current_game.turn, seen.current_game.move_count) == (game.turn, game.move_count)
    assert seen.match.state.get("written") == "by the first"


def test_a_lock_granted_after_a_draft_sees_the_draft(alice, bob):
    """A draft does not raise the version; it still writes the table's row, so the waiting reader (a
    timeout about to play that draft) reads the game again."""
    table = started(alice, bob)
    game = Game.objects.get(pk=table.current_game_id)
    rules = get_rules(HOUSE)
    mover = alice if rules.to_move(rules.from_dict(game.state)) == 0 else bob

    seen = read_while_another_writes(table.pk, lambda locked: services.game_draft(table_id=locked.pk, by=mover, move="draw"))
    assert seen.current_game.draft is not None and seen.current_game.draft["move"] == "draw"


def test_a_lock_granted_after_a_players_seed_sees_the_seed(alice, bob, settings):
    settings.TABLE_FAIR_SEED_SECONDS = 60  # the match waits for both players' seeds
    table = started(alice, bob)
    assert table.due_action == Table.Due.DEAL

    seen = read_while_another_writes(table.pk, lambda locked: services.table_seed(table_id=locked.pk, by=alice, seed="a" * 32))
    assert seen.match.fair_deal.seeds[0] == "a" * 32


def test_a_lock_granted_after_a_new_game_was_dealt_reads_the_new_game(alice, bob):
    """The writer points the table at another game: the reader gets that game, not the old one joined
    from its snapshot (nor no row at all)."""
    table = started(alice, bob)
    old = Game.objects.get(pk=table.current_game_id)
    new = Game.objects.create(match_id=old.match_id, number=old.number + 1, state=old.state, deal=old.deal)

    def write(locked: Table) -> None:
        Table.objects.filter(pk=locked.pk).update(current_game=new, version=locked.version + 1)

    seen = read_while_another_writes(table.pk, write)
    assert seen.current_game is not None and seen.current_game.pk == new.pk


def at_once(count: int, action: Callable[[int], object]) -> list[object]:
    """`action(i)` for i in range(count), all in threads released together; what each returned or raised."""
    barrier = threading.Barrier(count)
    outcomes: list[object] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = action(i)
        except Exception as error:  # noqa: BLE001 - the test reads them
            outcomes[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return outcomes


def test_tables_opened_at_once_by_one_host_stop_at_the_host_limit(alice, settings):
    settings.TABLE_UNSTARTED_PER_HOST = 3
    settings.TABLE_SEATS_PER_USER = 10
    outcomes = at_once(8, lambda i: services.table_open(by=alice, game=HOUSE, seat_count=2))
    opened = [o for o in outcomes if isinstance(o, Table)]
    assert len(opened) == 3, outcomes
    assert all(isinstance(o, services.NotAllowed) for o in outcomes if not isinstance(o, Table)), outcomes
    assert Table.objects.filter(host=alice).count() == 3


def test_joins_at_once_at_different_tables_stop_at_the_seat_limit(bob, settings):
    settings.TABLE_SEATS_PER_USER = 2
    tables = [services.table_open(by=make_user(f"host{i}"), game=HOUSE, seat_count=2) for i in range(6)]
    outcomes = at_once(6, lambda i: services.table_join(table_id=tables[i].pk, by=bob))
    refused = [o for o in outcomes if isinstance(o, services.NotAllowed)]
    assert len(refused) == 4, outcomes
    assert Seat.objects.filter(user=bob).count() == 2
