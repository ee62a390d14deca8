"""The table services: the one write path for tables, seats, matches and games."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.engine.errors import EngineError, IllegalMove, InvalidMove
from apps.engine.game import get_rules
from apps.tables import services
from apps.tables.models import Game, Match, MatchPlayer, MoveLog, Seat, Table
from tests.tables.helpers import FAR_FUTURE, human_move, make_user, play_match, run_due, state_of, strongest_bot

pytestmark = pytest.mark.django_db

HOUSE = "tile-rummy"


def two_player_table(host, other, **options):
    table = services.table_open(by=host, game=HOUSE, seat_count=2, **options)
    services.table_join(table_id=table.pk, by=other)
    return table


# --- opening and seating -------------------------------------------------------------------------


def test_the_host_sits_in_the_first_seat_and_bots_sit_at_once(alice):
    table = services.table_open(by=alice, game=HOUSE, seat_count=4, bots=["easy", "", "hard"])
    seats = list(table.seats.order_by("index"))
    assert [s.user_id for s in seats] == [alice.pk, None, None, None]
    assert [s.bot_level for s in seats] == ["", "easy", "", "hard"]
    assert table.status == Table.Status.OPEN and table.version == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"game": "chess", "seat_count": 2}, "no game"),
        ({"game": HOUSE, "seat_count": 5}, "2 to 4"),
        ({"game": HOUSE, "seat_count": 2, "match_length": 2}, "1, 3 or 5"),
        ({"game": HOUSE, "seat_count": 2, "turn_seconds": 120}, "pace"),
        ({"game": HOUSE, "seat_count": 2, "bots": ["expert"]}, "easy, hard"),
    ],
)
def test_a_table_with_bad_options_is_refused_and_nothing_is_created(alice, options, message):
    with pytest.raises(services.TableError, match=message):
        services.table_open(by=alice, **options)
    assert Table.objects.count() == 0


def test_joining_takes_the_first_empty_seat_and_raises_the_version(alice, bob):
    table = services.table_open(by=alice, game=HOUSE, seat_count=3)
    seat = services.table_join(table_id=table.pk, by=bob)
    assert seat.index == 1
    assert Table.objects.get(pk=table.pk).version == 2


def test_nobody_can_sit_twice_or_at_a_full_table(alice, bob):
    table = two_player_table(alice, bob)
    with pytest.raises(services.NotAllowed, match="already have a seat"):
        services.table_join(table_id=table.pk, by=bob)
    with pytest.raises(services.NotAllowed, match="full"):
        services.table_join(table_id=table.pk, by=make_user("carol"))


def test_a_private_table_needs_its_invite_token(alice, bob):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2, private=True)
    with pytest.raises(services.TableNotFound, match="There is no table"):  # as if it did not exist (SPEC 11)
        services.table_join(table_id=table.pk, by=bob, invite_token="wrong")
    services.table_join(table_id=table.pk, by=bob, invite_token=table.invite_token)


def test_a_banned_user_cannot_sit(alice, bob):
    bob.banned_until = timezone.now() + timedelta(days=1)
    bob.save()
    table = services.table_open(by=alice, game=HOUSE, seat_count=2)
    with pytest.raises(services.NotAllowed, match="banned"):
        services.table_join(table_id=table.pk, by=bob)
    with pytest.raises(services.NotAllowed, match="banned"):
        services.table_open(by=bob, game=HOUSE, seat_count=2)


def test_standing_up_before_the_start_frees_the_seat_and_the_host_passes_on(alice, bob):
    table = two_player_table(alice, bob)
    services.table_leave(table_id=table.pk, by=alice)
    table.refresh_from_db()
    assert table.host_id == bob.pk
    assert table.seats.get(index=0).is_empty
    services.table_leave(table_id=table.pk, by=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED


def test_the_host_can_kick_before_the_start_but_not_during_the_match(alice, bob):
    table = two_player_table(alice, bob)
    with pytest.raises(services.NotAllowed):
        services.seat_kick(table_id=table.pk, seat_index=0, by=bob)
    services.seat_kick(table_id=table.pk, seat_index=1, by=alice)
    assert table.seats.get(index=1).is_empty
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    with pytest.raises(services.NotAllowed, match="before the match"):
        services.seat_kick(table_id=table.pk, seat_index=1, by=alice)


# --- starting and rating ------------------------------------------------------------------------------


def test_the_match_starts_only_when_every_seat_is_taken_and_only_by_the_host(alice, bob):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2)
    with pytest.raises(services.NotAllowed, match="Every seat"):
        services.table_start(table_id=table.pk, by=alice)
    services.table_join(table_id=table.pk, by=bob)
    with pytest.raises(services.NotAllowed, match="host"):
        services.table_start(table_id=table.pk, by=bob)
    match = services.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.current_game.match_id == match.pk
    assert MatchPlayer.objects.filter(match=match).count() == 2


def test_a_table_of_registered_humans_is_rated(alice, bob):
    table = two_player_table(alice, bob)
    match = services.table_start(table_id=table.pk, by=alice)
    assert match.rated and Table.objects.get(pk=table.pk).rated


def test_a_table_with_a_guest_or_a_bot_is_not_rated(alice):
    guest = make_user("guest-1", guest=True)
    table = two_player_table(alice, guest)
    assert not services.table_start(table_id=table.pk, by=alice).rated
    bot_table = services.table_open(by=alice, game=HOUSE, seat_count=2, bots=["easy"])
    assert not services.table_start(table_id=bot_table.pk, by=alice).rated


def test_a_dealt_game_keeps_the_deal_for_its_record(alice):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2, bots=["easy"])
    services.table_start(table_id=table.pk, by=alice)
    game = Game.objects.get()
    rules = get_rules(HOUSE)
    assert rules.to_dict(rules.from_deal(game.deal)) == game.state


# --- moves ------------------------------------------------------------------------------------------


def started(alice, bob, **options):
    table = two_player_table(alice, bob, **options)
    services.table_start(table_id=table.pk, by=alice)
    return Table.objects.get(pk=table.pk)


def seat_to_move(table):
    table, state = state_of(table.pk)
    index = get_rules(table.game).to_move(state)
    return Seat.objects.select_related("user").get(table=table, index=index)


def test_a_legal_move_raises_the_version_by_one_and_is_logged(alice, bob):
    table = started(alice, bob)
    seat = seat_to_move(table)
    move = human_move(table.pk, seat.index, random.Random(3))
    outcome = services.game_move(table_id=table.pk, by=seat.user, move=move, expected_version=table.version)
    assert outcome.version == table.version + 1
    log = MoveLog.objects.get()
    assert (log.seat, log.move, log.version, log.actor) == (seat.index, move, outcome.version, "player")


def test_a_move_is_a_locking_read_and_one_write_on_postgresql(alice, bob):
    """The move's INSERT and its two UPDATEs go as one statement on PostgreSQL (three elsewhere), after
    one locking read (read again only when it waited for another writer: tests/tables/test_locking.py),
    and each of the three rows reads back as written."""
    table = started(alice, bob)
    seat = seat_to_move(table)
    game_before = Game.objects.get(pk=table.current_game_id)
    move = human_move(table.pk, seat.index, random.Random(3))
    with CaptureQueriesContext(connection) as captured:
        outcome = services.game_move(table_id=table.pk, by=seat.user, move=move, expected_version=table.version)
    # (the test's own transaction makes the service's a savepoint: not the move's statements; a prepared
    # statement's text is not kept by psycopg, so Django logs it as None)
    statements = [query["sql"] for query in captured.captured_queries if "SAVEPOINT" not in (query["sql"] or "")]
    assert len(statements) == (2 if connection.vendor == "postgresql" else 4), statements
    after = Table.objects.select_related("current_game").get(pk=table.pk)
    assert after.version == outcome.version == table.version + 1
    assert after.current_game.move_count == game_before.move_count + 1
    assert after.current_game.state != game_before.state
    log = MoveLog.objects.get(game=after.current_game)
    assert (log.seq, log.move, log.version) == (after.current_game.move_count, move, outcome.version)


def test_a_moves_json_columns_keep_sql_null_apart_from_json_values(alice, bob):
    """The hot write encodes JSON columns itself (apps/live/compact.py): an empty `draft` or `result` is
    still SQL NULL, as the ORM writes it, and the state and log read back equal to what was written."""
    table = started(alice, bob)
    seat = seat_to_move(table)
    services.game_move(table_id=table.pk, by=seat.user, move=human_move(table.pk, seat.index, random.Random(5)),
                       expected_version=table.version)
    game = Game.objects.get(pk=table.current_game_id)
    assert game.result is None and game.draft is None
    assert Game.objects.filter(pk=game.pk, result__isnull=True, draft__isnull=True).exists()
    assert isinstance(game.state, dict) and isinstance(game.log, list)
    fresh = Game.objects.values_list("state", "log").get(pk=game.pk)
    assert fresh == (game.state, game.log)


def test_a_move_out_of_turn_is_refused_and_changes_nothing(alice, bob):
    table = started(alice, bob)
    waiting = Seat.objects.select_related("user").exclude(index=seat_to_move(table).index).get(table=table)
    before = Game.objects.get().state
    with pytest.raises(IllegalMove, match="not your turn"):
        services.game_move(table_id=table.pk, by=waiting.user, move="draw")
    assert Game.objects.get().state == before
    assert Table.objects.get(pk=table.pk).version == table.version
    assert MoveLog.objects.count() == 0


@pytest.mark.parametrize("move", ["fly", "discard r99", {"type": "lay"}, "timeout", "auto"])
def test_a_malformed_or_table_only_move_is_refused_and_changes_nothing(alice, bob, move):
    table = started(alice, bob)
    seat = seat_to_move(table)
    with pytest.raises(EngineError):
        services.game_move(table_id=table.pk, by=seat.user, move=move)
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_stale_version_is_refused(alice, bob):
    table = started(alice, bob)
    seat = seat_to_move(table)
    with pytest.raises(services.StaleVersion):
        services.game_move(table_id=table.pk, by=seat.user, move="draw", expected_version=table.version - 1)


def test_a_spectator_cannot_move(alice, bob):
    table = started(alice, bob)
    with pytest.raises(services.NotAllowed, match="watching"):
        services.game_move(table_id=table.pk, by=make_user("carol"), move="draw")


def test_the_same_client_message_twice_is_applied_once(alice, bob):
    table = started(alice, bob)
    seat = seat_to_move(table)
    move = human_move(table.pk, seat.index, random.Random(3))
    first = services.game_move(table_id=table.pk, by=seat.user, move=move, client_id="m-1")
    again = services.game_move(table_id=table.pk, by=seat.user, move=move, client_id="m-1")
    assert again.duplicate and again.version == first.version
    assert MoveLog.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_move_sent_twice_at_once_is_applied_once(alice, bob):
    """Two tabs of one player send the same move at the same moment: the row lock serialises them,
    and the second one sees the first's version (or the move is no longer legal)."""
    if connection.vendor == "sqlite":
        pytest.skip("needs a database with row locks and concurrent connections (CI runs PostgreSQL)")
    table = started(alice, bob)
    seat = seat_to_move(table)
    move = human_move(table.pk, seat.index, random.Random(3))
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def send() -> None:
        try:
            barrier.wait()
            outcomes.append(
                services.game_move(table_id=table.pk, by=seat.user, move=move, expected_version=table.version)
            )
        except (services.TableError, EngineError) as error:
            outcomes.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    applied = [o for o in outcomes if isinstance(o, services.MoveOutcome)]
    assert len(applied) == 1, outcomes
    assert isinstance(next(o for o in outcomes if not isinstance(o, services.MoveOutcome)), services.StaleVersion)
    assert Table.objects.get(pk=table.pk).version == table.version + 1
    assert MoveLog.objects.count() == 1


