"""Presence (SPEC 13): when a seated player's last socket to the table closes, the others are told
that seat is away (after the grace, well within 5 s), and back when a socket opens again. Only sockets
that ask for it (`?presence=1`) are told; the frame carries seat numbers only. (Across two processes:
tests/faults/test_two_servers.py.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from apps.tables import services
from tests.chat.test_chat_socket import until
from tests.tables.helpers import make_user
from tests.tables.test_consumers import connect, db, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PRESENCE = "?presence=1"


async def seated_pair() -> tuple[Any, Any, Any]:
    alice = await db(make_user)("alice")
    bob = await db(make_user)("bob")
    table = await db(services.table_open)(by=alice, game="tile-rummy", seat_count=2, turn_seconds=60)
    await db(services.table_join)(table_id=table.pk, by=bob)
    return table, alice, bob


async def presence(socket, away: list[int]) -> dict[str, Any]:
    """The next presence frame saying exactly these seats are away (earlier ones are skipped)."""
    async def wait() -> dict[str, Any]:
        while True:
            frame = await until(socket, "presence")
            if frame["away"] == away:
                return frame

    return await asyncio.wait_for(wait(), 30)


async def test_closing_the_last_socket_shows_the_seat_away_and_reopening_shows_it_back():
    table, alice, bob = await seated_pair()
    path = f"/ws/tables/{table.pk}/{PRESENCE}"
    mine = await connect(path, alice)
    assert (await presence(mine, [1]))["away"] == [1]  # bob has not come yet
    theirs = await connect(path, bob)
    await presence(mine, [])
    await theirs.disconnect()
    frame = await presence(mine, [1])
    assert set(frame) == {"type", "away"}
    again = await connect(path, bob)
    await presence(mine, [])
    assert (await receive(again))["type"] == "state"


async def test_a_second_tab_keeps_the_player_here_until_the_last_one_closes(settings):
    settings.TABLE_PRESENCE_GRACE_SECONDS = 0.1
    table, alice, bob = await seated_pair()
    path = f"/ws/tables/{table.pk}/{PRESENCE}"
    mine = await connect(path, alice)
    first, second = await connect(path, bob), await connect(path, bob)
    await presence(mine, [])
    await first.disconnect()
    await asyncio.sleep(0.5)  # longer than the grace: a wrong "away" would have been sent by now
    await second.disconnect()
    frames: list[dict[str, Any]] = []
    await until(mine, "presence", seen=frames)
    presence_frames = [frame["away"] for frame in frames if frame["type"] == "presence"]
    assert presence_frames == [[1]]


async def test_a_reload_within_the_grace_tells_nobody():
    table, alice, bob = await seated_pair()
    path = f"/ws/tables/{table.pk}/{PRESENCE}"
    mine = await connect(path, alice)
    theirs = await connect(path, bob)
    await presence(mine, [])
    await theirs.disconnect()
    reloaded = await connect(path, bob)  # the page reloaded: a new socket at once (kept: a dropped one closes)
    watcher = await connect(path)
    await presence(watcher, [])
    late = [] if await mine.receive_nothing(timeout=3) else [await receive(mine)]
    assert late == []  # past the 2 s grace, and no "away" came
    assert (await receive(reloaded))["type"] == "state"


async def test_a_socket_that_does_not_ask_is_not_told():
    table, alice, bob = await seated_pair()
    plain = await connect(f"/ws/tables/{table.pk}/", alice)
    assert (await receive(plain))["type"] == "state"
    theirs = await connect(f"/ws/tables/{table.pk}/{PRESENCE}", bob)
    await presence(theirs, [])
    await theirs.disconnect()
    assert await plain.receive_nothing(timeout=3)
