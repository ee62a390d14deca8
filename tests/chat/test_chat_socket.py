"""The table's chat over its WebSocket (SPEC 13): who may say what, the limits, mute, a moderator's
delete, reports, the history on opening, and that no chat frame carries anything of the game."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from apps.chat.consumers import CHAT_FRAMES
from apps.chat.models import ChatMessage, ChatMute, Report
from apps.chat.services import ChatRefused, chat_say
from apps.chat.wire import MESSAGE_FIELDS
from apps.live.guard import FrameError
from apps.moderation.services import account_mute_chat
from apps.tables import services
from apps.tables.models import Table
from tests.tables.helpers import make_user, run_due
from tests.tables.test_consumers import connect, db, keys_in, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HOUSE = "tile-rummy"
CHAT = "?chat=1&presence=1"


async def table_of_two(*, guest_second: bool = False) -> tuple[Table, Any, Any]:
    alice = await db(make_user)("alice")
    bob = await db(make_user)("bob-guest" if guest_second else "bob", guest=guest_second)
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, turn_seconds=60)
    await db(services.table_join)(table_id=table.pk, by=bob)
    await db(services.table_start)(table_id=table.pk, by=alice)
    return table, alice, bob


async def until(communicator, kind: str, ceiling: float = 30.0, seen: list | None = None) -> dict[str, Any]:
    """The next frame of this type (others are collected in `seen`)."""
    async def wait() -> dict[str, Any]:
        while True:
            frame = await receive(communicator, timeout=ceiling)
            if seen is not None:
                seen.append(frame)
            if frame["type"] == kind:
                return frame

    return await asyncio.wait_for(wait(), ceiling)


async def opened(path: str, user=None):
    client = await connect(path, user)
    await until(client, "chat_history")
    return client


async def test_a_message_from_each_player_and_a_registered_spectator_reaches_the_others():
    table, alice, bob = await table_of_two()
    carol = await db(make_user)("carol")
    path = f"/ws/tables/{table.pk}/{CHAT}"
    sockets = {name: await opened(path, user) for name, user in (("alice", alice), ("bob", bob), ("carol", carol))}
    for name, socket in sockets.items():
        await socket.send_json_to({"type": "chat", "text": f"hello from {name}"})
        for other in sockets.values():
            frame = await until(other, "chat")
            assert frame["message"]["text"] == f"hello from {name}"
            assert frame["message"]["name"] == name
    seats = {row.author.username: row.seat for row in await db(list)(ChatMessage.objects.select_related("author"))}
    assert seats == {"alice": 0, "bob": 1, "carol": None}
    match_ids = set(await db(list)(ChatMessage.objects.values_list("match_id", flat=True)))
    assert match_ids == {(await db(Table.objects.get)(pk=table.pk)).match_id}


async def test_an_anonymous_spectator_reads_but_cannot_write():
    table, alice, _bob = await table_of_two()
    watcher = await opened(f"/ws/tables/{table.pk}/{CHAT}")
    await watcher.send_json_to({"type": "chat", "phrase": "gg"})
    assert (await until(watcher, "error"))["code"] == "chat_signed_out"
    player = await opened(f"/ws/tables/{table.pk}/{CHAT}", alice)
    await player.send_json_to({"type": "chat", "text": "hi all"})
    assert (await until(watcher, "chat"))["message"]["text"] == "hi all"


async def test_a_guest_may_send_quick_phrases_only():
    table, _alice, guest = await table_of_two(guest_second=True)
    socket = await opened(f"/ws/tables/{table.pk}/{CHAT}", guest)
    await socket.send_json_to({"type": "chat", "text": "my own words"})
    refused = await until(socket, "error")
    assert refused["code"] == "chat_guest" and "quick phrases" in refused["message"]
    await socket.send_json_to({"type": "chat", "phrase": "nonsense"})
    assert (await until(socket, "error"))["code"] == "chat_unknown_phrase"
    await socket.send_json_to({"type": "chat", "phrase": "gg"})
    said = await until(socket, "chat")
    assert said["message"]["phrase"] == "gg" and said["message"]["text"] == ""


async def test_the_201st_character_is_refused_with_its_reason_and_200_pass():
    table, alice, _bob = await table_of_two()
    socket = await opened(f"/ws/tables/{table.pk}/{CHAT}", alice)
    await socket.send_json_to({"type": "chat", "text": "x" * 201})
    refused = await until(socket, "error")
    assert refused["code"] == "chat_too_long" and "200" in refused["message"]
    await socket.send_json_to({"type": "chat", "text": "y" * 200})
    assert (await until(socket, "chat"))["message"]["text"] == "y" * 200
    assert await db(ChatMessage.objects.count)() == 1


async def test_the_message_past_the_rate_limit_is_refused_with_its_reason(settings):
    settings.CHAT_RATE_MESSAGES = 3
    settings.CHAT_RATE_SECONDS = 3600  # a window no machine is slow enough to leave within the test
    table, alice, _bob = await table_of_two()
    socket = await opened(f"/ws/tables/{table.pk}/{CHAT}", alice)
    for number in range(3):
        await socket.send_json_to({"type": "chat", "text": f"m{number}"})
        assert (await until(socket, "chat"))["message"]["text"] == f"m{number}"
    await socket.send_json_to({"type": "chat", "text": "one too many"})
    refused = await until(socket, "error")
    assert refused["code"] == "chat_rate_limited" and "3" in refused["message"]
    # The window passes (its count in the cache expires): the user may talk again.
    await db(cache.clear)()
    await socket.send_json_to({"type": "chat", "text": "later"})
    assert (await until(socket, "chat"))["message"]["text"] == "later"


async def test_a_banned_user_cannot_chat():
    """A banned user's sockets are closed and refused (tests/security/test_bans.py); a message that races
    the ban (sent by a socket not yet closed) is refused by the chat itself, and nothing is stored."""
    table, alice, _bob = await table_of_two()
    alice.banned_until = timezone.now() + timedelta(days=1)
    await db(alice.save)()
    with pytest.raises(ChatRefused) as refused:
        await db(chat_say)(table_id=table.pk, by=alice, text="let me")
    assert refused.value.error_code == "chat_barred" and "banned" in str(refused.value)
    assert await db(ChatMessage.objects.count)() == 0


async def test_a_muted_authors_messages_stop_arriving_for_the_one_who_muted_and_only_for_them():
    table, alice, bob = await table_of_two()
    carol = await db(make_user)("carol")
    path = f"/ws/tables/{table.pk}/{CHAT}"
    a, b, c = (await opened(path, alice), await opened(path, bob), await opened(path, carol))
    await a.send_json_to({"type": "mute", "user": bob.pk})
    assert (await until(a, "muted"))["muted"] == [bob.pk]
    await b.send_json_to({"type": "chat", "text": "can you hear me"})
    assert (await until(c, "chat"))["message"]["text"] == "can you hear me"
    await c.send_json_to({"type": "chat", "text": "carol here"})
    # Alice's next chat frame is Carol's: Bob's never came.
    assert (await until(a, "chat"))["message"]["text"] == "carol here"
    # It holds across a reload: the mute is kept on the server, and the history leaves Bob out.
    again = await connect(path, alice)
    history = await until(again, "chat_history")
    assert [m["text"] for m in history["messages"]] == ["carol here"] and history["muted"] == [bob.pk]
    await again.send_json_to({"type": "unmute", "user": bob.pk})
    assert (await until(again, "muted"))["muted"] == []
    assert await db(ChatMute.objects.count)() == 0


async def test_a_moderators_delete_removes_the_message_from_every_screen_and_keeps_it_marked():
    table, alice, bob = await table_of_two()
    moderator = await db(make_user)("mod", staff=True)
    path = f"/ws/tables/{table.pk}/{CHAT}"
    a, b, m = (await opened(path, alice), await opened(path, bob), await opened(path, moderator))
    await b.send_json_to({"type": "chat", "text": "something rude"})
    said = (await until(m, "chat"))["message"]
    await a.send_json_to({"type": "chat_delete", "message": said["id"]})
    assert (await until(a, "error"))["code"] == "chat_not_moderator"
    await m.send_json_to({"type": "chat_delete", "message": said["id"]})
    for socket in (a, b, m):
        assert (await until(socket, "chat_deleted"))["id"] == said["id"]
    row = await db(ChatMessage.objects.get)(pk=said["id"])
    assert row.deleted_at is not None and row.deleted_by_id == moderator.pk and row.text == "something rude"
    history = await until(await connect(path, alice), "chat_history")
    assert history["messages"] == []


async def test_the_history_of_the_last_50_messages_comes_when_a_socket_opens(settings):
    settings.CHAT_RATE_MESSAGES = 1000
    table, alice, _bob = await table_of_two()
    await db(ChatMessage.objects.bulk_create)(
        [ChatMessage(table_id=table.pk, author=alice, seat=0, text=f"n{number}") for number in range(60)]
    )
    history = await until(await connect(f"/ws/tables/{table.pk}/{CHAT}"), "chat_history")
    assert [m["text"] for m in history["messages"]] == [f"n{number}" for number in range(10, 60)]


async def test_a_socket_that_does_not_ask_for_the_chat_gets_none_of_it():
    table, alice, bob = await table_of_two()
    plain = await connect(f"/ws/tables/{table.pk}/", alice)
    assert (await receive(plain))["type"] == "state"
    talker = await opened(f"/ws/tables/{table.pk}/{CHAT}", bob)
    await talker.send_json_to({"type": "chat", "text": "psst"})
    await until(talker, "chat")
    assert await plain.receive_nothing(timeout=0.5)


async def test_no_chat_frame_carries_a_rack_the_pile_or_anything_of_the_game():
    table, alice, bob = await table_of_two(guest_second=True)
    moderator = await db(make_user)("mod", staff=True)
    path = f"/ws/tables/{table.pk}/{CHAT}"
    frames: list[dict[str, Any]] = []
    a, b, m = (await opened(path, alice), await opened(path, bob), await opened(path, moderator))
    await a.send_json_to({"type": "chat", "text": "r5 b5 k5 please"})
    await b.send_json_to({"type": "chat", "phrase": "gl"})
    said = (await until(m, "chat", seen=frames))["message"]
    await until(m, "chat", seen=frames)
    await m.send_json_to({"type": "chat_delete", "message": said["id"]})
    await until(m, "chat_deleted", seen=frames)
    await a.send_json_to({"type": "mute", "user": bob.pk})
    await until(a, "muted", seen=frames)
    frames.append(await until(await connect(path, bob), "chat_history"))
    chat_frames = [frame for frame in frames if frame["type"] in ("chat", "chat_deleted", "chat_history", "muted")]
    assert {frame["type"] for frame in chat_frames} == {"chat", "chat_deleted", "chat_history", "muted"}
    for frame in chat_frames:
        for message in [frame.get("message")] + frame.get("messages", []):
            if message is not None:
                assert set(message) == set(MESSAGE_FIELDS)
        assert not keys_in(frame) & {"rack", "racks", "drawn", "deal", "pile", "pile_order", "view", "state", "server_seed"}


async def test_reports_of_a_player_and_of_a_message_keep_the_tables_context_once_each():
    table, alice, bob = await table_of_two()
    path = f"/ws/tables/{table.pk}/{CHAT}"
    a, b = await opened(path, alice), await opened(path, bob)
    await b.send_json_to({"type": "chat", "text": "you are terrible"})
    said = (await until(a, "chat"))["message"]
    await a.send_json_to({"type": "report", "user": bob.pk, "reason": "abuse", "text": "rude all game", "id": "r1"})
    assert (await until(a, "reported"))["ref"] == "r1"
    await a.send_json_to({"type": "report", "message": said["id"], "reason": "abuse"})
    await until(a, "reported")
    refusals = [
        ({"user": bob.pk, "reason": "abuse"}, "report_duplicate"),
        ({"message": said["id"], "reason": "spam"}, "report_duplicate"),
        ({"user": bob.pk, "reason": "bored"}, "report_bad_reason"),
        ({"user": alice.pk, "reason": "abuse"}, "report_self"),
        ({"user": 999999, "reason": "abuse"}, "report_no_target"),
        ({"message": 999999, "reason": "abuse"}, "chat_no_message"),
        ({"user": bob.pk, "reason": "other", "text": "z" * 501}, "report_too_long"),
    ]
    for fields, code in refusals:
        await a.send_json_to({"type": "report", **fields})
        refused = await until(a, "error")
        assert refused["code"] == code and refused["message"], (fields, refused)
    reports = await db(list)(Report.objects.order_by("pk"))
    assert len(reports) == 2
    player_report, message_report = reports
    current = await db(Table.objects.get)(pk=table.pk)
    assert player_report.reported_id == bob.pk and player_report.message_id is None
    assert player_report.context["match"] == current.match_id and player_report.context["version"] == current.version
    assert [m["text"] for m in player_report.context["messages"]] == ["you are terrible"]
    assert message_report.message_id == said["id"] and message_report.reported_id == bob.pk
    assert not player_report.handled


async def test_a_spectator_socket_cannot_report_without_signing_in():
    table, _alice, bob = await table_of_two()
    watcher = await opened(f"/ws/tables/{table.pk}/{CHAT}")
    await watcher.send_json_to({"type": "report", "user": bob.pk, "reason": "abuse"})
    assert (await until(watcher, "error"))["code"] == "chat_signed_out"
    await watcher.send_json_to({"type": "mute", "user": bob.pk})
    assert (await until(watcher, "error"))["code"] == "chat_signed_out"


async def test_the_frames_declared_for_chat_refuse_a_text_of_the_wrong_type():
    with pytest.raises(FrameError):
        CHAT_FRAMES["chat"].check({"type": "chat", "text": 5})
    with pytest.raises(FrameError):
        CHAT_FRAMES["mute"].check({"type": "mute"})
    assert json.dumps(sorted(CHAT_FRAMES)) == '["chat", "chat_delete", "mute", "report", "unmute"]'


async def test_a_player_muted_by_a_moderator_gets_the_reason_and_plays_on():
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, bots=["easy"], turn_seconds=60)
    await db(services.table_start)(table_id=table.pk, by=alice)
    await db(account_mute_chat)(user_id=alice.pk, until=timezone.now() + timedelta(hours=3), by=None, reason="insults")
    socket = await connect(f"/ws/tables/{table.pk}/{CHAT}", alice)
    seen: list[dict[str, Any]] = []
    await until(socket, "chat_history", seen=seen)
    await socket.send_json_to({"type": "chat", "text": "you all stink", "id": "c1"})
    refused = await until(socket, "error")
    assert refused["code"] == "chat_muted" and "play" in refused["message"]
    assert not await db(ChatMessage.objects.exists)()
    while (await db(Table.objects.get)(pk=table.pk)).due_action == Table.Due.BOT:  # the bot may start
        await db(run_due)(table.pk)
    current = await db(Table.objects.get)(pk=table.pk)
    state = next((frame for frame in reversed(seen) if frame["type"] == "state"), None)
    while state is None or state["version"] < current.version:
        state = await until(socket, "state")
    view = state["view"]
    move = "draw" if view["phase"] == "draw" else "discard " + view["rack"][0]
    await socket.send_json_to({"type": "move", "move": move, "version": state["version"], "id": "m1"})
    after = await until(socket, "state")
    assert after["version"] > state["version"]  # the move was played
    await socket.disconnect()