# --- the table's own actions ---------------------------------------------------------------------------


def test_a_turn_times_out_only_once_its_deadline_has_passed(alice, bob):
    table = started(alice, bob, turn_seconds=30)
    assert table.due_action == Table.Due.TIMEOUT
    seat = seat_to_move(table)
    assert not services.table_due(table_id=table.pk, now=timezone.now())
    assert services.table_due(table_id=table.pk, now=timezone.now() + timedelta(seconds=31))
    log = MoveLog.objects.get()
    assert (log.actor, log.move, log.seat) == ("timeout", "timeout", seat.index)
    table, state = state_of(table.pk)
    assert get_rules(HOUSE).is_away(state, seat.index)


def test_a_timeout_never_runs_before_its_deadline(alice, bob):
    """A task's ETA may fire a little early (due.EARLY): the turn is still the player's until its deadline."""
    table = started(alice, bob, turn_seconds=30)
    deadline = Table.objects.get(pk=table.pk).due_at
    assert not services.table_due(table_id=table.pk, now=deadline - timedelta(milliseconds=20))  # a given clock
    assert not MoveLog.objects.exists()
    Table.objects.filter(pk=table.pk).update(due_at=timezone.now() + timedelta(milliseconds=30))
    deadline = Table.objects.get(pk=table.pk).due_at
    assert services.table_due(table_id=table.pk, action=Table.Due.TIMEOUT)  # the task's own clock: it waits
    assert MoveLog.objects.get().at >= deadline


