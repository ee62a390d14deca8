"""Whose socket it is (apps/live/sessions.py): the session cookie's user, checked as Django checks a page's,
found on the sockets' database threads; a handshake daphne has given up on sends no query."""

from __future__ import annotations

import math

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from apps.live.sessions import _user_of
from apps.tables import services
from rummysite.asgi import application
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, ORIGIN, connect, receive, session_cookie

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
