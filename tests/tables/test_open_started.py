"""A table opened with its players seated and its match started (`services.table_open_started`): what
quick pairing, challenges and arenas open (SPEC 15-17). Its match is a match like any other; bad options
and players who may not sit change nothing."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.test import override_settings

from apps.engine.game import get_rules
from apps.tables import rated, services
from apps.tables.models import FairDeal, Game, Match, Seat, Table
from tests.tables.helpers import human_move, make_user, state_of

pytestmark = pytest.mark.django_db


def test_the_players_are_seated_in_order_and_the_match_has_started():
    players = [make_user(name) for name in ("ana", "bogdan", "carmen")]
    table = services.table_open_started(players=players, game="tile-rummy", seat_count=3, turn_seconds=60)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.host_id == players[0].pk
    assert [seat.user_id for seat in Seat.objects.filter(table=table).order_by("index")] == [p.pk for p in players]
    match = Match.objects.get(table=table)
    assert match.rated and table.match_id == match.pk
    assert FairDeal.objects.filter(match=match).exists()  # its fair deal, as any table's
    assert table.current_game_id is not None or table.due_action == Table.Due.DEAL  # dealt, or taking seeds


def test_a_casual_table_is_unrated_and_says_why():
    players = [make_user("ana"), make_user("bogdan")]
    table = services.table_open_started(players=players, game="tile-rummy", seat_count=2, turn_seconds=60, casual=True)
    match = Match.objects.get(table=table)
    assert not match.rated and rated.CASUAL in match.unrated_reasons


def test_bots_fill_the_seats_after_the_players_and_make_it_unrated():
    table = services.table_open_started(
        players=[make_user("ana")], game="tile-rummy", seat_count=3, turn_seconds=30, bots=["easy", "hard"]
    )
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert [seat.bot_level for seat in seats] == ["", "easy", "hard"]
    assert not Match.objects.get(table=table).rated


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seat_count": 3}, "Every seat must be taken"),
        ({"turn_seconds": 45}, "pace must be one of"),
        ({"game": "chess"}, "no game called"),
        ({"match_length": 2}, "1, 3 or 5 games"),
    ],
)
def test_bad_options_are_refused_and_open_nothing(options, message):
    players = [make_user("ana"), make_user("bogdan")]
    arguments = {"players": players, "game": "tile-rummy", "seat_count": 2, "turn_seconds": 60} | options
    with pytest.raises(services.TableError, match=message):
        services.table_open_started(**arguments)
    assert not Table.objects.exists()


def test_one_player_twice_is_refused():
    ana = make_user("ana")
    with pytest.raises(services.TableError, match="one seat"):
        services.table_open_started(players=[ana, ana], game="tile-rummy", seat_count=2, turn_seconds=60)
    assert not Table.objects.exists()


@override_settings(TABLE_SEATS_PER_USER=1)
def test_a_player_at_their_seat_limit_is_refused_and_nobody_is_seated():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    services.table_open_started(players=[ana, bogdan], game="tile-rummy", seat_count=2, turn_seconds=60)
    with pytest.raises(services.NotAllowed, match="already sit at 1 table"):
        services.table_open_started(players=[carmen, bogdan], game="tile-rummy", seat_count=2, turn_seconds=60)
    assert Table.objects.count() == 1 and not Seat.objects.filter(user=carmen).exists()


@pytest.mark.django_db(transaction=True)
@override_settings(TABLE_SEATS_PER_USER=1)
def test_two_tables_opened_at_once_for_one_player_seat_them_once():
    """Two openings that share a player, at the same moment: the seat limit is checked under each
    player's held limits, so only one table takes the player (on PostgreSQL; SQLite runs one writer)."""
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    shared = make_user("shared")
    others = [make_user("ana"), make_user("bogdan")]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def open_with(other):
        try:
            barrier.wait()
            services.table_open_started(players=[other, shared], game="tile-rummy", seat_count=2, turn_seconds=60)
            outcomes.append("opened")
        except services.NotAllowed:
            outcomes.append("refused")
        finally:
            close_old_connections()

    threads = [threading.Thread(target=open_with, args=(other,)) for other in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["opened", "refused"]
    assert Seat.objects.filter(user=shared).count() == 1


# --- berserk: a seat halves its own turn time before the match's first move (SPEC 16) -----------------


@override_settings(TABLE_FAIR_SEED_SECONDS=0)
def test_berserk_halves_the_seats_own_clock_and_only_before_the_first_move():
    from apps.tables import selectors

    ana, bogdan = make_user("ana"), make_user("bogdan")
    table = services.table_open_started(players=[ana, bogdan], game="tile-rummy", seat_count=2, turn_seconds=60)
    table, state = state_of(table.pk)
    game = Game.objects.get(pk=table.current_game_id)
    to_move = services_rules_to_move(table, state)
    mover = (ana, bogdan)[to_move]
    before = game.deadline
    services.seat_berserk(table_id=table.pk, by=mover)
    services.seat_berserk(table_id=table.pk, by=mover)  # a second press changes nothing more
    game.refresh_from_db()
    table.refresh_from_db()
    assert before - game.deadline == timedelta(seconds=30)
    assert table.due_at == game.deadline
    assert table.seating[to_move]["berserk"] and not table.seating[1 - to_move]["berserk"]
    services.game_move(table_id=table.pk, by=mover, move=human_move(table.pk, to_move, random.Random(3)))
    with pytest.raises(services.NotAllowed, match="before the first move"):
        services.seat_berserk(table_id=table.pk, by=(ana, bogdan)[1 - to_move])
    table.refresh_from_db()
    assert not table.seating[1 - to_move]["berserk"]
    assert selectors.own_turns_in_match(table.match_id, (ana, bogdan)[1 - to_move].pk) == 0
    assert selectors.own_turns_in_match(table.match_id, make_user("carmen").pk) == 0


@override_settings(TABLE_FAIR_SEED_SECONDS=0)
def test_a_berserk_seats_own_turns_are_counted_for_the_whole_match_even_when_unrated(monkeypatch):
    """An arena's +1 for a berserk first place needs 7 turns of the player's own (SPEC 16): they are
    counted past the abort window's few, and at a casual table, where nobody else's are."""
    from types import SimpleNamespace

    from apps.tables import fairness, selectors

    monkeypatch.setattr(fairness, "secrets", SimpleNamespace(token_bytes=random.Random(7).randbytes))  # the same deal each run
    ana, bogdan = make_user("ana"), make_user("bogdan")
    table = services.table_open_started(players=[ana, bogdan], game="tile-rummy", seat_count=2, turn_seconds=60, casual=True)
    services.seat_berserk(table_id=table.pk, by=ana)
    rng = random.Random(7)
    for _ in range(200):
        table, state = state_of(table.pk)
        if table.status != Table.Status.PLAYING or Game.objects.get(pk=table.current_game_id).turn >= 16:
            break
        seat = services_rules_to_move(table, state)
        services.game_move(table_id=table.pk, by=(ana, bogdan)[seat], move=human_move(table.pk, seat, rng))
    assert selectors.own_turns_in_match(table.match_id, ana.pk) >= 7
    assert selectors.own_turns_in_match(table.match_id, bogdan.pk) == 0  # not berserk, not rated: not counted


def services_rules_to_move(table, state):
    return get_rules(table.game).to_move(state)


def test_berserk_is_refused_without_a_seat_or_a_timer():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    timed = services.table_open_started(players=[ana, bogdan], game="tile-rummy", seat_count=2, turn_seconds=60)
    with pytest.raises(services.NotAllowed, match="no seat"):
        services.seat_berserk(table_id=timed.pk, by=carmen)
    untimed = services.table_open_started(
        players=[carmen, make_user("dan")], game="tile-rummy", seat_count=2, turn_seconds=0
    )
    with pytest.raises(services.NotAllowed, match="timed match"):
        services.seat_berserk(table_id=untimed.pk, by=carmen)
    assert not Seat.objects.filter(berserk=True).exists()