def test_a_seat_on_autopilot_is_played_quickly_until_i_am_back(alice, bob):
    table = started(alice, bob, turn_seconds=30)
    away = seat_to_move(table)
    run_due(table.pk)  # timeout: away is on autopilot now
    other = seat_to_move(table)
    services.game_move(table_id=table.pk, by=other.user, move=human_move(table.pk, other.index, random.Random(1)))
    while seat_to_move(table).index == other.index:
        services.game_move(table_id=table.pk, by=other.user, move=human_move(table.pk, other.index, random.Random(1)))
    table.refresh_from_db()
    assert table.due_action == Table.Due.AUTOPILOT
    assert run_due(table.pk)
    assert MoveLog.objects.filter(actor="autopilot", seat=away.index).exists()
    services.game_back(table_id=table.pk, by=away.user)
    table, state = state_of(table.pk)
    assert not get_rules(HOUSE).is_away(state, away.index)


def test_a_move_and_its_timeout_racing_at_the_deadline_leave_one_consistent_state(alice, bob):
    table = started(alice, bob, turn_seconds=30)
    seat = seat_to_move(table)
    move = human_move(table.pk, seat.index, random.Random(5))
    assert services.table_due(table_id=table.pk, now=timezone.now() + timedelta(seconds=31))
    # The player's move arrives just after the timeout was applied: it was made against the old version.
    with pytest.raises((services.StaleVersion, EngineError)):
        services.game_move(table_id=table.pk, by=seat.user, move=move, expected_version=table.version)
    assert MoveLog.objects.count() == 1
    # And the other way round: a move in time makes the queued timeout of that turn do nothing.
    table.refresh_from_db()
    next_seat = seat_to_move(table)
    deadline = table.due_at
    while seat_to_move(table).index == next_seat.index:
        services.game_move(
            table_id=table.pk, by=next_seat.user, move=human_move(table.pk, next_seat.index, random.Random(5))
        )
    assert not services.table_due(table_id=table.pk, action=Table.Due.TIMEOUT, now=deadline)


