"""A table's consequences as typed events (issue 42, section 2; CONVENTIONS 26): the dispatcher
(apps/lib/events.py), the table's events (apps/tables/events.py) as the services emit them, and the two
listeners wired in their own apps (the leaderboards rate a finished rated match, the review reviews a
finished game). The tables app names no other app by string."""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery import current_app
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from apps.leaderboards import subscribers as leaderboards_subscribers
from apps.leaderboards import tasks as rating_tasks
from apps.leaderboards.models import AppliedMatch, Rating
from apps.lib import events as dispatcher
from apps.lib.events import Event, emit, subscribe, subscribers, unsubscribe
from apps.review import subscribers as review_subscribers
from apps.review.services import games_waiting_for_reviews
from apps.tables import effects, rated, services
from apps.tables.events import GameFinished, InvitationChanged, MatchFinished, Placing, SeatChanged, TableClosed
from apps.tables.models import Game, Match, MatchPlayer, Table
from tests.bots.helpers import make_bot
from tests.review.helpers import unrated_table
from tests.tables.helpers import make_user, play_match

ROOT = Path(__file__).resolve().parents[2]
TABLE_EVENTS = (MatchFinished, GameFinished, SeatChanged, InvitationChanged, TableClosed)


# --- The tables app names no other app --------------------------------------------------------------------


def other_apps() -> list[str]:
    return sorted(path.name for path in (ROOT / "apps").iterdir() if (path / "__init__.py").exists() and path.name != "tables")


