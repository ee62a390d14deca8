"""Whose socket it is (apps/live/sessions.py): the session cookie's user, checked as Django checks a page's,
found on the sockets' database threads; a handshake daphne has given up on sends no query. A password
changed or reset, or a guest's conversion, closes the other sessions' sockets (apps/accounts/sockets.py),
and the process's own check closes those a lost message missed, a revoked token's too."""

from __future__ import annotations

import math

import pytest
from allauth.account.models import EmailAddress
from allauth.account.signals import email_changed, password_reset
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import guest_create
from apps.bots.asgi import check_open_tokens
from apps.bots.models import AccessToken
from apps.live import owners
from apps.live.sessions import _user_of
from apps.tables import services
from rummysite.asgi import application
from tests.bots.helpers import bearer, make_bot
from tests.security.test_bans import connect_with_cookie
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, ORIGIN, codes_until_closed, connect, receive, session_cookie

db = sync_to_async


def seated_table(name: str):
    user = make_user(name)
    table = services.table_open(by=user, game="tile-rummy", seat_count=2, bots=["easy"], turn_seconds=0)
    services.table_start(table_id=table.pk, by=user)
    return user, table


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_with_a_session_cookie_is_its_users_and_sees_their_rack():
    user, table = await db(seated_table)("mallory")
    socket = await connect(f"/ws/tables/{table.pk}/", user)
    frame = await receive(socket)
    assert frame["type"] == "state"
    assert frame["seat"] == 0 and len(frame["view"]["rack"]) >= 14  # the seat's own view, rack included
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_session_from_before_a_password_change_is_a_spectators_socket():
    user, table = await db(seated_table)("mallory")
    cookie = await db(session_cookie)(user)
    user.set_password("a new and different password")
    await db(user.save)()  # the session's hash of the old password no longer verifies
    socket = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[HOST, ORIGIN, (b"cookie", cookie)])
    connected, _ = await socket.connect(timeout=30)
    assert connected
    frame = await receive(socket)
    assert frame["type"] == "state" and frame["seat"] is None and "rack" not in frame["view"]
    await socket.disconnect()


@pytest.mark.django_db
def test_a_lookup_past_daphnes_handshake_timeout_is_dropped_before_any_query(django_assert_num_queries):
    user = make_user("mallory")
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session.save()
    with django_assert_num_queries(0):
        assert _user_of(SessionStore(session.session_key), -math.inf) is None  # a deadline long gone
    assert not _user_of(SessionStore(session.session_key), math.inf).is_authenticated  # no backend


# -- a password changed, a guest converted: the other sessions' sockets close (issue 40, section 3) ------


def client_of(cookie: bytes) -> Client:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie.decode().split("=", 1)[1]
    return client


async def two_sessions(user, table) -> tuple[bytes, bytes, WebsocketCommunicator, WebsocketCommunicator]:
    """Sockets A (session 1) and B (session 2) of one user at the table, each past its first frame."""
    first, second = await db(session_cookie)(user), await db(session_cookie)(user)
    a, b = await connect_with_cookie(f"/ws/tables/{table.pk}/", first), await connect_with_cookie(f"/ws/tables/{table.pk}/", second)
    await receive(a)
    await receive(b)
    return first, second, a, b


async def still_answers(socket: WebsocketCommunicator) -> None:
    await socket.send_json_to({"type": "ping"})
    while (await receive(socket))["type"] != "pong":
        pass



async def ended_and_kept(ended, kept) -> None:  # type: ignore[no-untyped-def]
    """`ended` (another session's socket) is told `session_ended` and closed with 4401; `kept` (the
    socket of the session that made the change) still answers."""
    codes, close = await codes_until_closed(ended)
    assert close == 4401 and codes[-1] == "session_ended"
    await still_answers(kept)
    await kept.disconnect()

