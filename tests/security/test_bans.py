"""Moderation that bites (SPEC 11): a ban, a deactivation or a sign-out reaches the user's open sockets at
once, on its own (no move of theirs needed), stands their seats up and refuses whatever they try next."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from apps.accounts import services as accounts
from apps.accounts.models import User
from apps.live import owners
from apps.tables import services
from apps.tables.models import Seat, Table
from rummysite.asgi import application
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, ORIGIN, codes_until_closed, connect, receive, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async
CEILING = 30.0  # seconds: a bound for a busy machine, never a timing goal


def ban(user: User) -> None:
    accounts.user_ban(user_id=user.pk, until=timezone.now() + timedelta(days=1), reason="farming")


def playing_with_bot(name: str) -> tuple[User, Table]:
    user = make_user(name)
    table = services.table_open(by=user, game="tile-rummy", seat_count=2, bots=["easy"], turn_seconds=60)
    services.table_start(table_id=table.pk, by=user)
    return user, Table.objects.get(pk=table.pk)


async def connect_with_cookie(path: str, cookie: bytes) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers=[HOST, ORIGIN, (b"cookie", cookie)])
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


async def closing(client) -> tuple[list[str | None], int]:
    return await codes_until_closed(client)


async def test_a_ban_closes_the_users_open_socket_with_4403_and_stands_their_seat_up():
    user, table = await db(playing_with_bot)("mallory")
    other = await db(make_user)("olivia")
    open_table = await db(services.table_open)(by=other, game="tile-rummy", seat_count=3)
    await db(services.table_join)(table_id=open_table.pk, by=user)
    socket = await connect(f"/ws/tables/{table.pk}/", user)
    lobby = await connect("/ws/lobby/", user)
    watcher = await connect(f"/ws/tables/{table.pk}/", other)
    await receive(socket)
    await receive(lobby)
    await receive(watcher)
    await db(ban)(user)
    codes, close = await closing(socket)  # on its own: the banned user sends nothing
    assert close == 4403 and codes[-1] == "banned"
    codes, close = await closing(lobby)
    assert close == 4403 and codes[-1] == "banned"
    await watcher.send_json_to({"type": "ping"})  # the watcher is not closed
    while (await receive(watcher))["type"] != "pong":
        pass
    seat = await db(Seat.objects.get)(table_id=table.pk, index=0)
    assert seat.left_match  # out of the match, as one who leaves (placed last)
    assert not await db(Seat.objects.filter(table_id=open_table.pk, user=user).exists)()
    await watcher.disconnect()


async def test_a_ban_closes_the_unstarted_tables_the_user_hosts():
    user = await db(make_user)("mallory")
    table = await db(services.table_open)(by=user, game="tile-rummy", seat_count=2)
    lobby = await connect("/ws/lobby/")
    await receive(lobby)
    await db(ban)(user)
    table = await db(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.CLOSED
    while True:  # and the lobby shows it closed at once
        frame = await receive(lobby, timeout=CEILING)
        if frame["type"] == "table" and frame["id"] == table.pk and frame["entry"] is None:
            break
    await lobby.disconnect()


async def test_a_banned_users_new_socket_is_refused_with_4403():
    user, table = await db(playing_with_bot)("mallory")
    await db(ban)(user)
    for path in (f"/ws/tables/{table.pk}/", "/ws/lobby/", "/ws/ping/"):
        codes, close = await closing(await connect(path, user))
        assert (codes, close) == (["banned"], 4403), path


def finished_table_of_banned_host() -> tuple[User, Table]:
    user = make_user("mallory")
    partner = make_user("trudy")
    table = services.table_open(by=user, game="tile-rummy", seat_count=2)
    services.table_join(table_id=table.pk, by=partner)
    services.table_start(table_id=table.pk, by=user)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, due_action="", due_at=None)
    ban(user)  # the ban stands the user up; the host stays host of the table in this test
    Table.objects.filter(pk=table.pk).update(host=user)
    return User.objects.get(pk=user.pk), table


@pytest.mark.parametrize("action", ["new_match", "open", "sit", "start"])
async def test_a_banned_user_cannot_start_a_new_match_open_sit_or_start(action):
    finished: list[int] = []

    def attempt() -> None:
        if action == "new_match":
            user, table = finished_table_of_banned_host()
            finished.append(table.pk)
            services.table_new_match(table_id=table.pk, by=user)
        elif action == "open":
            user = make_user("mallory")
            ban(user)
            services.table_open(by=User.objects.get(pk=user.pk), game="tile-rummy", seat_count=2)
        elif action == "sit":
            host = make_user("olivia")
            table = services.table_open(by=host, game="tile-rummy", seat_count=2)
            user = make_user("mallory")
            ban(user)
            services.table_join(table_id=table.pk, by=User.objects.get(pk=user.pk))
        else:
            user = make_user("mallory")
            table = services.table_open(by=user, game="tile-rummy", seat_count=2, bots=["easy"])
            User.objects.filter(pk=user.pk).update(banned_until=timezone.now() + timedelta(days=1))
            services.table_start(table_id=table.pk, by=User.objects.get(pk=user.pk))

    with pytest.raises(services.NotAllowed, match="banned"):
        await db(attempt)()
    # No second match at the finished table (looked at there only: another test's table is not this one's).
    assert not await db(Table.objects.filter(pk__in=finished, match__number=2).exists)()


async def test_deactivating_an_account_closes_its_sockets_and_stands_it_up():
    user, table = await db(playing_with_bot)("mallory")
    socket = await connect(f"/ws/tables/{table.pk}/", user)
    await receive(socket)

    def deactivate() -> None:
        fresh = User.objects.get(pk=user.pk)
        fresh.is_active = False
        fresh.save()  # as the admin's change form saves it

    await db(deactivate)()
    codes, close = await closing(socket)
    assert close == 4403 and codes[-1] == "disabled"
    assert (await db(Seat.objects.get)(table_id=table.pk, index=0)).left_match


async def test_signing_out_closes_that_sessions_sockets_only():
    user, table = await db(playing_with_bot)("mallory")
    cookie = await db(session_cookie)(user)
    mine = await connect_with_cookie(f"/ws/tables/{table.pk}/", cookie)
    other_session = await connect(f"/ws/tables/{table.pk}/", user)
    await receive(mine)
    await receive(other_session)

    def sign_out() -> int:
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = cookie.decode().split("=", 1)[1]
        return client.post("/accounts/logout/").status_code

    assert await db(sign_out)() == 302
    codes, close = await closing(mine)
    assert close == 4401 and codes[-1] == "signed_out"
    await other_session.send_json_to({"type": "ping"})
    assert (await receive(other_session))["type"] == "pong"
    await other_session.disconnect()




async def test_a_ban_whose_message_was_lost_is_found_by_the_processs_own_check():
    user, table = await db(playing_with_bot)("mallory")
    socket = await connect(f"/ws/tables/{table.pk}/", user)
    await receive(socket)
    # Saved without a signal, as if the bus had lost the message.
    await db(User.objects.filter(pk=user.pk).update)(banned_until=timezone.now() + timedelta(days=1))
    await owners.check_open_sockets()
    codes, close = await closing(socket)
    assert close == 4403 and codes[-1] == "banned"
