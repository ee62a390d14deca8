"""Web Push through a real exchange with a push service in the test: the payload encrypted by pywebpush
and decrypted as a browser does, the VAPID signature checked, TTL, topic and urgency present; not sent to
a player with a socket open at that table, nor in quiet hours; a 410 removes the subscription."""

from __future__ import annotations

import contextlib
import socket
import threading
from datetime import UTC, datetime

import pytest
from django.test import override_settings

from apps.notifications import presence, push, services
from apps.notifications.management.commands.vapid_keys import new_pair
from apps.notifications.models import Kind, PushSettings, PushSubscription
from tests.notifications.push_service import Browser, PushService, b64url, check_vapid

pytestmark = pytest.mark.django_db

PUBLIC, PRIVATE = new_pair()
KEYS = {"WEBPUSH_VAPID_PUBLIC_KEY": PUBLIC, "WEBPUSH_VAPID_PRIVATE_KEY": PRIVATE,
        "WEBPUSH_VAPID_SUBJECT": "mailto:test@example.org", "NOTIFICATIONS_PUSH_ALLOW_HTTP": True}


@pytest.fixture
def service():
    with PushService() as running, override_settings(**KEYS):
        yield running


def subscribed(user, service, name: str, browser: Browser | None = None, language: str = "en") -> Browser:
    browser = browser or Browser()
    push.subscribe(user=user, endpoint=service.endpoint(name), p256dh=browser.p256dh, auth=b64url(browser.auth), language=language)
    return browser


def test_a_push_is_encrypted_signed_and_carries_ttl_topic_and_urgency(alice, bob, service, told):
    browser = subscribed(alice, service, "alice-phone")
    note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=42)
    outcome = push.push_notification(note.pk, note.created_at.isoformat())
    assert outcome == push.Outcome(sent=1)
    [received] = service.received
    assert received.path == "/push/alice-phone"
    assert received.headers["ttl"] == str(12 * 60 * 60)
    assert received.headers["topic"] == "table-42"
    assert received.headers["urgency"] == "high"
    assert received.headers["content-encoding"] == "aes128gcm"
    claims = check_vapid(received.headers["authorization"], PUBLIC, service.origin)
    assert claims["sub"] == "mailto:test@example.org"
    assert browser.decrypt(received.body) == {"title": "Tile Rummy", "body": "Your turn at table 42.",
                                              "url": "/t/42/", "tag": "table-42"}


def test_a_push_is_in_the_players_language(alice, bob, service, told):
    browser = subscribed(alice, service, "alice-phone", language="ro")
    note = services.notify(user_id=alice.pk, kind=Kind.CHALLENGE_RECEIVED, actor_id=bob.pk, challenge_id=9)
    push.push_notification(note.pk)
    payload = browser.decrypt(service.received[0].body)
    assert payload["body"] == "bob te-a provocat la o masă."
    assert service.received[0].headers["topic"] == "challenge-9"
    alice.language = "en"
    alice.save(update_fields=["language"])  # the player's own choice comes before the page's
    push.push_notification(note.pk)
    assert browser.decrypt(service.received[1].body)["body"] == "bob challenged you to a table."


def test_no_push_while_the_player_has_a_socket_open_at_that_table(alice, service, told):
    subscribed(alice, service, "alice-phone")
    note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=42)
    presence.arrived(42, alice.pk)
    assert push.push_notification(note.pk) == push.Outcome(skipped="at_table")
    presence.arrived(42, alice.pk)  # a second tab
    presence.left(42, alice.pk)
    assert push.push_notification(note.pk) == push.Outcome(skipped="at_table")
    presence.left(42, alice.pk)
    assert push.push_notification(note.pk) == push.Outcome(sent=1)
    assert len(service.received) == 1


def test_a_410_removes_the_subscription_and_the_other_devices_still_get_theirs(alice, service, told):
    subscribed(alice, service, "gone")
    subscribed(alice, service, "alive")
    service.status["/push/gone"] = 410
    note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=1)
    assert push.push_notification(note.pk) == push.Outcome(sent=1, removed=1)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [service.endpoint("alive")]