def names_of_other_apps(source: str, apps: list[str]) -> list[str]:
    """The string literals of `source` that name another app's task, module or URL: "review.review_game",
    "apps.leaderboards.tasks", "review:replay"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            for app in apps:
                if text.startswith((f"{app}.", f"{app}:", f"apps.{app}")):
                    found.append(text)
    return found


def test_the_scan_finds_a_task_queued_by_another_apps_name() -> None:
    source = 'enqueue("leaderboards.rate_match", 1)\nreverse("review:replay")\nx = f"apps.chat.services{y}"\n'
    assert names_of_other_apps(source, other_apps()) == ["leaderboards.rate_match", "review:replay", "apps.chat.services"]
    assert names_of_other_apps('enqueue("tables.bot_turn", 1)\nkey = "review_game"\ninfo["players"]\n', other_apps()) == []


def test_the_tables_app_names_no_other_apps_task_or_module_by_string() -> None:
    apps = other_apps()
    assert {"leaderboards", "review", "chat", "bots", "accounts"} <= set(apps)
    named = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "apps" / "tables").rglob("*.py"))
        if "migrations" not in path.parts and (found := names_of_other_apps(path.read_text(), apps))
    }
    assert named == {}


# --- The dispatcher -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rang(Event):
    """An event of these tests alone."""

    number: int


@dataclass(frozen=True, slots=True)
class Knocked(Event):
    number: int


@pytest.fixture
def listen() -> Iterator[Any]:
    """Subscribe handlers for one test, and take them away after it."""
    added: list[tuple[type[Event], Any]] = []

    def add(event_type: type[Event], handler: Any) -> None:
        subscribe(event_type, handler)
        added.append((event_type, handler))

    yield add
    for event_type, handler in added:
        unsubscribe(event_type, handler)


@pytest.mark.django_db(transaction=True)
def test_an_event_is_delivered_only_once_its_transaction_commits(listen: Any) -> None:
    heard: list[Event] = []
    listen(Rang, heard.append)
    with transaction.atomic():
        emit(Rang(1))
        assert heard == []
    assert heard == [Rang(1)]
    emit(Rang(2))  # outside a transaction: at once
    assert heard == [Rang(1), Rang(2)]


@pytest.mark.django_db(transaction=True)
def test_an_event_of_a_rolled_back_transaction_or_savepoint_is_never_delivered(listen: Any) -> None:
    heard: list[Event] = []
    listen(Rang, heard.append)
    with pytest.raises(RuntimeError), transaction.atomic():
        emit(Rang(1))
        raise RuntimeError("rolled back")
    with transaction.atomic():
        emit(Rang(2))
        with pytest.raises(RuntimeError), transaction.atomic():
            emit(Rang(3))
            raise RuntimeError("the savepoint rolled back")
    assert heard == [Rang(2)]


@pytest.mark.django_db(transaction=True)
def test_each_event_goes_to_its_own_types_subscribers_in_the_order_they_subscribed(listen: Any) -> None:
    heard: list[tuple[str, Event]] = []
    listen(Rang, lambda event: heard.append(("first", event)))
    listen(Knocked, lambda event: heard.append(("knock", event)))
    listen(Rang, lambda event: heard.append(("second", event)))
    with transaction.atomic():
        emit(Rang(1), Knocked(2))
    assert heard == [("first", Rang(1)), ("second", Rang(1)), ("knock", Knocked(2))]


def test_a_handler_subscribed_twice_hears_an_event_once(listen: Any) -> None:
    heard: list[Event] = []
    listen(Rang, heard.append)
    listen(Rang, heard.append)
    dispatcher.deliver([Rang(1)])
    assert heard == [Rang(1)]


@pytest.mark.django_db(transaction=True)
def test_a_failing_subscriber_is_logged_and_neither_the_caller_nor_the_others_notice(
    listen: Any, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[Event] = []

    def broken(event: Rang) -> None:
        raise ValueError("this listener is broken")

    listen(Rang, broken)
    listen(Rang, heard.append)
    with caplog.at_level(logging.ERROR, logger="apps.lib.events"), transaction.atomic():
        emit(Rang(1), Rang(2))
    assert heard == [Rang(1), Rang(2)]
    failures = [record for record in caplog.records if record.name == "apps.lib.events"]
    assert len(failures) == 2 and "broken" in failures[0].getMessage() and "Rang(number=1)" in failures[0].getMessage()
    assert failures[0].exc_info is not None and failures[0].exc_info[0] is ValueError


# --- The table's events, as the services emit them ---------------------------------------------------------


@pytest.fixture
def heard(listen: Any) -> list[Event]:
    """Every table event delivered during the test, in order."""
    got: list[Event] = []
    for event_type in TABLE_EVENTS:
        listen(event_type, got.append)
    return got


@pytest.mark.django_db
def test_sitting_down_and_standing_up_are_seat_changes(heard: list[Event], django_capture_on_commit_callbacks: Any) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_open(by=ana, game="tile-rummy", seat_count=3)
        services.table_join(table_id=table.pk, by=ben)
        services.table_leave(table_id=table.pk, by=ben)
        services.seat_kick(table_id=table.pk, seat_index=0, by=make_user("moderator", staff=True))
    assert heard == [
        SeatChanged(table.pk, 0, ana.pk, seated=True),
        SeatChanged(table.pk, 1, ben.pk, seated=True),
        SeatChanged(table.pk, 1, ben.pk, seated=False),
        SeatChanged(table.pk, 0, ana.pk, seated=False),
        TableClosed(table.pk, "empty"),  # the last person stood up
    ]


@pytest.mark.django_db
def test_a_bot_accounts_invitation_changes_and_a_closed_table_are_told(
    heard: list[Event], django_capture_on_commit_callbacks: Any
) -> None:
    host = make_user("host")
    bot, _secret = make_bot("robo")
    other, _secret = make_bot("otto")
    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_open(by=host, game="tile-rummy", seat_count=3, invite={1: bot, 2: other})
        services.invitation_decline(table_id=table.pk, by=other)
        services.table_close(table_id=table.pk, by=host)
    assert heard == [
        SeatChanged(table.pk, 0, host.pk, seated=True),
        InvitationChanged(table.pk, bot.pk),
        InvitationChanged(table.pk, other.pk),
        InvitationChanged(table.pk, other.pk),  # declined
        TableClosed(table.pk, "host"),
        InvitationChanged(table.pk, bot.pk),  # gone with the table
    ]


@pytest.mark.django_db
def test_a_played_match_tells_its_games_and_its_places(heard: list[Event], django_capture_on_commit_callbacks: Any) -> None:
    table, guest = unrated_table()
    with django_capture_on_commit_callbacks(execute=True):
        play_match(table.pk, seed=2)
    match = Match.objects.get(table=table)
    games = list(Game.objects.filter(match=match).order_by("number").values_list("pk", flat=True))
    places = tuple(
        Placing(player.seat, player.user_id, player.place, player.points, player.left)
        for player in MatchPlayer.objects.filter(match=match).order_by("seat")
    )
    assert heard == [
        *(GameFinished(game_id, match.pk, table.pk) for game_id in games),
        MatchFinished(match.pk, table.pk, "tile-rummy", False, places),
    ]
    assert {place.user_id for place in places} == {guest.pk, None} and sorted(p.place for p in places) == [1, 2]


@pytest.mark.django_db
def test_a_match_left_in_its_abort_window_finishes_aborted_and_unrated(
    heard: list[Event], django_capture_on_commit_callbacks: Any
) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    table = services.table_open(by=ana, game="tile-rummy", seat_count=2, turn_seconds=60)
    services.table_join(table_id=table.pk, by=ben)
    match = services.table_start(table_id=table.pk, by=ana)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_leave(table_id=table.pk, by=ben)
    assert heard == [
        SeatChanged(table.pk, 1, ben.pk, seated=False),
        MatchFinished(
            match.pk,
            table.pk,
            "tile-rummy",
            False,
            (Placing(0, ana.pk), Placing(1, ben.pk, left=True)),
            aborted=rated.ABORT_LEFT,
        ),
    ]


@pytest.mark.django_db
def test_the_tables_frames_are_published_before_the_events_are_delivered(
    listen: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    said: list[str] = []

    class Bus:
        def publish(self, topic: str, text: str) -> None:
            said.append(topic)

    monkeypatch.setattr(effects, "bus", Bus)
    listen(SeatChanged, lambda event: said.append("event"))
    with django_capture_on_commit_callbacks(execute=True):
        services.table_open(by=make_user("ana"), game="tile-rummy", seat_count=2)
    table = Table.objects.get()
    assert said == [effects.table_topic(table.pk), effects.LOBBY_TOPIC, "event"]


# --- The listeners, wired in their own apps -----------------------------------------------------------------


def test_the_leaderboards_and_the_review_subscribe_in_their_own_apps() -> None:
    assert leaderboards_subscribers.match_finished in subscribers(MatchFinished)
    assert review_subscribers.game_finished in subscribers(GameFinished)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks sent to the broker (none is: each is written down here)."""
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(current_app, "send_task", lambda name, args=(), **options: sent.append((name, tuple(args))))
    return sent