def test_a_lost_timer_is_caught_by_the_sweep_exactly_once(alice, bob):
    """No worker ran the timeout task (it died): the periodic sweep times the turn out, once."""
    started(alice, bob, turn_seconds=30)
    later = timezone.now() + timedelta(seconds=35)
    assert services.tables_sweep_due(now=later) == 1
    assert services.tables_sweep_due(now=later) == 0
    assert MoveLog.objects.filter(actor="timeout").count() == 1


def test_bots_move_through_the_table_due_actions(alice):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2, bots=[strongest_bot(HOUSE)])
    services.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    for _ in range(200):
        if table.due_action != Table.Due.BOT:
            seat = seat_to_move(table)
            assert seat.user_id == alice.pk
            services.game_move(table_id=table.pk, by=alice, move=human_move(table.pk, seat.index, random.Random(2)))
        else:
            assert run_due(table.pk)
        table.refresh_from_db()
        if MoveLog.objects.filter(actor="bot").count() >= 3:
            break
    assert MoveLog.objects.filter(actor="bot").count() >= 3


# --- leaving and the end of a match --------------------------------------------------------------------


def test_with_two_players_the_one_who_stays_wins_the_match(alice, bob):
    # An unrated table (no timer), where leaving at once is losing; at a rated one it aborts the match
    # (SPEC 11: tests/tables/test_rated.py).
    table = started(alice, bob, turn_seconds=0)
    services.table_leave(table_id=table.pk, by=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    places = dict(MatchPlayer.objects.values_list("user__username", "place"))
    assert places == {"alice": 1, "bob": 2}
    assert MatchPlayer.objects.get(user=bob).left


def test_a_whole_three_game_match_against_a_bot_plays_to_the_end(alice):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2, match_length=3, bots=[strongest_bot(HOUSE)])
    services.table_start(table_id=table.pk, by=alice)
    table = play_match(table.pk, seed=7)
    assert table.status == Table.Status.FINISHED
    match = Match.objects.get()
    assert match.finished_at is not None
    games = list(Game.objects.order_by("number"))
    assert [g.number for g in games] == [1, 2, 3] and all(g.result for g in games)
    totals = [sum(g.result["scores"][seat] for g in games) for seat in (0, 1)]
    assert sorted(MatchPlayer.objects.values_list("points", flat=True)) == sorted(totals)
    assert sorted(MatchPlayer.objects.values_list("place", flat=True)) in ([1, 2], [1, 1])


