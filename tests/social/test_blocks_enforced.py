"""A block holds wherever the blocked player would meet the blocker (SPEC 17): the blocker's table, the
chat at a table they share, quick pairing (`blocked_pairs`), challenges (tests/social/test_challenges.py)."""

from __future__ import annotations

import pytest

from apps.social import selectors, services
from apps.tables import services as tables
from apps.tables.models import Seat
from tests.chat.test_chat_socket import CHAT, opened, until
from tests.tables.helpers import make_user
from tests.tables.test_consumers import db

HOUSE = "tile-rummy"


@pytest.mark.django_db
def test_whom_the_host_blocked_cannot_join_the_hosts_table_and_is_told_nothing_special():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    services.block(by=ana, user_id=bogdan.pk)
    table = tables.table_open(by=ana, game=HOUSE, seat_count=3, turn_seconds=60)
    with pytest.raises(tables.NotAllowed) as refused:
        tables.table_join(table_id=table.pk, by=bogdan)
    assert str(refused.value) == "This table is not taking players."  # what any closed table says
    tables.table_join(table_id=table.pk, by=carmen)
    assert set(Seat.objects.filter(table=table, user__isnull=False).values_list("user__username", flat=True)) == {
        "ana", "carmen"
    }
    # The block is one way: Ana may sit at Bogdan's table.
    his = tables.table_open(by=bogdan, game=HOUSE, seat_count=2, turn_seconds=60)
    tables.table_join(table_id=his.pk, by=ana)


@pytest.mark.django_db
def test_quick_pairing_sees_the_blocked_pair():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    services.block(by=bogdan, user_id=ana.pk)
    assert selectors.blocked_pairs([ana.pk, bogdan.pk, carmen.pk]) == {frozenset((ana.pk, bogdan.pk))}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_blockers_chat_never_shows_the_blocked_players_messages_live():
    ana, bogdan, carmen = [await db(make_user)(name) for name in ("ana", "bogdan", "carmen")]
    await db(services.block)(by=ana, user_id=bogdan.pk)
    table = await db(tables.table_open)(by=carmen, game=HOUSE, seat_count=3, turn_seconds=60)
    path = f"/ws/tables/{table.pk}/{CHAT}"
    a, b, c = (await opened(path, ana), await opened(path, bogdan), await opened(path, carmen))
    await b.send_json_to({"type": "chat", "text": "hello ana"})
    # Silent: Bogdan's message is stored and reaches Carmen (and himself) as any other.
    assert (await until(c, "chat"))["message"]["text"] == "hello ana"
    assert (await until(b, "chat"))["message"]["text"] == "hello ana"
    await c.send_json_to({"type": "chat", "text": "carmen here"})
    # Ana's next chat frame is Carmen's: Bogdan's never came.
    assert (await until(a, "chat"))["message"]["text"] == "carmen here"
    for socket in (a, b, c):
        await socket.disconnect()


@pytest.mark.django_db
def test_the_chat_history_leaves_out_whom_the_viewer_blocked():
    from apps.chat.services import chat_history, chat_say

    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    table = tables.table_open(by=carmen, game=HOUSE, seat_count=3, turn_seconds=60)
    chat_say(table_id=table.pk, by=bogdan, text="hello ana")
    chat_say(table_id=table.pk, by=carmen, text="carmen here")
    services.block(by=ana, user_id=bogdan.pk)
    assert [m["text"] for m in chat_history(table_id=table.pk, viewer_id=ana.pk)] == ["carmen here"]
    assert [m["text"] for m in chat_history(table_id=table.pk, viewer_id=carmen.pk)] == ["hello ana", "carmen here"]
