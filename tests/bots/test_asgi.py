"""The sockets' door for bot accounts (apps/bots/asgi.py), through the site's ASGI application: a token
instead of a session and an Origin, refusals with an error frame and a close code, and a revoked token's
open sockets closed at once."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import user_ban
from apps.bots import presence
from apps.bots.asgi import check_open_tokens
from apps.bots.models import AccessToken
from apps.bots.services import token_create, token_revoke
from apps.tables import services
from rummysite.asgi import application
from tests.bots.helpers import bearer, make_bot, make_owner

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HOST = (b"host", b"127.0.0.1:8000")
db = sync_to_async


async def open_socket(path: str, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers=[HOST, *headers])
    connected, _ = await communicator.connect(timeout=30)
    assert connected, path
    return communicator


async def frame(communicator: WebsocketCommunicator) -> dict:
    return json.loads(await communicator.receive_from(timeout=30))


async def until_closed(communicator: WebsocketCommunicator) -> tuple[list[dict], int]:
    frames = []
    while True:
        output = await communicator.receive_output(timeout=30)
        if output["type"] == "websocket.close":
            return frames, output["code"]
        frames.append(json.loads(output["text"]))


async def test_a_token_socket_needs_no_origin_and_no_cookie():
    bot, secret = await db(make_bot)("robo")
    lobby = await open_socket("/ws/lobby/", bearer(secret))
    assert (await frame(lobby))["type"] == "tables"
    assert await frame(lobby) == {"type": "invitations", "invitations": []}
    await lobby.disconnect()


async def test_a_browser_socket_without_an_origin_is_still_refused():
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[HOST])
    connected, _ = await communicator.connect(timeout=30)
    assert not connected


async def test_a_token_socket_acts_as_its_bot_account():
    bot, secret = await db(make_bot)("robo")
    table = await db(services.table_open)(by=bot, game="tile-rummy", seat_count=2, bots=["easy"])
    socket = await open_socket(f"/ws/tables/{table.pk}/", bearer(secret))
    state = await frame(socket)
    assert state["type"] == "state" and state["seat"] == 0
    assert state["table"]["seats"][0]["bot_account"] is True
    await socket.send_to(text_data=json.dumps({"type": "start"}))
    while (state := await frame(socket))["table"]["status"] != "playing":
        pass
    await socket.disconnect()


@pytest.mark.parametrize("secret", ["rbt_not-a-token", "", "x" * 500])
async def test_a_token_that_opens_nothing_gets_an_error_frame_and_4401(secret):
    socket = await open_socket("/ws/lobby/", (b"authorization", f"Bearer {secret}".encode()))
    frames, code = await until_closed(socket)
    assert [f["code"] for f in frames] == ["bad_token"] and code == 4401


async def test_a_revoked_token_is_refused_at_once_and_its_open_sockets_are_closed():
    bot, secret = await db(make_bot)("robo")
    table = await db(services.table_open)(by=bot, game="tile-rummy", seat_count=2, bots=["easy"])
    lobby = await open_socket("/ws/lobby/", bearer(secret))
    seat = await open_socket(f"/ws/tables/{table.pk}/", bearer(secret))
    await frame(lobby), await frame(lobby), await frame(seat)
    token = await db(AccessToken.objects.get)(bot__user=bot)
    await db(token_revoke)(token_id=token.pk, by=await db(lambda: bot.bot_account.owner)())
    for socket in (lobby, seat):
        frames, code = await until_closed(socket)
        assert frames[-1]["code"] == "token_revoked" and code == 4401
    again = await open_socket("/ws/lobby/", bearer(secret))
    frames, code = await until_closed(again)
    assert [f["code"] for f in frames] == ["bad_token"] and code == 4401


async def test_revoking_one_token_leaves_the_bots_other_tokens_open():
    owner = await db(make_owner)()
    bot, first = await db(make_bot)("robo", owner)
    second_token, second = await db(token_create)(bot_id=bot.pk, by=owner, name="second")
    one = await open_socket("/ws/lobby/", bearer(first))
    two = await open_socket("/ws/lobby/", bearer(second))
    for socket in (one, two):
        await frame(socket), await frame(socket)
    first_token = await db(AccessToken.objects.exclude(pk=second_token.pk).get)(bot__user=bot)
    await db(token_revoke)(token_id=first_token.pk, by=owner)
    _frames, code = await until_closed(one)
    assert code == 4401
    await two.send_to(text_data=json.dumps({"type": "ping"}))
    assert await frame(two) == {"type": "pong"}
    await two.disconnect()


async def test_a_banned_bot_account_is_refused_at_connect_with_4403():
    bot, secret = await db(make_bot)("robo")
    await db(user_ban)(user_id=bot.pk, until=timezone.now() + timedelta(days=1), reason="spam")
    socket = await open_socket("/ws/lobby/", bearer(secret))
    frames, code = await until_closed(socket)
    assert [f["code"] for f in frames] == ["banned"] and code == 4403


async def test_the_check_closes_the_sockets_of_a_bot_banned_while_they_were_open():
    bot, secret = await db(make_bot)("robo")
    lobby = await open_socket("/ws/lobby/", bearer(secret))
    await frame(lobby), await frame(lobby)
    # Saved without its signal (as if the message were lost): the ban itself closes the sockets at once
    # (tests/security/test_bans.py); this check is the backstop.
    await db(User.objects.filter(pk=bot.pk).update)(banned_until=timezone.now() + timedelta(days=1))
    assert await check_open_tokens() == 1
    frames, code = await until_closed(lobby)
    assert frames[-1]["code"] == "banned" and code == 4403


async def test_a_bot_account_is_online_while_a_socket_of_its_is_open():
    bot, secret = await db(make_bot)("robo")
    assert await db(presence.online)([bot.pk]) == set()
    lobby = await open_socket("/ws/lobby/", bearer(secret))
    await frame(lobby)
    assert await db(presence.online)([bot.pk]) == {bot.pk}
    await lobby.disconnect()
    assert await db(presence.online)([bot.pk]) == set()


async def test_a_token_socket_is_held_to_the_same_frame_rate_as_any_socket(stopped_clock):
    bot, secret = await db(make_bot)("robo")
    lobby = await open_socket("/ws/lobby/", bearer(secret))
    await frame(lobby), await frame(lobby)
    for _ in range(40):
        await lobby.send_to(text_data=json.dumps({"type": "ping"}))
    frames, code = await until_closed(lobby)
    assert frames[-1]["code"] == "rate_limited" and code == 1008


async def test_a_token_socket_is_held_to_the_same_frame_size_as_any_socket():
    bot, secret = await db(make_bot)("robo")
    lobby = await open_socket("/ws/lobby/", bearer(secret))
    await frame(lobby), await frame(lobby)
    await lobby.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 9000}))
    frames, code = await until_closed(lobby)
    assert frames[-1]["code"] == "too_big" and code == 1008


async def test_a_token_cannot_act_for_another_bot_account_at_its_table():
    owner, _ = await db(make_bot)("robo")
    _other, other_secret = await db(make_bot)("droid")
    table = await db(services.table_open)(by=owner, game="tile-rummy", seat_count=2, bots=["easy"])
    await db(services.table_start)(table_id=table.pk, by=owner)
    socket = await open_socket(f"/ws/tables/{table.pk}/", bearer(other_secret))
    state = await frame(socket)
    assert state["seat"] is None  # the other bot only watches
    for attempt in ({"type": "move", "move": "draw", "id": "m"}, {"type": "seed", "seed": "ab" * 16},
                    {"type": "leave"}, {"type": "back"}):
        await socket.send_to(text_data=json.dumps(attempt))
        refusal = await frame(socket)
        while refusal["type"] != "error":
            refusal = await frame(socket)
        assert refusal["code"] == "notallowed", attempt
    await socket.disconnect()