def test_a_finished_game_replays_from_its_record_to_the_same_scores(alice):
    from apps.engine.records import GameRecord, replay
    from apps.tables.records import game_record

    table = services.table_open(by=alice, game=HOUSE, seat_count=2, bots=["easy"])
    services.table_start(table_id=table.pk, by=alice)
    play_match(table.pk, seed=11)
    game = Game.objects.get()
    record = game_record(game)
    replayed = replay(GameRecord.from_dict(record))
    assert replayed.result is not None and list(replayed.result.scores) == game.result["scores"]


def test_a_rematch_keeps_those_who_said_yes(alice, bob):
    table = started(alice, bob)
    services.table_leave(table_id=table.pk, by=bob)  # match over at once
    services.table_rematch(table_id=table.pk, by=alice)
    table = services.table_new_match(table_id=table.pk, by=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert [s.user_id for s in table.seats.order_by("index")] == [alice.pk, None]
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    assert Match.objects.filter(table=table).count() == 2


def test_when_every_player_asks_for_a_rematch_it_starts_whoever_the_host_is(alice, bob):
    table = started(alice, bob, match_length=1, turn_seconds=30)
    first = Match.objects.get(table=table)
    assert play_match(table.pk).status == Table.Status.FINISHED
    services.table_rematch(table_id=table.pk, by=bob)  # not the host: he waits for alice
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert [seat["rematch"] for seat in table.seating] == [False, True]
    services.table_rematch(table_id=table.pk, by=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    second = Match.objects.get(table=table, number=2)
    assert table.match_id == second.pk and (table.turn_seconds, table.match_length) == (30, 1)
    assert [p.user_id for p in second.players.order_by("seat")] == [alice.pk, bob.pk]
    assert second.fair_deal.commitment != first.fair_deal.commitment
    assert [seat["rematch"] for seat in table.seating] == [False, False]
    with pytest.raises(services.NotAllowed):
        services.table_rematch(table_id=table.pk, by=alice)  # this match is not over


def test_asking_for_a_rematch_twice_changes_nothing_the_second_time(alice, bob):
    table = started(alice, bob)
    assert play_match(table.pk).status == Table.Status.FINISHED
    services.table_rematch(table_id=table.pk, by=alice)
    version = Table.objects.get(pk=table.pk).version
    services.table_rematch(table_id=table.pk, by=alice)
    assert Table.objects.get(pk=table.pk).version == version


def test_a_rated_match_that_the_table_played_out_alone_is_aborted_when_its_first_game_ends(alice, bob):
    """SPEC 11: both players closed their pages after the deal; timeouts and autopilot played the game
    to its end. However it ends, a rated match in which a person never made 3 turns of their own in the
    first game is aborted: no places, no rating."""
    table = started(alice, bob, turn_seconds=30, match_length=3)
    assert Match.objects.get(table=table).rated
    for _ in range(5000):
        if Table.objects.get(pk=table.pk).status != Table.Status.PLAYING:
            break
        assert run_due(table.pk)
    table.refresh_from_db()
    match = Match.objects.get(table=table)
    assert table.status == Table.Status.FINISHED and not table.rated
    assert (match.aborted, match.rated) == ("absent", False)
    assert match.aborted_seat in (0, 1) and match.finished_at is not None
    assert Game.objects.filter(match=match).count() == 1  # it ended with its first game
    assert not MatchPlayer.objects.filter(match=match, place__isnull=False).exists()


def test_a_rated_match_whose_players_made_their_own_turns_is_not_aborted_at_its_end(alice, bob):
    table = started(alice, bob, turn_seconds=30)
    assert play_match(table.pk).status == Table.Status.FINISHED
    match = Match.objects.get(table=table)
    assert (match.aborted, match.rated) == ("", True)


def play_until_the_scores(table_id: int, rng: random.Random) -> Table:
    """Play the current game to its end through the services; the table then waits for the next deal."""
    for _ in range(5000):
        table, state = state_of(table_id)
        if table.due_action == Table.Due.NEXT_GAME:
            return table
        seat_index = get_rules(table.game).to_move(state)
        seat = Seat.objects.select_related("user").get(table=table, index=seat_index)
        services.game_move(table_id=table_id, by=seat.user, move=human_move(table_id, seat_index, rng))
    raise AssertionError("the game did not end")


def test_the_next_game_is_dealt_as_soon_as_every_player_is_ready(alice, bob):
    table = started(alice, bob, match_length=3)
    table = play_until_the_scores(table.pk, random.Random(8))
    with pytest.raises(services.NotAllowed):
        services.game_ready(table_id=table.pk, by=make_user("carol"))  # a spectator has nothing to be ready for
    services.game_ready(table_id=table.pk, by=alice)
    waiting = Table.objects.select_related("current_game").get(pk=table.pk)
    assert waiting.due_action == Table.Due.NEXT_GAME and waiting.version == table.version + 1
    assert waiting.current_game.ready == [0]
    services.game_ready(table_id=table.pk, by=alice)  # again: nothing changes
    assert Table.objects.get(pk=table.pk).version == waiting.version
    services.game_ready(table_id=table.pk, by=bob)
    dealt = Table.objects.select_related("current_game").get(pk=table.pk)
    assert dealt.current_game.number == 2 and dealt.due_action != Table.Due.NEXT_GAME
    with pytest.raises(services.NotAllowed):
        services.game_ready(table_id=table.pk, by=bob)  # mid-game: nothing to wait for
    assert Table.objects.get(pk=table.pk).version == dealt.version


def test_against_a_bot_the_next_game_comes_when_the_one_person_is_ready(alice):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2, match_length=3, bots=["easy"])
    services.table_start(table_id=table.pk, by=alice)
    for _ in range(5000):
        table = Table.objects.get(pk=table.pk)
        if table.due_action == Table.Due.NEXT_GAME:
            break
        if table.due_action == Table.Due.BOT:
            run_due(table.pk)
            continue
        table, state = state_of(table.pk)
        services.game_move(table_id=table.pk, by=alice, move=human_move(table.pk, 0, random.Random(2)))
    services.game_ready(table_id=table.pk, by=alice)
    assert Table.objects.select_related("current_game").get(pk=table.pk).current_game.number == 2


def test_a_player_alone_with_bots_sets_the_pace_and_the_running_turn_gets_the_new_clock(alice):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2, bots=["easy"], turn_seconds=0)
    services.table_start(table_id=table.pk, by=alice)
    while Table.objects.get(pk=table.pk).due_action == Table.Due.BOT:
        run_due(table.pk)
    table = Table.objects.get(pk=table.pk)
    assert table.due_action == Table.Due.TIMEOUT  # alice's turn, no clock: only the slow table's day
    assert table.due_at > timezone.now() + timedelta(hours=23)
    services.table_pace(table_id=table.pk, by=alice, turn_seconds=30)
    paced = Table.objects.select_related("current_game").get(pk=table.pk)
    assert paced.turn_seconds == 30 and paced.version == table.version + 1
    assert "no_timer" in table.unrated_reasons and "no_timer" not in paced.unrated_reasons
    assert paced.due_action == Table.Due.TIMEOUT and paced.due_at == paced.current_game.deadline
    assert timezone.now() < paced.due_at <= timezone.now() + timedelta(seconds=30)
    with pytest.raises(services.TableError):
        services.table_pace(table_id=table.pk, by=alice, turn_seconds=45)  # not one of the game's paces
    services.table_pace(table_id=table.pk, by=alice, turn_seconds=0)
    assert Table.objects.get(pk=table.pk).due_at > timezone.now() + timedelta(hours=23)


