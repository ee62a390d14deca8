"""What becomes a notification: the tables' TurnPassed (sent by no-timer tables only) and TableOpened, and
the social app's challenge events, each delivered after the commit of the change."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone, translation

from apps.engine.game import get_rules
from apps.lib.events import deliver, subscribe, unsubscribe
from apps.notifications import push
from apps.notifications import services as notes
from apps.notifications.consumers import item_of
from apps.notifications.models import Kind, Notification, PushSettings
from apps.social.events import ChallengeAnswered, ChallengeGone, ChallengeReceived
from apps.social.models import Follow
from apps.tables import services
from apps.tables.events import SlowSeatAway, TableOpened, TurnPassed
from apps.tables.models import Table
from apps.tournaments.events import TournamentStartsSoon
from tests.notifications.push_service import PushService
from tests.notifications.test_push import KEYS, subscribed
from tests.tables.helpers import human_move, state_of

pytestmark = pytest.mark.django_db

HOUSE = "tile-rummy"


def started(host, other, turn_seconds):
    table = services.table_open(by=host, game=HOUSE, seat_count=2, turn_seconds=turn_seconds)
    services.table_join(table_id=table.pk, by=other)
    services.table_start(table_id=table.pk, by=host)
    return Table.objects.get(pk=table.pk)


def to_move(table_id):
    table, state = state_of(table_id)
    return table, get_rules(table.game).to_move(state)


def play_one_turn(table_id, players):
    """The player to move makes moves until the turn passes; returns who has it now."""
    table, seat = to_move(table_id)
    rng = random.Random(7)
    while True:
        user = players[table.seating[seat]["user_id"]]
        services.game_move(table_id=table_id, by=user, move=human_move(table_id, seat, rng))
        table, now = to_move(table_id)
        if now != seat:
            return table.seating[now]["user_id"]


def test_a_no_timer_table_tells_the_player_whose_turn_it_is(alice, bob, told, django_capture_on_commit_callbacks):
    heard = []
    subscribe(TurnPassed, heard.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            table = started(alice, bob, turn_seconds=0)
        first = table.seating[to_move(table.pk)[1]]["user_id"]
        assert heard == [TurnPassed(table.pk, to_move(table.pk)[1], first)]  # the first deal says who starts
        with django_capture_on_commit_callbacks(execute=True):
            next_player = play_one_turn(table.pk, {alice.pk: alice, bob.pk: bob})
    finally:
        unsubscribe(TurnPassed, heard.append)
    assert heard[-1].user_id == next_player != first
    note = Notification.objects.filter(user_id=next_player, kind=Kind.YOUR_TURN).get()
    assert note.table_id == table.pk and note.read_at is None
    assert told.to(next_player)[-1]["item"]["kind"] == "your_turn"


def test_a_timed_table_says_nothing_of_turns(alice, bob, told, django_capture_on_commit_callbacks):
    heard = []
    subscribe(TurnPassed, heard.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            table = started(alice, bob, turn_seconds=60)
            play_one_turn(table.pk, {alice.pk: alice, bob.pk: bob})
    finally:
        unsubscribe(TurnPassed, heard.append)
    assert heard == []
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN).exists()


def test_friends_hear_of_a_table_anyone_may_join_and_others_do_not(alice, bob, carol, told,
                                                                   django_capture_on_commit_callbacks):
    Follow.objects.create(follower=alice, followed=bob)
    Follow.objects.create(follower=bob, followed=alice)  # friends
    Follow.objects.create(follower=carol, followed=alice)  # only a follower
    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_open(by=alice, game=HOUSE, seat_count=2)
        services.table_open(by=alice, game=HOUSE, seat_count=2, private=True)
    [note] = Notification.objects.all()
    assert (note.user_id, note.kind, note.actor_id, note.table_id) == (bob.pk, Kind.FRIEND_OPENED, alice.pk, table.pk)
    assert told.to(bob.pk)[0]["item"]["actor"] == "alice"


def test_the_table_opened_event_is_sent_once_with_the_host(alice, django_capture_on_commit_callbacks):
    heard = []
    subscribe(TableOpened, heard.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            table = services.table_open(by=alice, game=HOUSE, seat_count=2)
    finally:
        unsubscribe(TableOpened, heard.append)
    assert heard == [TableOpened(table.pk, alice.pk, False)]


def test_challenges_received_accepted_and_declined_become_notifications(alice, bob, carol, told):
    deliver([ChallengeReceived(challenge_id=3, challenger_id=alice.pk, user_id=bob.pk),
             ChallengeAnswered(challenge_id=3, challenger_id=alice.pk, user_id=bob.pk, accepted=True),
             ChallengeAnswered(challenge_id=3, challenger_id=alice.pk, user_id=carol.pk, accepted=False,
                               reason="too_fast")])
    rows = list(Notification.objects.order_by("id").values_list("user_id", "kind", "actor_id", "challenge_id", "reason"))
    assert rows == [
        (bob.pk, Kind.CHALLENGE_RECEIVED, alice.pk, 3, ""),
        (alice.pk, Kind.CHALLENGE_ACCEPTED, bob.pk, 3, ""),
        (alice.pk, Kind.CHALLENGE_DECLINED, carol.pk, 3, "too_fast"),
    ]


def test_the_entrants_of_a_tournament_starting_in_5_minutes_are_told_once_each(alice, bob, told,
                                                                              django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        deliver([TournamentStartsSoon(tournament_id=4, user_ids=(bob.pk, alice.pk, bob.pk), starts_at="2026-12-07T16:00:00+00:00",
                                      name="Hourly Tile Rummy arena")])
    rows = sorted(Notification.objects.values_list("user_id", "kind", "tournament_id", "subject"))
    assert rows == [(alice.pk, Kind.TOURNAMENT_SOON, 4, "Hourly Tile Rummy arena"),
                    (bob.pk, Kind.TOURNAMENT_SOON, 4, "Hourly Tile Rummy arena")]
    [frame] = told.to(alice.pk)
    assert item_of(frame["item"]).text() == "Hourly Tile Rummy arena, which you joined, starts in 5 minutes."
    with translation.override("ro"):  # a calendar arena's name in the reader's language, as on its page
        assert item_of(frame["item"]).text() == "Arena de Remi pe tablă din fiecare oră, la care te-ai înscris, începe în 5 minute."


def test_a_challenge_gone_leaves_its_challenge_to_you_read_and_nothing_else(alice, bob, carol, told):
    deliver([ChallengeReceived(challenge_id=3, challenger_id=alice.pk, user_id=bob.pk),
             ChallengeReceived(challenge_id=3, challenger_id=alice.pk, user_id=carol.pk),
             ChallengeReceived(challenge_id=4, challenger_id=alice.pk, user_id=bob.pk)])
    deliver([ChallengeGone(challenge_id=3, challenger_id=alice.pk, user_ids=(bob.pk, carol.pk), reason="cancelled")])
    unread = sorted(Notification.objects.filter(read_at__isnull=True).values_list("user_id", "challenge_id"))
    assert unread == [(bob.pk, 4)]


def test_a_cancelled_or_expired_challenge_reaches_the_pages_of_all_its_players(alice, bob, carol, told,
                                                                             monkeypatch,
                                                                             django_capture_on_commit_callbacks):
    """Besides the notifications, each change of a challenge goes live to everyone in it (their bell's
    socket, which a challenge's page listens to): here a cancel, and an expiry two weeks on (simulated)."""
    from apps.notifications import subscribers
    from apps.social import services as social

    monkeypatch.setattr(subscribers, "bus", lambda: told)

    def changes(user_id):
        return [(frame["challenge"], frame["change"], frame["status"]) for frame in told.to(user_id)
                if frame["type"] == "challenge"]

    with django_capture_on_commit_callbacks(execute=True):
        cancelled = social.challenge_make(by=alice, user_ids=[bob.pk, carol.pk], game=HOUSE, seat_count=3,
                                          turn_seconds=60)
    assert changes(bob.pk) == changes(carol.pk) == [(cancelled.pk, "received", "pending")] and changes(alice.pk) == []
    with django_capture_on_commit_callbacks(execute=True):
        social.challenge_cancel(by=alice, challenge_id=cancelled.pk)
    for user in (alice, bob, carol):
        assert changes(user.pk)[-1] == (cancelled.pk, "cancelled", "cancelled")
    with django_capture_on_commit_callbacks(execute=True):
        expiring = social.challenge_make(by=alice, user_ids=[bob.pk], game=HOUSE, seat_count=2, turn_seconds=60)
    with django_capture_on_commit_callbacks(execute=True):
        assert social.challenges_expire(now=timezone.now() + timedelta(days=15)) == 1
    for user in (alice, bob):
        assert changes(user.pk)[-1] == (expiring.pk, "expired", "expired")
    assert changes(carol.pk)[-1][0] == cancelled.pk  # not hers


def test_a_player_away_a_day_at_a_slow_table_is_told_to_each_other_person_live_and_by_push(
    alice, bob, carol, told, monkeypatch, django_capture_on_commit_callbacks
):
    """SPEC 17: after TABLE_SLOW_AWAY_SECONDS (a day) without their move the autopilot plays the seat, and
    the other people at the table hear it: a notification on their bell and a push to their browsers, in
    their language and as their choice of kinds says. The day goes by on the table's clock (`now`)."""
    queued = []
    monkeypatch.setattr(notes, "queue_task", lambda name, *args, eta=None: queued.append((name, args, eta)))
    table = services.table_open(by=alice, game=HOUSE, seat_count=3, turn_seconds=0)
    for other in (bob, carol):
        services.table_join(table_id=table.pk, by=other)
    services.table_start(table_id=table.pk, by=alice)
    table, seat = to_move(table.pk)
    players = {user.pk: user for user in (alice, bob, carol)}
    away = players[table.seating[seat]["user_id"]]
    others = [info["user_id"] for info in table.seating if info["index"] != seat]
    with PushService() as service, override_settings(**KEYS):
        phone = subscribed(players[others[0]], service, "phone", language="ro")
        subscribed(players[others[1]], service, "laptop")
        PushSettings.objects.filter(user_id=others[1]).update(kinds=[Kind.YOUR_TURN])  # turned this kind off
        heard = []
        subscribe(SlowSeatAway, heard.append)
        try:
            with django_capture_on_commit_callbacks(execute=True):
                assert not services.table_due(table_id=table.pk, now=timezone.now() + timedelta(hours=23))
            assert heard == [] and not Notification.objects.filter(kind=Kind.SEAT_AWAY).exists()
            with django_capture_on_commit_callbacks(execute=True):
                assert services.table_due(table_id=table.pk, now=table.due_at)
        finally:
            unsubscribe(SlowSeatAway, heard.append)
        assert heard == [SlowSeatAway(table.pk, seat, away.pk, tuple(others))]
        told_away = Notification.objects.filter(kind=Kind.SEAT_AWAY).order_by("user_id")
        assert sorted(note.user_id for note in told_away) == sorted(others)  # not the one who was away
        assert all(note.actor_id == away.pk and note.table_id == table.pk for note in told_away)
        for user_id in others:
            [frame] = [frame for frame in told.to(user_id) if frame.get("item", {}).get("kind") == "seat_away"]
            assert frame["item"]["actor"] == away.username and frame["item"]["table"] == table.pk
            assert item_of(frame["item"]).text() == (
                f"{away.username} was away for a day at table {table.pk}: the autopilot plays their seat."
            )
        pushes = {args[0]: eta for name, args, eta in queued if name == notes.PUSH_TASK}
        for note in told_away:  # each one's push queued about 2 s after it (the next turn's is queued too)
            assert pushes[note.pk] == note.created_at + timedelta(seconds=2)
        first, second = (told_away.get(user_id=user_id) for user_id in others)
        assert push.push_notification(first.pk, first.created_at.isoformat()) == push.Outcome(sent=1)
        assert push.push_notification(second.pk, second.created_at.isoformat()).skipped == "kind"
        [received] = service.received
        assert received.headers["topic"] == f"away-{table.pk}"  # the next "your turn" there does not replace it
        assert push.topic(Notification(kind=Kind.YOUR_TURN, table_id=table.pk)) == f"table-{table.pk}"
        assert phone.decrypt(received.body)["body"] == (
            f"{away.username} a lipsit o zi de la masa {table.pk}: pilotul automat joacă în locul său."
        )


def test_a_timeout_at_a_timed_table_tells_nobody_else(alice, bob, told, django_capture_on_commit_callbacks):
    table = started(alice, bob, turn_seconds=60)
    heard = []
    subscribe(SlowSeatAway, heard.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert services.table_due(table_id=table.pk, now=table.due_at)
    finally:
        unsubscribe(SlowSeatAway, heard.append)
    assert heard == [] and not Notification.objects.filter(kind=Kind.SEAT_AWAY).exists()