def test_nothing_is_pushed_in_quiet_hours_in_the_players_time_zone(alice, service, told):
    subscribed(alice, service, "phone")
    PushSettings.objects.filter(user=alice).update(time_zone="Europe/Bucharest", quiet_from=22, quiet_to=8)
    note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=1)
    # 21:30 UTC is 23:30 in Bucharest in winter (quiet); 07:30 UTC is 09:30 there (not quiet).
    assert push.push_notification(note.pk, now=datetime(2026, 12, 7, 21, 30, tzinfo=UTC)).skipped == "quiet"
    assert push.push_notification(note.pk, now=datetime(2026, 12, 7, 7, 30, tzinfo=UTC)).sent == 1


def test_a_kind_the_player_turned_off_is_not_pushed_and_a_read_one_never_is(alice, bob, service, told):
    subscribed(alice, service, "phone")
    PushSettings.objects.filter(user=alice).update(kinds=[Kind.YOUR_TURN])
    note = services.notify(user_id=alice.pk, kind=Kind.FRIEND_OPENED, actor_id=bob.pk, table_id=3)
    assert push.push_notification(note.pk).skipped == "kind"
    turn = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=4)
    services.mark_read(user_id=alice.pk, ids=[turn.pk])
    assert push.push_notification(turn.pk).skipped == "read"
    assert service.received == []


def test_a_turn_moved_up_since_is_pushed_by_its_newer_task_only(alice, service, told):
    subscribed(alice, service, "phone")
    first = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=4)
    created = first.created_at.isoformat()
    services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=4)
    assert push.push_notification(first.pk, created).skipped == "superseded"


def test_a_player_keeps_at_most_five_devices_the_oldest_goes(alice, service):
    for n in range(7):
        subscribed(alice, service, f"device-{n}")
    assert list(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True)) == [
        service.endpoint(f"device-{n}") for n in range(2, 7)
    ]


def test_a_browser_subscribed_by_someone_else_before_is_moved_not_doubled(alice, bob, service):
    browser = subscribed(alice, service, "shared")
    subscribed(bob, service, "shared", browser)
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [bob.pk]


@pytest.mark.parametrize("endpoint, p256dh, auth", [
    ("ftp://push.example/x", None, "AAECAwQFBgcICQoLDA0ODw"),
    ("https://push.example/x", "AAAA", "AAECAwQFBgcICQoLDA0ODw"),
    ("https://push.example/x", None, "AAEC"),
    ("https://push.example/x", None, "not base64!"),
])
def test_a_bad_subscription_is_refused_and_nothing_is_kept(alice, endpoint, p256dh, auth):
    with override_settings(NOTIFICATIONS_PUSH_ALLOW_HTTP=False), pytest.raises(push.BadSubscription):
        push.subscribe(user=alice, endpoint=endpoint, p256dh=p256dh or Browser().p256dh, auth=auth)
    assert not PushSubscription.objects.exists()


def test_plain_http_endpoints_are_refused_outside_the_tests_push_service(alice):
    with override_settings(NOTIFICATIONS_PUSH_ALLOW_HTTP=False), pytest.raises(push.BadSubscription):
        push.subscribe(user=alice, endpoint="http://127.0.0.1:9/x", p256dh=Browser().p256dh, auth="AAECAwQFBgcICQoLDA0ODw")


def test_without_vapid_keys_web_push_is_off_and_nothing_is_sent(alice, told):
    with override_settings(WEBPUSH_VAPID_PUBLIC_KEY="", WEBPUSH_VAPID_PRIVATE_KEY=""):
        PushSubscription.objects.create(user=alice, endpoint="https://push.example/a", p256dh="k", auth="a")
        note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=1)
        assert not push.enabled()
        assert push.push_notification(note.pk).skipped == "off"