def test_at_a_slow_table_a_player_away_a_day_goes_on_autopilot_and_the_others_play_on(alice, bob):
    """SPEC 17: a table without a timer waits a day for a turn, then the autopilot plays it (as a timeout
    does at a timed table) and the seat is away until its player is back."""
    table, state = state_of(started(alice, bob, turn_seconds=0).pk)
    rules = get_rules(table.game)
    seat = rules.to_move(state)
    assert table.due_action == Table.Due.TIMEOUT
    assert timedelta(hours=23, minutes=59) < table.due_at - timezone.now() <= timedelta(hours=24)
    assert not services.table_due(table_id=table.pk, now=timezone.now() + timedelta(hours=23))  # not yet
    assert services.table_due(table_id=table.pk, now=table.due_at)
    table, state = state_of(table.pk)
    assert rules.is_away(state, seat)


def test_nobody_changes_the_pace_of_a_table_with_another_person(alice, bob):
    table = two_player_table(alice, bob, turn_seconds=60)
    for who in (alice, bob, make_user("carol")):
        with pytest.raises(services.NotAllowed):
            services.table_pace(table_id=table.pk, by=who, turn_seconds=0)
    assert Table.objects.get(pk=table.pk).turn_seconds == 60


def test_a_moderator_can_close_a_table_mid_match_and_it_is_not_rated(alice, bob):
    table = started(alice, bob)
    moderator = make_user("mod", staff=True)
    with pytest.raises(services.NotAllowed):
        services.table_close(table_id=table.pk, by=bob)
    services.table_close(table_id=table.pk, by=moderator, reason="test")
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.due_action == ""
    assert not Match.objects.get().rated


