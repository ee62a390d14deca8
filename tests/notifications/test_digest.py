"""The daily e-mail (SPEC 17, opt-in): the no-timer tables where it is the player's turn, in their
language, once a day whatever runs it; never without the opt-in, a verified address, or a table waiting."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import close_old_connections, connection
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from apps.bots.models import BotAccount
from apps.engine.game import get_rules
from apps.notifications import digest, tasks
from apps.notifications.models import PushSettings
from apps.tables import services
from apps.tables.models import Table
from apps.tables.selectors import turns_waiting
from tests.tables.helpers import make_user, state_of

pytestmark = pytest.mark.django_db

HOUSE = "tile-rummy"


def started(host, other, turn_seconds=0):
    table = services.table_open(by=host, game=HOUSE, seat_count=2, turn_seconds=turn_seconds)
    services.table_join(table_id=table.pk, by=other)
    services.table_start(table_id=table.pk, by=host)
    return Table.objects.get(pk=table.pk)


def to_move(table_id):
    table, state = state_of(table_id)
    return table.seating[get_rules(table.game).to_move(state)]["user_id"]


def opted_in(user, *, on=True):
    PushSettings.objects.update_or_create(user=user, defaults={"email_digest": on})


@pytest.fixture
def pair():
    """Alice and bob at a no-timer table; returns (the table, the one to move, the other)."""
    alice, bob = make_user("alice"), make_user("bob")
    table = started(alice, bob)
    players = {alice.pk: alice, bob.pk: bob}
    mover = players[to_move(table.pk)]
    return table, mover, bob if mover == alice else alice


@override_settings(SITE_URL="https://rummy.example")
def test_a_player_who_opted_in_gets_the_waiting_table_in_romanian(pair):
    table, mover, other = pair
    mover.language = "ro"
    mover.save(update_fields=["language"])
    opted_in(mover)
    opted_in(other)  # not their turn: nothing for them
    assert tasks.email_digest() == 1
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == [f"{mover.username}@example.test"]
    assert sent.subject == "E rândul tău la 1 masă"
    assert "Bună," in sent.body and "așteaptă mutarea ta" in sent.body
    assert f"https://rummy.example/t/{table.pk}/" in sent.body
    assert other.username in sent.body  # the opponent's name
    assert "https://rummy.example" + reverse("notifications:settings") in sent.body  # the way out
    html, kind = sent.alternatives[0]
    assert kind == "text/html" and f'href="https://rummy.example/t/{table.pk}/"' in html and 'lang="ro"' in html
    assert PushSettings.objects.get(user=mover).digest_sent_on == digest.today()


def test_an_english_player_reads_english_and_nothing_of_the_rack(pair):
    table, mover, other = pair
    opted_in(mover)
    assert digest.send_daily() == 1
    body = mail.outbox[0].body
    assert mail.outbox[0].subject == "Your turn at 1 table"
    assert "waiting for your move" in body and "waiting for 0" in body
    state = Table.objects.select_related("current_game").get(pk=table.pk).current_game.state
    assert "rack" not in body.lower() and str(state)[:40] not in body


def test_nothing_without_the_opt_in(pair):
    _table, mover, _other = pair
    assert digest.send_daily() == 0
    opted_in(mover, on=False)
    assert digest.send_daily() == 0 and mail.outbox == []


def test_nothing_without_a_verified_address(pair):
    _table, mover, _other = pair
    opted_in(mover)
    mover.emailaddress_set.update(verified=False)
    assert digest.send_daily() == 0 and mail.outbox == []
    assert PushSettings.objects.get(user=mover).digest_sent_on is None


def test_nothing_when_no_table_waits():
    alice, bob = make_user("alice"), make_user("bob")
    opted_in(alice)
    timed = started(alice, bob, turn_seconds=60)  # a timed table never waits a day
    assert timed.turn_seconds == 60
    assert digest.send_daily() == 0 and mail.outbox == []
    assert PushSettings.objects.get(user=alice).digest_sent_on is None


def test_banned_inactive_guests_and_bot_accounts_get_nothing(pair):
    _table, mover, other = pair
    opted_in(mover)
    mover.banned_until = timezone.now() + timedelta(days=1)
    mover.save(update_fields=["banned_until"])
    assert digest.send_daily() == 0
    mover.banned_until = None
    mover.is_active = False
    mover.save(update_fields=["banned_until", "is_active"])
    assert digest.send_daily() == 0
    mover.is_active = True
    mover.save(update_fields=["is_active"])
    BotAccount.objects.create(user=mover, owner=make_user("owner"))
    assert digest.send_daily() == 0 and mail.outbox == []
    assert not digest.may_get_digest(mover)
    assert not digest.may_get_digest(make_user("guest1", guest=True))
    assert digest.may_get_digest(other)


def test_running_twice_sends_one_mail_and_the_next_day_again(pair):
    _table, mover, _other = pair
    opted_in(mover)
    now = timezone.now()
    assert tasks.email_digest() == 1
    assert tasks.email_digest() == 0
    assert len(mail.outbox) == 1
    assert digest.send_daily(now + timedelta(days=1)) == 1
    assert len(mail.outbox) == 2


def test_a_mail_that_fails_gives_the_day_back(pair, monkeypatch):
    _table, mover, _other = pair
    opted_in(mover)

    def broken(*args, **kwargs):
        raise OSError("the mail server is down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
    assert digest.send_daily() == 0
    assert PushSettings.objects.get(user=mover).digest_sent_on is None
    monkeypatch.undo()
    assert digest.send_daily() == 1 and len(mail.outbox) == 1


def test_turns_waiting_names_the_mover_only_and_skips_finished_and_timed_tables(pair):
    table, mover, other = pair
    waiting = turns_waiting([mover.pk, other.pk])
    assert list(waiting) == [mover.pk]
    (turn,) = waiting[mover.pk]
    assert (turn.table_id, turn.game, turn.opponents, turn.bots) == (table.pk, HOUSE, (other.username,), ())
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert turns_waiting([mover.pk, other.pk]) == {}


def test_the_settings_page_offers_the_mail_only_to_verified_registered_players(client, pair):
    _table, mover, _other = pair
    client.force_login(mover)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert "E-mail me once a day the tables where it is my turn" in page
    response = client.post(reverse("notifications:settings"), {"kinds": ["your_turn"], "time_zone": "UTC", "email_digest": "on"})
    assert response.status_code == 302 and PushSettings.objects.get(user=mover).email_digest is True
    client.post(reverse("notifications:settings"), {"kinds": ["your_turn"], "time_zone": "UTC"})
    assert PushSettings.objects.get(user=mover).email_digest is False
    unverified = make_user("carol", verified=False)
    client.force_login(unverified)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert "E-mail me once a day" not in page
    client.post(reverse("notifications:settings"), {"kinds": [], "time_zone": "UTC", "email_digest": "on"})
    assert PushSettings.objects.get(user=unverified).email_digest is False  # not offered: not changed


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_one_mail():
    """Check-then-act under two connections: the day is claimed by one UPDATE ... WHERE digest_sent_on
    < today, so two runs started at the same moment send one mail (PostgreSQL; SQLite runs one writer)."""
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    alice, bob = make_user("alice"), make_user("bob")
    table = started(alice, bob)
    mover = alice if to_move(table.pk) == alice.pk else bob
    opted_in(mover)
    barrier = threading.Barrier(2)
    counts: list[int] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            counts.append(digest.send_daily())
        except BaseException as error:  # noqa: BLE001 (reported below)
            failures.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert sorted(counts) == [0, 1]
    assert len(mail.outbox) == 1


def test_the_wait_is_counted_from_the_last_move_or_the_deal(pair):
    table, mover, _other = pair
    opted_in(mover)
    game = Table.objects.get(pk=table.pk).current_game
    type(game).objects.filter(pk=game.pk).update(started_at=timezone.now() - timedelta(days=2, hours=3))
    game.moves.update(at=timezone.now() - timedelta(days=2, hours=3))
    (turn,) = turns_waiting([mover.pk])[mover.pk]
    assert timezone.now() - turn.since > timedelta(days=2)
    assert digest.send_daily() == 1
    assert "waiting for 2\xa0days, 3\xa0hours" in mail.outbox[0].body