def test_the_vapid_command_prints_a_pair_that_signs(capsys):
    from django.core.management import call_command

    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert set(lines) == {"WEBPUSH_VAPID_PUBLIC_KEY", "WEBPUSH_VAPID_PRIVATE_KEY"}
    assert len(push._decoded(lines["WEBPUSH_VAPID_PUBLIC_KEY"])) == 65
    assert len(push._decoded(lines["WEBPUSH_VAPID_PRIVATE_KEY"])) == 32


@pytest.mark.django_db(transaction=True)
def test_browsers_subscribing_at_once_still_leave_at_most_five():
    """Check-then-act under two connections: each subscription counts the player's browsers with the
    player's row locked, so six browsers subscribing at the same moment keep five (on PostgreSQL; SQLite
    runs one writer)."""
    import threading

    from django.db import close_old_connections, connection

    from tests.tables.helpers import make_user

    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    player = make_user("racer")
    barrier = threading.Barrier(6)
    failures: list[BaseException] = []

    def subscribe_one(n: int) -> None:
        try:
            barrier.wait()
            push.subscribe(user=player, endpoint=f"https://push.example/{n}", p256dh=Browser().p256dh,
                           auth="AAECAwQFBgcICQoLDA0ODw")
        except BaseException as error:  # noqa: BLE001 (reported below)
            failures.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=subscribe_one, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert PushSubscription.objects.filter(user=player).count() == push.MAX_DEVICES


# --- what a worker keeps between pushes: the signed VAPID header, the HTTP session ----------------------


@pytest.fixture
def fresh_process(monkeypatch):
    """A worker process that has sent nothing yet (nothing kept from another test)."""
    monkeypatch.setattr(push, "_state", push._ProcessState())


def test_the_vapid_header_is_kept_per_push_service_and_still_verifies(alice, bob, service, told, fresh_process):
    subscribed(alice, service, "alice-phone")
    subscribed(bob, service, "bob-phone")
    for user in (alice, bob, alice):
        note = services.notify(user_id=user.pk, kind=Kind.YOUR_TURN, table_id=user.pk)
        assert push.push_notification(note.pk).sent == 1
    headers = {received.headers["authorization"] for received in service.received}
    assert len(service.received) == 3 and len(headers) == 1  # signed once, for the three pushes
    claims = check_vapid(headers.pop(), PUBLIC, service.origin)
    assert claims["sub"] == "mailto:test@example.org"
    assert claims["exp"] - push.VAPID_VALIDITY <= datetime.now(UTC).timestamp() <= claims["exp"]
    with PushService() as other:  # another push service: a token of its own (its origin is the audience)
        subscribed(alice, other, "alice-laptop")
        note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=99)
        assert push.push_notification(note.pk).sent == 2
        [received] = other.received
        assert check_vapid(received.headers["authorization"], PUBLIC, other.origin)["aud"] == other.origin
    assert service.received[-1].headers["authorization"] == service.received[0].headers["authorization"]


def test_the_vapid_header_is_signed_anew_before_it_expires(service, fresh_process):
    endpoint = service.endpoint("phone")
    start = 1_800_000_000.0
    first = push.vapid_header(endpoint, now=start)
    assert check_vapid(first, PUBLIC, service.origin)["exp"] == start + push.VAPID_VALIDITY
    almost = start + push.VAPID_VALIDITY - push.VAPID_RENEW_BEFORE - 1
    assert push.vapid_header(endpoint, now=almost) == first  # more than the margin left: kept
    renewed = push.vapid_header(endpoint, now=almost + 2)  # less than VAPID_RENEW_BEFORE left: signed anew
    assert renewed != first
    claims = check_vapid(renewed, PUBLIC, service.origin)
    assert claims["exp"] == int(almost + 2) + push.VAPID_VALIDITY
    assert claims["exp"] - (start + push.VAPID_VALIDITY) > push.VAPID_RENEW_BEFORE  # never sent one near its end
    assert push.vapid_header(endpoint, now=almost + 3) == renewed