def test_deadlines_are_extended_after_downtime(alice, bob):
    table = started(alice, bob, turn_seconds=30)
    before = table.due_at
    assert services.games_extend_deadlines(by=timedelta(seconds=20)) == 1
    table.refresh_from_db()
    assert table.due_at >= before + timedelta(seconds=20)
    assert Game.objects.get().deadline == table.due_at


def test_nothing_runs_for_a_table_without_anything_due(alice):
    table = services.table_open(by=alice, game=HOUSE, seat_count=2)
    assert not services.table_due(table_id=table.pk, now=timezone.now() + FAR_FUTURE)
    with pytest.raises(services.TableNotFound):
        services.table_due(table_id=table.pk + 1000)


def test_errors_of_the_engine_reach_the_caller_with_a_readable_message(alice, bob):
    table = started(alice, bob)
    seat = seat_to_move(table)
    with pytest.raises(InvalidMove, match="not a move"):
        services.game_move(table_id=table.pk, by=seat.user, move="fly away")


def test_a_rearrange_match_starts_with_the_draw_for_the_start(alice, bob):
    table = services.table_open(by=alice, game="tile-rummy-rearrange", seat_count=2)
    services.table_join(table_id=table.pk, by=bob)
    match = services.table_start(table_id=table.pk, by=alice)
    rules = get_rules("tile-rummy-rearrange")
    state = rules.from_dict(Game.objects.get().state)
    assert rules.view_for(state, None)["ceremony"]
    assert match.state["first_starter"] == rules.to_move(state)