@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_changing_the_password_closes_the_other_sessions_sockets_and_keeps_this_ones():
    user, table = await db(seated_table)("mallory")
    _first, second, a, b = await two_sessions(user, table)

    def change_password() -> int:
        return client_of(second).post(reverse("account_change_password"), {
            "oldpassword": "pw-mallory", "password1": "a new and longer secret 2026",
            "password2": "a new and longer secret 2026"}).status_code

    assert await db(change_password)() == 302
    await ended_and_kept(a, b)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_changing_the_email_address_closes_the_other_sessions_sockets_and_keeps_this_ones():
    user, table = await db(seated_table)("mallory")
    _first, second, a, b = await two_sessions(user, table)

    def change_email() -> None:  # what allauth sends when the primary address changes (its e-mail page)
        request = RequestFactory().post("/accounts/email/")
        request.COOKIES[settings.SESSION_COOKIE_NAME] = second.decode().split("=", 1)[1]
        old = EmailAddress.objects.get(user=user)
        new = EmailAddress.objects.create(user=user, email="new@example.test", verified=True)
        new.set_as_primary()
        email_changed.send(sender=User, request=request, user=user, from_email_address=old, to_email_address=new)

    await db(change_email)()
    await ended_and_kept(a, b)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_password_reset_closes_every_socket_of_the_user():
    user, table = await db(seated_table)("mallory")
    _first, _second, a, b = await two_sessions(user, table)

    def reset() -> None:
        fresh = User.objects.get(pk=user.pk)
        fresh.set_password("a new and longer secret 2026")
        fresh.save()
        password_reset.send(sender=User, request=RequestFactory().post("/"), user=fresh)  # an anonymous browser

    await db(reset)()
    for socket in (a, b):
        codes, close = await codes_until_closed(socket)
        assert close == 4401 and codes[-1] == "session_ended"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_guests_conversion_closes_the_guests_other_sessions_sockets_and_keeps_this_ones():
    guest = await db(guest_create)()
    table = await db(services.table_open)(by=guest, game="tile-rummy", seat_count=2, bots=["easy"], turn_seconds=0)
    await db(services.table_start)(table_id=table.pk, by=guest)
    _planted, mine, a, b = await two_sessions(guest, table)

    def convert() -> int:
        return client_of(mine).post(reverse("accounts:guest_convert"), {
            "username": "Rina", "email": "rina@example.com", "password1": "tiles on felt 2026",
            "password2": "tiles on felt 2026"}).status_code

    assert await db(convert)() == 302
    await ended_and_kept(a, b)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_backstop_closes_a_socket_whose_session_no_longer_matches_the_password():
    user, table = await db(seated_table)("mallory")
    _first, second, a, b = await two_sessions(user, table)

    def change_password_quietly() -> None:  # as if the bus had lost the message: no signal, no publish
        fresh = User.objects.get(pk=user.pk)
        fresh.set_password("a new and longer secret 2026")
        fresh.save()
        store = SessionStore(second.decode().split("=", 1)[1])
        store[HASH_SESSION_KEY] = fresh.get_session_auth_hash()  # session 2 made the change
        store.save()

    await db(change_password_quietly)()
    await owners.check_open_sockets()
    await ended_and_kept(a, b)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_backstop_leaves_the_sockets_of_sessions_that_still_sign_their_user_in():
    user, table = await db(seated_table)("mallory")
    _first, _second, a, b = await two_sessions(user, table)
    await owners.check_open_sockets()
    await still_answers(a)
    await still_answers(b)
    await a.disconnect()
    await b.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_backstop_closes_the_socket_of_a_token_revoked_where_no_message_reaches_it():
    # The command line on the embedded default revokes in another process: its message reaches no socket.
    bot, secret = await db(make_bot)("robo")
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=[HOST, bearer(secret)])
    connected, _ = await socket.connect(timeout=30)
    assert connected
    await db(AccessToken.objects.filter(bot__user=bot).update)(revoked_at=timezone.now())
    assert await check_open_tokens() == 1
    codes, close = await codes_until_closed(socket)
    assert close == 4401 and codes[-1] == "token_revoked"