def test_a_new_vapid_key_is_used_at_once(service, fresh_process):
    endpoint = service.endpoint("phone")
    old = push.vapid_header(endpoint)
    public, private = new_pair()
    with override_settings(WEBPUSH_VAPID_PUBLIC_KEY=public, WEBPUSH_VAPID_PRIVATE_KEY=private):
        new = push.vapid_header(endpoint)
    assert new != old
    assert check_vapid(new, public, service.origin)["aud"] == service.origin
    with pytest.raises(AssertionError):
        check_vapid(new, PUBLIC, service.origin)  # not the old key's


def test_each_browser_gets_the_words_of_its_language_and_the_task_reads_two_tables(
    alice, service, told, fresh_process, django_assert_num_queries
):
    alice.language = ""
    alice.save(update_fields=["language"])
    english = subscribed(alice, service, "en-phone", language="en")
    romanian = subscribed(alice, service, "ro-laptop", language="ro")
    also_romanian = subscribed(alice, service, "ro-tablet", language="ro")
    note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=42)
    with django_assert_num_queries(2):  # the notification with its player and settings; the browsers
        assert push.push_notification(note.pk, note.created_at.isoformat()).sent == 3
    bodies = {received.path: received.body for received in service.received}
    assert english.decrypt(bodies["/push/en-phone"])["body"] == "Your turn at table 42."
    assert romanian.decrypt(bodies["/push/ro-laptop"])["body"] == also_romanian.decrypt(bodies["/push/ro-tablet"])["body"]
    assert romanian.decrypt(bodies["/push/ro-laptop"])["body"] != "Your turn at table 42."
    assert bodies["/push/ro-laptop"] != bodies["/push/ro-tablet"]  # each encrypted to its own browser


def test_a_push_service_that_cannot_be_reached_loses_that_push_and_the_next_one_goes(alice, service, told, fresh_process):
    subscribed(alice, service, "phone")
    first = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=1)
    assert push.push_notification(first.pk).sent == 1
    with PushService() as other:
        endpoint = other.endpoint("gone-away")
    PushSubscription.objects.filter(user=alice).update(endpoint=endpoint)  # its server has stopped
    second = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=2)
    assert push.push_notification(second.pk) == push.Outcome()  # nothing sent, nothing removed
    PushSubscription.objects.filter(user=alice).update(endpoint=service.endpoint("phone"))
    third = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=3)
    assert push.push_notification(third.pk).sent == 1
    assert push.session() is push.session()  # one session for the process's pushes


def test_a_forked_worker_process_keeps_nothing_of_its_parents(service, fresh_process, monkeypatch):
    """Celery's prefork children: the parent's session (its sockets) and headers are not theirs."""
    parent_session, parent_header = push.session(), push.vapid_header(service.endpoint("phone"))
    monkeypatch.setattr(push.os, "getpid", lambda: -1)  # as after a fork
    assert push.session() is not parent_session
    assert push._local().headers == {}
    assert check_vapid(push.vapid_header(service.endpoint("phone")), PUBLIC, service.origin)
    assert push._local().pid == -1 and parent_header


def test_a_push_whose_answer_never_comes_is_not_sent_twice(alice, told, fresh_process):
    """The session retries a connection that could not be made, never a request already sent: a push
    service that reads the push and drops the connection without a word got it once, and the phone must
    not buzz twice. The push counts as lost (nothing kept, nothing removed)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    requests_read: list[bytes] = []
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                connection, _address = server.accept()
            except TimeoutError:
                continue
            with contextlib.suppress(OSError), connection:
                connection.settimeout(10)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                requests_read.append(data)  # then closed: no status line, nothing

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        with override_settings(**KEYS):
            push.subscribe(user=alice, endpoint=f"http://127.0.0.1:{server.getsockname()[1]}/push/phone",
                           p256dh=Browser().p256dh, auth=b64url(Browser().auth))
            note = services.notify(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=7)
            assert push.push_notification(note.pk) == push.Outcome()
    finally:  # a retry would have been read before the push gave up: the server closes only after reading
        done.set()
        thread.join(30)
        server.close()
    assert len(requests_read) == 1 and requests_read[0].startswith(b"POST /push/phone ")
    assert PushSubscription.objects.filter(user=alice).count() == 1
