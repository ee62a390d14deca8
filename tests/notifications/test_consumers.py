"""The bell's socket (`/ws/notifications/`) through the ASGI application: the unread count on opening, a
new notification live in the socket's own language, the count after a mark read, and no socket for a
visitor who is not signed in. Also the table socket's count of who is at a table (no push then)."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from apps.notifications import presence, services
from apps.notifications.models import Kind
from tests.tables.helpers import make_user
from tests.tables.test_consumers import connect, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

db = sync_to_async


async def test_the_bell_hears_its_players_notifications_live_in_its_own_language():
    alice = await db(make_user)("alice")
    bob = await db(make_user)("bob")
    await db(services.notify)(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=3)
    english = await connect("/ws/notifications/", alice)
    romanian = await connect("/ws/notifications/", alice, language="ro")
    others = await connect("/ws/notifications/", bob)
    assert await receive(english) == {"type": "unread", "unread": 1}
    assert await receive(romanian) == {"type": "unread", "unread": 1}
    assert await receive(others) == {"type": "unread", "unread": 0}
    note = await db(services.notify)(user_id=alice.pk, kind=Kind.CHALLENGE_RECEIVED, actor_id=bob.pk, actor_name="bob",
                                    challenge_id=5)
    frame = await receive(english)
    assert frame["type"] == "notification" and frame["unread"] == 2
    assert frame["item"]["id"] == note.pk and frame["item"]["text"] == "bob challenged you to a table."
    assert frame["item"]["url"] == "/challenges/5/"  # the challenge's page
    assert (await receive(romanian))["item"]["text"] == "bob te-a provocat la o masă."
    await db(services.mark_read)(user_id=alice.pk)
    assert await receive(english) == {"type": "unread", "unread": 0}
    assert await others.receive_nothing(timeout=0.3)
    await english.send_to(text_data=json.dumps({"type": "ping"}))
    assert await receive(english) == {"type": "pong"}
    for communicator in (english, romanian, others):
        await communicator.disconnect()


async def test_a_visitor_not_signed_in_gets_no_bell_socket():
    communicator = await connect("/ws/notifications/")
    output = await communicator.receive_output(timeout=10)
    assert output == {"type": "websocket.close", "code": 4401}


async def test_a_players_table_socket_counts_them_at_the_table_while_open():
    from apps.tables import services as tables

    alice = await db(make_user)("alice")
    table = await db(tables.table_open)(by=alice, game="tile-rummy", seat_count=2)
    assert not await db(presence.is_at_table)(table.pk, alice.pk)
    first = await connect(f"/ws/tables/{table.pk}/", alice)
    second = await connect(f"/ws/tables/{table.pk}/", alice)
    await receive(first)
    await receive(second)

    async def until(expected: bool) -> None:
        for _ in range(600):  # counted steps with a generous ceiling, not a time to beat
            if await db(presence.is_at_table)(table.pk, alice.pk) == expected:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"the count never became {expected}")

    await until(True)
    await second.disconnect()
    await until(True)
    await first.disconnect()
    await until(False)


async def test_opening_the_table_reads_the_players_notifications_of_that_table():
    from apps.notifications.models import Notification
    from apps.tables import services as tables

    alice = await db(make_user)("alice")
    table = await db(tables.table_open)(by=alice, game="tile-rummy", seat_count=2)
    here = await db(services.notify)(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=table.pk)
    elsewhere = await db(services.notify)(user_id=alice.pk, kind=Kind.YOUR_TURN, table_id=table.pk + 1000)
    bell = await connect("/ws/notifications/", alice)
    assert await receive(bell) == {"type": "unread", "unread": 2}
    socket = await connect(f"/ws/tables/{table.pk}/", alice)
    await receive(socket)
    assert await receive(bell) == {"type": "unread", "unread": 1}
    assert await db(lambda: Notification.objects.get(pk=here.pk).read_at is not None)()
    assert await db(lambda: Notification.objects.get(pk=elsewhere.pk).read_at is None)()
    await socket.disconnect()
    await bell.disconnect()


async def challenge_frames(communicator, challenge_id: int, until: str) -> list[dict]:
    """The challenge's frames a bell socket hears, up to the first whose `change` is `until` (other frames,
    notifications and counts, are passed over; a ceiling of frames, each waited for generously)."""
    heard = []
    for _ in range(50):
        frame = await receive(communicator)
        if frame["type"] == "challenge" and frame["challenge"] == challenge_id:
            heard.append(frame)
            if frame["change"] == until:
                return heard
    raise AssertionError(f"no {until!r} frame for challenge {challenge_id}: {heard}")


def house_challenge(by, *others):
    from apps.social import services as social

    return social.challenge_make(by=by, user_ids=[other.pk for other in others], game="tile-rummy",
                                 seat_count=len(others) + 1, turn_seconds=60)


async def test_a_decline_reaches_the_challengers_pages_live_with_its_reason_in_each_ones_language():
    from apps.social import services as social

    ana = await db(make_user)("ana")
    bogdan = await db(make_user)("bogdan")
    english = await connect("/ws/notifications/", ana)
    romanian = await connect("/ws/notifications/", ana, language="ro")
    to_bogdan = await connect("/ws/notifications/", bogdan)
    for communicator in (english, romanian, to_bogdan):
        assert (await receive(communicator))["type"] == "unread"  # listening now: nothing after is missed
    challenge = await db(house_challenge)(ana, bogdan)
    received = await challenge_frames(to_bogdan, challenge.pk, "received")
    assert received[-1] == {"type": "challenge", "challenge": challenge.pk, "change": "received", "status": "pending",
                            "actor": "ana", "reason": "", "reason_text": "", "table_url": ""}
    await db(social.challenge_decline)(by=bogdan, challenge_id=challenge.pk, reason="too_fast")
    declined = (await challenge_frames(english, challenge.pk, "declined"))[-1]
    assert declined == {"type": "challenge", "challenge": challenge.pk, "change": "declined", "status": "declined",
                        "actor": "bogdan", "reason": "too_fast", "reason_text": "Too fast for me", "table_url": ""}
    assert (await challenge_frames(romanian, challenge.pk, "declined"))[-1]["reason_text"] == "Prea rapid pentru mine"
    for communicator in (english, romanian, to_bogdan):
        await communicator.disconnect()


async def test_the_last_acceptance_sends_every_player_of_the_challenge_to_the_table():
    from apps.players import friends
    from apps.social import services as social
    from apps.social.models import Challenge

    ana = await db(make_user)("ana")
    bogdan = await db(make_user)("bogdan")
    carmen = await db(make_user)("carmen")
    outsider = await db(make_user)("dan")
    sockets = {}
    for user in (ana, bogdan, carmen, outsider):
        sockets[user.pk] = await connect("/ws/notifications/", user)
        assert (await receive(sockets[user.pk]))["type"] == "unread"
    challenge = await db(house_challenge)(ana, bogdan, carmen)
    await db(social.challenge_accept)(by=bogdan, challenge_id=challenge.pk, open_table=friends.open_challenge_table)
    accepted = (await challenge_frames(sockets[carmen.pk], challenge.pk, "accepted"))[-1]
    assert accepted["actor"] == "bogdan" and accepted["status"] == "pending"  # the others see the answer too
    await db(social.challenge_accept)(by=carmen, challenge_id=challenge.pk, open_table=friends.open_challenge_table)
    table_id = await db(lambda: Challenge.objects.get(pk=challenge.pk).table_id)()
    assert table_id
    for user in (ana, bogdan, carmen):
        started = (await challenge_frames(sockets[user.pk], challenge.pk, "started"))[-1]
        assert started["status"] == "started" and started["table_url"] == f"/t/{table_id}/"
    outsider_heard = []
    while not await sockets[outsider.pk].receive_nothing(timeout=0.3):
        outsider_heard.append(await receive(sockets[outsider.pk]))
    assert not [frame for frame in outsider_heard if frame["type"] == "challenge"]  # nobody else hears of it
    for communicator in sockets.values():
        await communicator.disconnect()