def rated_match_played(django_capture_on_commit_callbacks: Any) -> Match:
    ana, ben = make_user("ana"), make_user("ben")
    table = services.table_open(by=ana, game="tile-rummy", seat_count=2)
    services.table_join(table_id=table.pk, by=ben)
    services.table_start(table_id=table.pk, by=ana)
    with django_capture_on_commit_callbacks(execute=True):
        play_match(table.pk, seed=3)
    match = Match.objects.get(table=table)
    assert match.rated and match.finished_at is not None
    return match


@pytest.mark.django_db
@override_settings(TABLE_ENQUEUE_TASKS=True)
def test_a_finished_rated_match_reaches_the_leaderboards_rating(queued: Any, django_capture_on_commit_callbacks: Any) -> None:
    match = rated_match_played(django_capture_on_commit_callbacks)
    ratings = [(name, args) for name, args in queued if name.startswith("leaderboards.")]
    assert ratings == [(rating_tasks.rate_match.name, (match.pk,))]
    name, args = ratings[0]
    assert current_app.tasks[name](*args) is True  # the task the name stands for rates the match
    assert Rating.objects.count() == 2


@pytest.mark.django_db
@override_settings(TABLE_ENQUEUE_TASKS=True)
def test_a_finished_game_is_queued_for_review_and_an_unrated_match_for_no_rating(
    queued: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table, _guest = unrated_table()
    with django_capture_on_commit_callbacks(execute=True):
        play_match(table.pk, seed=2)
    games = list(Game.objects.filter(match__table=table).order_by("number").values_list("pk", flat=True))
    assert [args for name, args in queued if name == "review.review_game"] == [(game_id,) for game_id in games]
    assert not [name for name, _args in queued if name.startswith("leaderboards.")]


@pytest.mark.django_db
def test_with_table_tasks_off_nothing_is_queued_for_the_rating_or_the_review(
    queued: Any, django_capture_on_commit_callbacks: Any
) -> None:
    rated_match_played(django_capture_on_commit_callbacks)  # TABLE_ENQUEUE_TASKS is off in tests
    assert queued == []


@pytest.mark.django_db
@override_settings(TABLE_ENQUEUE_TASKS=True)
def test_a_broker_outage_is_logged_and_the_sweeps_catch_up_the_rating_and_the_review(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, django_capture_on_commit_callbacks: Any
) -> None:
    def away(name: str, args: Any = (), **options: Any) -> None:
        raise ConnectionError("the broker is away")

    monkeypatch.setattr(current_app, "send_task", away)
    with caplog.at_level(logging.WARNING, logger="apps.lib.queueing"):
        match = rated_match_played(django_capture_on_commit_callbacks)
    lost = [record.getMessage() for record in caplog.records if record.name == "apps.lib.queueing"]
    assert any("leaderboards.rate_match" in line and "ConnectionError" in line for line in lost)
    assert any("review.review_game" in line for line in lost)
    assert not AppliedMatch.objects.exists()
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=5))
    assert rating_tasks.rate_pending_matches() == 1  # the leaderboards' backstop
    assert Rating.objects.count() == 2
    game_ids = set(Game.objects.filter(match=match).values_list("pk", flat=True))
    assert game_ids <= set(games_waiting_for_reviews())  # the review's backstop queues them again
