"""The `hint` frame of the table WebSocket (docs/protocol.md): a hint goes to the asking player only; a
rated table, a spectator and a fourth hint get an error frame, and nothing changes."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from apps.review.models import HintUse
from apps.tables.models import Table
from tests.review.helpers import rated_table, unrated_table
from tests.tables.helpers import make_user
from tests.tables.test_consumers import connect, drain, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async


async def test_a_hint_frame_goes_to_the_asking_player_only() -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    watcher = await connect(f"/ws/tables/{table.pk}/")
    state = await receive(player)
    await receive(watcher)
    await player.send_json_to({"type": "hint"})
    frame = await receive(player, timeout=30)
    assert frame["type"] == "hint" and frame["version"] == state["version"] and frame["left"] == 2
    assert frame["moves"] and all(isinstance(move, str) for move in frame["moves"])
    assert set(frame["placed"]) <= set(state["view"]["rack"])
    others: list[dict] = []
    await drain(watcher, others)
    assert [other["type"] for other in others if other["type"] != "state"] == []  # no hint reached the spectator
    assert all("placed" not in other and "moves" not in other for other in others)
    assert (await db(Table.objects.get)(pk=table.pk)).version == state["version"]
    await player.disconnect()
    await watcher.disconnect()


async def test_a_hint_at_a_rated_table_gets_an_error_frame_and_changes_nothing() -> None:
    table, ana, _ = await db(rated_table)()
    client = await connect(f"/ws/tables/{table.pk}/", ana)
    state = await receive(client)
    await client.send_json_to({"type": "hint", "id": "h1"})
    frame = await receive(client)
    assert frame == {"type": "error", "code": "hints_off", "message": "There are no hints at rated tables.", "ref": "h1"}
    assert await db(HintUse.objects.count)() == 0
    assert (await db(Table.objects.get)(pk=table.pk)).version == state["version"]
    await client.disconnect()


async def test_a_spectator_and_a_fourth_hint_are_refused() -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    for watcher in (None, await db(make_user)("watcher")):
        client = await connect(f"/ws/tables/{table.pk}/", watcher)
        await receive(client)
        await client.send_json_to({"type": "hint"})
        assert (await receive(client))["code"] == "hints_for_players"
        await client.disconnect()
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    for left in (2, 1, 0):
        await player.send_json_to({"type": "hint"})
        assert (await receive(player, timeout=30))["left"] == left
    await player.send_json_to({"type": "hint"})
    refused = await receive(player)
    assert refused["type"] == "error" and refused["code"] == "hints_used_up"
    assert await db(HintUse.objects.count)() == 3
    await player.disconnect()
