"""`start` takes an `id`, as a move does: the refusal of a retried start carries it as `ref`, and so does
the `ack` of the start that worked (docs/protocol.md, section 4; issue 40, section 7)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from apps.tables import services
from apps.tables.models import Table
from tests.tables.helpers import make_user
from tests.tables.test_consumers import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)
db = sync_to_async


async def answer_to(client: Any, ref: str) -> dict[str, Any]:
    """The first ack or error frame, skipping the state frames that may come before it."""
    while True:
        frame = await receive(client)
        if frame["type"] in ("ack", "error"):
            assert frame.get("ref") == ref, frame
            return frame


async def test_a_start_and_its_retry_are_answered_with_their_ids():
    alice, bob = await db(make_user)("alice"), await db(make_user)("bob")
    table = await db(services.table_open)(by=alice, game="tile-rummy", seat_count=2)
    await db(services.table_join)(table_id=table.pk, by=bob)
    client = await connect(f"/ws/tables/{table.pk}/", alice)
    await receive(client)
    await client.send_json_to({"type": "start", "id": "start-1"})
    assert (await answer_to(client, "start-1"))["type"] == "ack"
    assert (await db(Table.objects.get)(pk=table.pk)).status == Table.Status.PLAYING
    await client.send_json_to({"type": "start", "id": "start-2"})  # the retry: the match has started
    refused = await answer_to(client, "start-2")
    assert refused["type"] == "error" and refused["code"] in ("notallowed", "tableerror")
    await client.send_json_to({"type": "start"})  # without an id: refused as before, with no ref
    frame = await receive(client)
    while frame["type"] == "state":
        frame = await receive(client)
    assert frame["type"] == "error" and "ref" not in frame
    await client.disconnect()


@pytest.mark.parametrize("bad", [17, "x" * 65, None])
async def test_a_start_id_that_is_not_a_short_string_is_a_bad_frame(bad):
    alice, bob = await db(make_user)("alice"), await db(make_user)("bob")
    table = await db(services.table_open)(by=alice, game="tile-rummy", seat_count=2)
    await db(services.table_join)(table_id=table.pk, by=bob)
    client = await connect(f"/ws/tables/{table.pk}/", alice)
    await receive(client)
    await client.send_json_to({"type": "start", "id": bad})
    frame = await receive(client)
    assert frame["type"] == "error" and frame["code"] == "bad_frame"
    assert (await db(Table.objects.get)(pk=table.pk)).status == Table.Status.OPEN
    await client.disconnect()
